//===- backends/MapLoadTiming.h - The map's two forms, timed ------*- C -*-===//
//
// The native measurement behind the map-load calibration
// (MapLoadCalibration.h): the kernel's lookup of an increment's two edges
// (runtime/kernels/ChannelX8.h) in its two forms, 16-byte loads of
// neighbouring edges and gathers, over random increments of an eight-axis
// map, on this CPU, compiled for the instruction set the JIT would use.
// C, so that it shares the kernel's own helpers.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_MAPLOADTIMING_H
#define VF_COMPILER_BACKENDS_MAPLOADTIMING_H

#ifdef __cplusplus
extern "C" {
#endif

/// The instruction sets the two forms are timed in.
typedef enum vf_timing_isa { VF_TIMING_AVX2, VF_TIMING_AVX512 } vf_timing_isa;

/// Nanoseconds per sample of eight axes' lookups in each form compiled
/// for \p isa, each form's fastest of several passes taken in turn (under
/// a millisecond in all); returns 0 and measures nothing where this CPU
/// (or its operating system) lacks \p isa.
int vf_time_map_loads(vf_timing_isa isa, double *pairs_ns, double *gathers_ns);

#ifdef __cplusplus
}
#endif

#endif // VF_COMPILER_BACKENDS_MAPLOADTIMING_H
