//===- runtime/reduction/TileSink.h - Where finished tiles go ---*- C++ -*-===//
//
// The iteration's host arrays that every device commits its tiles into:
// per-hypercube segments (complete hypercubes inside a tile or a chunk),
// each tile's two edge segments and result, and its training histogram
// (through TrainingSums, which adds them in tile order), and its histogram
// cells (through HistogramSums, likewise). A tile's slots are
// its own, so devices write concurrently without locks and the reduction
// that follows (Segments, TrainingSums) never depends on which device ran
// which tile.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_REDUCTION_TILESINK_H
#define VF_RUNTIME_REDUCTION_TILESINK_H

#include "SamplerABI.h"

#include <cstdint>
#include <functional>

namespace vf {

class HistogramSums;
class TrainingSums;

/// Where finished tiles go on the host (the iteration's arrays).
struct TileSink {
  double *Segments;          ///< nhcube x stride
  double *Edges;             ///< ntiles x 2 x stride
  vf_tile_result *Results;   ///< ntiles
  TrainingSums *Training;    ///< null when the map is frozen
  std::function<void(std::uint64_t Tile)> TileDone;
  /// Histograms of observables: each tile's buffer, submitted after its
  /// result is written (null when the integrand has none).
  HistogramSums *Histograms = nullptr;
};

} // namespace vf

#endif // VF_RUNTIME_REDUCTION_TILESINK_H
