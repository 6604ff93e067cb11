//===- tests/unit/runtime/kernels/SampleBatchProbe512.c - AVX-512 build ---===//
//
// SampleBatchProbe.c again, compiled for AVX-512 (the test skips it on a
// CPU without): the form the JIT gives an AVX-512 host.
//
//===----------------------------------------------------------------------===//

#define VF_PROBE(name) vf_test512_##name
#include "SampleBatchProbe.c"
