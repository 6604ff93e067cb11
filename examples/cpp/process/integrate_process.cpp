//===- integrate_process.cpp - A generated process integrated by vegasflow ===//
//
// e+e- -> mu+mu- and u ubar, d dbar -> l+l- from the class-based processes
// of this folder (Processes.h, configured by param_card.dat), integrated
// with VEGAS+ on every CPU thread through vf/Process.h (Integrands.cpp: one
// process object per thread evaluating at once, built once).
//
//   integrate_process [param_card.dat [rs]]
//
// prints each cross section in pb. Exit 1 on an error (a card that cannot
// be read, a bad rs), with the message.
//
//===----------------------------------------------------------------------===//

#include "Integrands.h"

#include <vf/Integrator.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

namespace {

int fail(const std::string &Message) {
  std::cerr << "integrate_process: error: " << Message << "\n";
  return 1;
}

} // namespace

int main(int Argc, char **Argv) {
  const std::string Card = Argc > 1 ? Argv[1] : VF_EXAMPLE_PARAM_CARD;
  double RootS = 91.19;
  if (Argc > 2) {
    char *End = nullptr;
    RootS = std::strtod(Argv[2], &End);
    if (*End != '\0' || !(RootS > 0) || RootS > 1e6)
      return fail("rs must be an energy in GeV (0 < rs <= 1e6), got '" +
                  std::string(Argv[2]) + "'");
  }
  const struct {
    const char *Name;
    vfexample::ProcessKind Kind;
  } Processes[] = {{"ee_mumu", vfexample::ProcessKind::EeMuMu},
                   {"uubar_ll", vfexample::ProcessKind::UUbarLL},
                   {"ddbar_ll", vfexample::ProcessKind::DDbarLL}};
  for (const auto &P : Processes) {
    auto Integrand = vfexample::processSigma(P.Name, P.Kind, Card);
    if (!Integrand)
      return fail(Integrand.message());
    vf::IntegratorOptions Options;
    Options.Seed = 7;
    auto Integ = vf::Integrator::create(*Integrand, Options);
    if (!Integ)
      return fail(Integ.message());
    if (auto S = (*Integ)->setParam("rs", RootS); !S)
      return fail(S.message());
    auto R = (*Integ)->run(10, 20000, 3);
    if (!R)
      return fail(R.message());
    std::printf("%-9s sigma = %.10g +- %.3g pb  (chi2/dof %.2f)\n", P.Name,
                R->Mean[0], R->Error[0], R->Chi2Dof);
  }
  return 0;
}
