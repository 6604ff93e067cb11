//===- tests/unit/runtime/kernels/SampleBatchProbeF32512.c - AVX-512 ------===//
//
// SampleBatchProbeF32.c compiled for AVX-512 (the test skips it on a CPU
// without).
//
//===----------------------------------------------------------------------===//

#define VF_SAMPLE_SINGLE
#define VF_PROBE(name) vf_test512_f32_##name
#include "SampleBatchProbe.c"
