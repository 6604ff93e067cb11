//===- Integrands.h - The example processes as vegasflow integrands -*- C++
//-*-===//
//
// What a generator writes to integrate a generated process with vegasflow:
// the phase space around it (here the 2 -> 2 of examples/physics/ee_mumu.vf,
// x = (u, v) with cos(theta) = 2u - 1, phi = 2 pi v) and the adapter of
// vf/Process.h, which gives every thread evaluating at once its own process
// object, built once from the parameter card.
//
//===----------------------------------------------------------------------===//
#ifndef VF_EXAMPLES_PROCESS_INTEGRANDS_H
#define VF_EXAMPLES_PROCESS_INTEGRANDS_H

#include "Processes.h"

#include <vf/Expected.h>
#include <vf/Integrand.h>

#include <string>

namespace vfexample {

enum class ProcessKind { EeMuMu, UUbarLL, DDbarLL };

/// 2 dsigma/dcos(theta) in pb of \p Process at sqrt(s) = \p RootS and the
/// angles of (U, V): ee_mumu.vf's `sigma` integrand, whose integral over
/// [0, 1]^2 is the cross section.
double sigmaIntegrand(NeutralCurrentProcess &Process, double RootS, double U,
                      double V);

/// The integrand \p Name over [0, 1]^2 with the parameter rs = 91.19 (GeV):
/// sigmaIntegrand of a process of kind \p Kind read from \p ParamCard. A
/// card that cannot be read is an error naming it.
vf::Expected<vf::IntegrandInfo> processSigma(const std::string &Name,
                                             ProcessKind Kind,
                                             const std::string &ParamCard);

} // namespace vfexample

#endif // VF_EXAMPLES_PROCESS_INTEGRANDS_H
