//===- bench/engine/EngineFloor.h - The engine's unavoidable work alone -*- C -*-===//
//
// Times the parts of a d = 8 sample that every form of the engine must do
// (EngineFloor.c), for the sampling engine benchmark's measured limit.
//
//===----------------------------------------------------------------------===//
#ifndef VF_BENCH_ENGINE_ENGINEFLOOR_H
#define VF_BENCH_ENGINE_ENGINEFLOOR_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum floor_part {
  /// Philox4x32-10 words of the eight uniforms (two blocks).
  FLOOR_PHILOX,
  /// ... and the map of all eight axes: edges, x, Jacobian, training slot.
  FLOOR_MAPPED,
  /// The same with the edges gathered (AVX-512 only; vf_floor_has).
  FLOOR_MAP_GATHERED,
  /// FLOOR_MAPPED and one training update per axis, in sample order.
  FLOOR_TRAINED,
  /// The training updates alone (slots drawn beforehand), spread over the
  /// floor's 8 x 1000 bins: 128 KB of pairs, four times an L1 cache.
  FLOOR_UPDATES,
  /// The same over 8 x 100 bins (12.8 KB): every pair in the L1 cache.
  FLOOR_UPDATES_L1,
} floor_part;

/// Whether this build can time \p what.
int vf_floor_has(floor_part what);

/// CPU ns per sample of \p what over \p samples samples (one thread);
/// \p checksum receives a value that depends on every result.
double vf_floor_ns(floor_part what, unsigned long long samples,
                   double *checksum);

#ifdef __cplusplus
}
#endif

#endif // VF_BENCH_ENGINE_ENGINEFLOOR_H
