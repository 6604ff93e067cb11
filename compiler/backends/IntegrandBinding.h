//===- backends/IntegrandBinding.h - Compiled code to the runtime -*- C++ -*-===//
//
// The runtime knows an integrand only as a vf::IntegrandInfo (no compiler
// types). This fills one in from the checked program and the compiled
// module: shape, parameters, entry points, and a domain function that
// evaluates parameter-dependent bounds and rejects an empty interval with
// its source location.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_INTEGRANDBINDING_H
#define VF_COMPILER_BACKENDS_INTEGRANDBINDING_H

#include "backends/Compiler.h"
#include "backends/LazyBatch.h"
#include "faults/IntegrandFaults.h"
#include "vf/Integrand.h"

#include <memory>

namespace vf {

struct IntegrandDecl;

/// What a fault in \p Name's compiled code reports
/// (faults/IntegrandFaults.h) when \p P has C/C++ code, whose faults are
/// the user's; null for a .vf program alone, where a fault is a compiler
/// bug and goes to the crash handler's stack dump. The bindings below run
/// their entry points under it.
std::shared_ptr<const FaultSite> integrandFaultSite(const Program &P,
                                                    const std::string &Name);

/// \p P must stay alive as long as the result (it is shared); the Compiler
/// that produced \p M owns the code the entry points point to and must
/// outlive every use of them. With \p OnDemand, the result compiles what
/// it needs later with \p Options: its GPU kernel's PTX for a GPU's arch,
/// and, where \p M has no batch entry point, that (Evaluate) through
/// \p Batch, shared by the program's bindings (a new one if null).
IntegrandInfo bindIntegrand(std::shared_ptr<const Program> P,
                            const CompiledModule &M, const IntegrandDecl &I,
                            Compiler *OnDemand = nullptr,
                            const CompileOptions &Options = {},
                            std::shared_ptr<LazyBatch> Batch = nullptr);

} // namespace vf

#endif // VF_COMPILER_BACKENDS_INTEGRANDBINDING_H
