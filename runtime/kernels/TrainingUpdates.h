//===- runtime/kernels/TrainingUpdates.h - A batch's map training -*- C -*-===//
//
// The host kernel's map-training updates (Sampler.c): each sample of a
// batch adds its (value, weight) pair, (J f_0)^2 / n_h and 1 / n_h, to the
// pair of its increment on every axis. A pair receives its additions in
// sample order, so a tile's sums do not depend on how its samples were
// batched (TrainingSums.h orders the tiles). The engine's floor benchmark
// (bench/engine) times these same operations.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_TRAININGUPDATES_H
#define VF_RUNTIME_KERNELS_TRAININGUPDATES_H

#include "LaneVectors.h"
#include "SamplerABI.h"

/// Samples [0, nb) of a batch whose slots are axis-major: entry d of
/// sample b at slot[d * stride + b], an offset into \p train.
static inline void vf_train_batch(vf_real *train, const vf_u32 *slot,
                                  unsigned stride, const vf_real *value,
                                  const vf_real *weight, unsigned dim,
                                  unsigned nb) {
  for (unsigned b = 0; b < nb; ++b) {
    const vf_realx2 add = {value[b], weight[b]};
    VF_UNROLL_DIMENSIONS
    for (unsigned d = 0; d < dim; ++d) {
      vf_real *p = train + slot[d * stride + b];
      vf_realx2 pair;
      __builtin_memcpy(&pair, p, sizeof pair);
      pair += add;
      __builtin_memcpy(p, &pair, sizeof pair);
    }
  }
}

#endif // VF_RUNTIME_KERNELS_TRAININGUPDATES_H
