//===- runtime/kernels/LaneVectors.h - Host kernel lane types -----*- C -*-===//
//
// The vector types of the host's sixteen-samples step (SampleBatch.h) and
// of the stages it is made of (PhiloxX16.h, ChannelX8.h): clang's
// ext_vector_type, so that every step runs eight or sixteen lanes per
// instruction (one AVX-512 register, two AVX2 ones). The GPU kernel, one
// sample per lane, uses only the pairs (a training bin's two sums).
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_LANEVECTORS_H
#define VF_RUNTIME_KERNELS_LANEVECTORS_H

#include "Philox.h"

/// Samples per vector of doubles, and per vector of 32-bit words.
#define VF_LANES 8
#define VF_WORD_LANES 16
typedef double vf_f64x8 __attribute__((ext_vector_type(VF_LANES)));
typedef vf_u32 vf_u32x8 __attribute__((ext_vector_type(VF_LANES)));
typedef vf_u64 vf_u64x8 __attribute__((ext_vector_type(VF_LANES)));
typedef vf_u32 vf_u32x16 __attribute__((ext_vector_type(VF_WORD_LANES)));
typedef double vf_f64x2 __attribute__((ext_vector_type(2)));
typedef double vf_f64x4 __attribute__((ext_vector_type(4)));

#endif // VF_RUNTIME_KERNELS_LANEVECTORS_H
