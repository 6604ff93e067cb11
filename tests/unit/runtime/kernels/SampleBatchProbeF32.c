//===- tests/unit/runtime/kernels/SampleBatchProbeF32.c - Single build ----===//
//
// SampleBatchProbe.c with the single-precision sample path (SampleReal.h),
// the form of the kernels --precision f32 runs.
//
//===----------------------------------------------------------------------===//

#define VF_SAMPLE_SINGLE
#define VF_PROBE(name) vf_test_f32_##name
#include "SampleBatchProbe.c"
