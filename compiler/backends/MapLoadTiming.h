//===- backends/MapLoadTiming.h - The map's two forms, timed ------*- C -*-===//
//
// The native measurement behind the map-load calibration
// (MapLoadCalibration.h): the kernel's lookup of an increment's two edges
// (runtime/kernels/ChannelX8.h) in its two forms, 16-byte loads of
// neighbouring edges and two gathers, over random increments of an
// eight-axis map, on this CPU. C, so that it shares the kernel's own
// helpers.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_MAPLOADTIMING_H
#define VF_COMPILER_BACKENDS_MAPLOADTIMING_H

#ifdef __cplusplus
extern "C" {
#endif

/// Nanoseconds per sample of eight axes' lookups, each form's fastest of
/// several passes taken in turn (about 2 ms in all); returns 0 and
/// measures nothing on a CPU without AVX-512, the only x86-64 on which
/// LLVM emits a gather instruction whatever its tuning.
int vf_time_map_loads(double *pairs_ns, double *gathers_ns);

#ifdef __cplusplus
}
#endif

#endif // VF_COMPILER_BACKENDS_MAPLOADTIMING_H
