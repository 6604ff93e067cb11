//===- runtime/integrator/TrainingSums.h - Map training in tile order -*- C++ -*-===//
//
// Each tile accumulates its own map-training histogram (dim x ninc sums and
// weights). Floating-point addition is not associative, so adding tiles'
// histograms in the order workers finish would make the next map - and
// every later estimate - depend on the thread count. TrainingSums holds a
// finished tile's histogram until all earlier tiles are added, then adds it:
// always in tile order. Tiles are claimed in increasing order, so only a few
// wait at a time; their buffers are recycled.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_TRAININGSUMS_H
#define VF_RUNTIME_INTEGRATOR_TRAININGSUMS_H

#include <cstdint>
#include <map>
#include <mutex>
#include <span>
#include <vector>

namespace vf {

class TrainingSums {
public:
  /// \p Bins histogram entries per tile (each a sum and a weight).
  explicit TrainingSums(std::size_t Bins) : Bins(Bins), Total(2 * Bins, 0.0) {}

  /// A zeroed buffer for one tile: sums in [0, Bins), weights in
  /// [Bins, 2 Bins).
  std::vector<double> acquire();
  /// Hands tile \p Tile's buffer back; adds it (and any tiles it unblocks)
  /// once every earlier tile has been added.
  void submit(std::uint64_t Tile, std::vector<double> Buffer);

  /// The totals, after every tile was submitted.
  std::span<const double> sums() const { return {Total.data(), Bins}; }
  std::span<const double> weights() const {
    return {Total.data() + Bins, Bins};
  }

private:
  std::size_t Bins;
  std::vector<double> Total;
  std::mutex Mutex;
  std::uint64_t Next = 0;
  std::map<std::uint64_t, std::vector<double>> Waiting;
  std::vector<std::vector<double>> Free;
};

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_TRAININGSUMS_H
