//===- Integrands.cpp - The example processes as vegasflow integrands -----===//

#include "Integrands.h"

#include <vf/Process.h>

#include <array>
#include <cmath>
#include <memory>
#include <numbers>
#include <vector>

namespace vfexample {

namespace {

constexpr double GeV2pb = 0.3893794e9; // 1 GeV^-2 in pb

std::unique_ptr<NeutralCurrentProcess> makeProcess(ProcessKind Kind) {
  switch (Kind) {
  case ProcessKind::EeMuMu:
    return std::make_unique<EeMuMuProcess>();
  case ProcessKind::UUbarLL:
    return std::make_unique<QqbarLLProcess>(QqbarLLProcess::Quark::Up);
  case ProcessKind::DDbarLL:
    return std::make_unique<QqbarLLProcess>(QqbarLLProcess::Quark::Down);
  }
  return nullptr;
}

} // namespace

double sigmaIntegrand(NeutralCurrentProcess &Process, double RootS, double U,
                      double V) {
  // std/phasespace's two_body_rest for massless particles, beams along z.
  const double E = RootS / 2, C = 2 * U - 1;
  const double SinT = std::sqrt(std::max(1 - C * C, 0.0));
  const double Phi = 2 * std::numbers::pi * V;
  const double Kx = E * SinT * std::cos(Phi), Ky = E * SinT * std::sin(Phi),
               Kz = E * C;
  std::array<double, 16> P = {E, 0,  0,  E,  E, 0,   0,   -E,
                              E, Kx, Ky, Kz, E, -Kx, -Ky, -Kz};
  std::vector<double *> Momenta = {&P[0], &P[4], &P[8], &P[12]};
  Process.setMomenta(Momenta);
  Process.sigmaKin();
  const double S = RootS * RootS;
  return 2 * GeV2pb * Process.getMatrixElements()[0] /
         (32 * std::numbers::pi * S);
}

vf::Expected<vf::IntegrandInfo> processSigma(const std::string &Name,
                                             ProcessKind Kind,
                                             const std::string &ParamCard) {
  // The adapter: a factory building one configured object, and the
  // integrand at one point on such an object.
  return vf::processIntegrand(
      vf::ProcessSpec{Name, 2, 1, {0, 0}, {1, 1}, {{"rs"}, {91.19}}},
      [Kind, ParamCard] {
        auto Process = makeProcess(Kind);
        Process->initProc(ParamCard);
        return Process;
      },
      [](NeutralCurrentProcess &Process, std::span<const double> X,
         std::span<const double> Params, std::span<double> Out) {
        Out[0] = sigmaIntegrand(Process, Params[0], X[0], X[1]);
      });
}

} // namespace vfexample
