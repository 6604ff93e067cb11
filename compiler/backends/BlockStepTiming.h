//===- backends/BlockStepTiming.h - The block step's forms, timed -*- C -*-===//
//
// The native measurement behind the block-step calibration
// (BlockStepCalibration.h): the kernel's block step
// (runtime/kernels/BlockSums.h) in its two forms, lane-parallel 32-lane
// vectors and run by run, over random blocks of one output, on this CPU,
// compiled for the instruction set the JIT would use. C, so that it
// runs the kernel's own code.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_BLOCKSTEPTIMING_H
#define VF_COMPILER_BACKENDS_BLOCKSTEPTIMING_H

#include "MapLoadTiming.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Nanoseconds per sample of the block step in each form compiled for
/// \p isa (vf_timing_isa, MapLoadTiming.h), each form's fastest of
/// several passes taken in turn (under a millisecond in all); returns 0
/// and measures nothing where this CPU (or its operating system) lacks
/// \p isa.
int vf_time_block_steps(vf_timing_isa isa, double *runs_ns, double *lanes_ns);

#ifdef __cplusplus
}
#endif

#endif // VF_COMPILER_BACKENDS_BLOCKSTEPTIMING_H
