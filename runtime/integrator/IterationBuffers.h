//===- runtime/integrator/IterationBuffers.h - Iteration arrays -*- C++ -*-===//
//
// The arrays one iteration fills and reduces: what the devices commit per
// tile (TileSink) and what the estimate and the rank exchange read back.
// They are kept from one iteration to the next, so that their pages do not
// fault in anew every iteration; Iteration owns them and RankExchange
// exchanges the parts each rank computed.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_ITERATIONBUFFERS_H
#define VF_RUNTIME_INTEGRATOR_ITERATIONBUFFERS_H

#include "reduction/HistogramSums.h"
#include "reduction/Segments.h"
#include "reduction/TrainingSums.h"

#include "SamplerABI.h"

#include <vector>

namespace vf {

struct IterationBuffers {
  /// A segment per hypercube (segmentStride(outputs) doubles), not cleared
  /// between iterations (Iteration::estimate says why).
  std::vector<double> Segs;
  /// Two edge segments per tile: its first and last hypercube's part.
  std::vector<double> Edges;
  /// The one-output estimate's per-hypercube terms.
  HypercubeTerms Terms;
  std::vector<vf_tile_result> Results; ///< one per tile
  TrainingSums Training{0, 1};         ///< the map's training histograms
  HistogramSums Histograms;            ///< the observables' cells
};

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_ITERATIONBUFFERS_H
