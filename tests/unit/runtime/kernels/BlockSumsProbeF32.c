//===- tests/unit/runtime/kernels/BlockSumsProbeF32.c - Single build ------===//
//
// BlockSumsProbe.c with the single-precision sample path (SampleReal.h):
// float terms and compensated sums of the deviations.
//
//===----------------------------------------------------------------------===//

#define VF_SAMPLE_SINGLE
#define VF_BLOCK_PROBE vf_test_f32_block_tile
#include "BlockSumsProbe.c"
