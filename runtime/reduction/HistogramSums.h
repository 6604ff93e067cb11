//===- runtime/reduction/HistogramSums.h - Histogram cells in tile order -*- C++ -*-===//
//
// The iteration's histogram cells (kernels/HistSums.h) from the tiles'
// buffers. A tile's buffer holds the (I, V) terms of its inner hypercubes
// and the raw sums of its first and last hypercube, which may continue in
// the neighbouring tiles. Tiles are reduced in the training histograms'
// groups (TrainingSums, whose ordering this reuses): within a group, in
// tile order, a tile's totals are added and its edges merged with the open
// hypercube, folding each hypercube once it is complete. A group's partial
// has a tile buffer's layout (its totals, its first and its last
// hypercube's raw sums), so the groups are chained the same way, in group
// order, and the two ends are folded last. Every sum is taken in an order
// fixed by tile and group indices, so the cells do not depend on which
// device or rank ran which tile; memory is the partials (groups x 6 cells)
// and the buffers of tiles in flight.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_REDUCTION_HISTOGRAMSUMS_H
#define VF_RUNTIME_REDUCTION_HISTOGRAMSUMS_H

#include "SamplerABI.h"
#include "reduction/TrainingSums.h"

#include <cstdint>
#include <span>
#include <vector>

namespace vf {

class HistogramSums {
public:
  HistogramSums() : Order(0, 1) {}
  /// For an iteration of \p A with \p Cells cells (0: no histograms) over
  /// \p Ntiles tiles in \p Groups groups, whose results \p Results holds
  /// (they must be written before a tile is submitted or finish() runs).
  void reset(std::uint32_t Cells, std::uint64_t Ntiles, std::uint64_t Groups,
             const vf_sampler_args &A, const vf_tile_result *Results);

  std::uint32_t cells() const { return Cells; }
  /// A zeroed tile buffer (VF_HIST_TILE(cells) doubles).
  std::vector<double> acquire() { return Order.acquire(); }
  /// Tile \p Tile's finished buffer.
  void submit(std::uint64_t Tile, std::vector<double> Buffer) {
    Order.submit(Tile, std::move(Buffer));
  }
  /// Groups x VF_HIST_TILE(cells): what MPI ranks exchange before finish().
  std::span<double> partials() { return Order.partials(); }
  /// Chains the groups' partials, after every tile was submitted.
  void finish();
  /// Per cell (I, V), after finish().
  std::span<const double> totals() const { return Totals; }

private:
  /// Adds \p Part (a tile or a group, from hypercube \p First to \p Last)
  /// after \p Acc, whose last hypercube is \p AccLast (updated).
  void absorb(double *Acc, std::uint64_t AccFirst, std::uint64_t &AccLast,
              const double *Part, std::uint64_t First, std::uint64_t Last);
  /// Folds the raw sums of hypercube \p H into \p Tot and clears them.
  void fold(double *Tot, double *Raw, std::uint64_t H) const;

  TrainingSums Order;
  std::uint32_t Cells = 0;
  const vf_tile_result *Results = nullptr;
  const vf_u64 *Offsets = nullptr;
  double Nhcube = 1;
  /// Per group, the last hypercube absorbed so far.
  std::vector<std::uint64_t> GroupLast;
  std::vector<double> Totals;
};

} // namespace vf

#endif // VF_RUNTIME_REDUCTION_HISTOGRAMSUMS_H
