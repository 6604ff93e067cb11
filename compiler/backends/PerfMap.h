//===- backends/PerfMap.h - JIT'd functions by name for perf ----*- C++ -*-===//
//
// Linux perf resolves addresses in anonymous executable memory through
// /tmp/perf-PID.map ("START SIZE NAME" per line, hexadecimal). With
// VF_PERF_MAP=1 in the environment (or vegasc --profile, which sets it), every
// function the JIT links - the sampler's tile loop, the integrand, the math
// library's out-of-line paths - is appended there, so `perf record` /
// `perf report` name them.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_PERFMAP_H
#define VF_COMPILER_BACKENDS_PERFMAP_H

namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace vf {

/// Adds the perf-map writer to \p J's object linking layer when
/// VF_PERF_MAP is set to a value other than 0; does nothing otherwise.
void enablePerfMapIfRequested(llvm::orc::LLJIT &J);

} // namespace vf

#endif // VF_COMPILER_BACKENDS_PERFMAP_H
