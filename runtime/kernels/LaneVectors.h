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
typedef vf_u64 vf_u64x4 __attribute__((ext_vector_type(4)));
typedef float vf_f32x8 __attribute__((ext_vector_type(VF_LANES)));
typedef float vf_f32x2 __attribute__((ext_vector_type(2)));
typedef float vf_f32x4 __attribute__((ext_vector_type(4)));

/// The sample path's real (SampleReal.h) in eight lanes, and its pairs
/// and quadruples (a map increment's two edges, ChannelX8.h).
#ifdef VF_SAMPLE_SINGLE
typedef vf_f32x8 vf_realx8;
typedef vf_f32x2 vf_realx2;
typedef vf_f32x4 vf_realx4;
#else
typedef vf_f64x8 vf_realx8;
typedef vf_f64x2 vf_realx2;
typedef vf_f64x4 vf_realx4;
#endif

#endif // VF_RUNTIME_KERNELS_LANEVECTORS_H
