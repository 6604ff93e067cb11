//===- runtime/reduction/TrainingSums.h - Map training in a fixed order -*- C++ -*-===//
//
// Each tile accumulates its own map-training histogram (dim x ninc (sum,
// weight) pairs). Floating-point addition is not associative, so adding tiles'
// histograms in the order workers finish would make the next map - and
// every later estimate - depend on the thread count. The order is fixed
// instead, by tile indices only:
//
//   the tiles are cut into G groups of consecutive tiles; a group's
//   partial is the sum of its tiles' histograms in tile order, from zero;
//   the total is the sum of the group partials in group order.
//
// G depends only on the tile count and the histogram size, so the order is
// the same for any threads, devices and MPI ranks: a rank that ran whole
// groups holds their partials, and the ranks exchange partials, not tiles
// (at most 64 of them, within a memory budget). A finished tile waits until
// the earlier tiles of its group are added; tiles are claimed in increasing
// order, so only a few wait at a time, and their buffers are recycled.
//
// The same ordering serves any per-tile buffer: HistogramSums gives its own
// way of adding a tile to its group's partial (AddTile) and the groups of
// the training histograms, so both reduce over the same groups.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_REDUCTION_TRAININGSUMS_H
#define VF_RUNTIME_REDUCTION_TRAININGSUMS_H

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

namespace vf {

class TrainingSums {
public:
  /// \p Bins histogram entries per tile (each a sum and a weight), for an
  /// iteration of \p Ntiles tiles.
  TrainingSums(std::size_t Bins, std::uint64_t Ntiles);
  /// Adds tile \p Tile's buffer to group \p Group's partial (both 2 Bins
  /// doubles), in tile order within the group; the buffer is cleared after.
  using AddTile = std::function<void(std::uint64_t Group, std::uint64_t Tile,
                                     double *Partial, const double *Buffer)>;
  /// As constructed anew for \p Bins and \p Ntiles, keeping the memory;
  /// \p Groups (0: groupCount) and \p Add (empty: element-wise sums) as
  /// given. With \p KeepPartials false and element-wise sums, a group is
  /// added to the total as soon as it and every earlier group are
  /// complete (the same additions, in the same order), while its partial
  /// is still in the cache, and partials() may not be called: for a
  /// process that runs every tile itself.
  void reset(std::size_t Bins, std::uint64_t Ntiles, std::uint64_t Groups = 0,
             AddTile Add = {}, bool KeepPartials = true);

  /// A tile's buffer as the single-precision kernels leave it, its
  /// entries floats in its first half (runtime/kernels/SampleReal.h),
  /// widened in place to the doubles the sums take.
  static void widenFloats(std::span<double> Buffer);

  /// The number of groups for \p Ntiles tiles of \p Bins bins.
  static std::uint64_t groupCount(std::size_t Bins, std::uint64_t Ntiles);
  std::uint64_t groups() const { return Groups; }
  /// Tiles [groupBegin(g), groupBegin(g + 1)) form group g.
  std::uint64_t groupBegin(std::uint64_t G) const {
    return G * Ntiles / Groups;
  }

  /// A zeroed buffer for one tile: sums in [0, Bins), weights in
  /// [Bins, 2 Bins).
  std::vector<double> acquire();
  /// Hands tile \p Tile's buffer back; adds it (and any tiles it unblocks)
  /// to its group's partial once the group's earlier tiles are added.
  void submit(std::uint64_t Tile, std::vector<double> Buffer);

  /// Group \p G's partial, computed elsewhere from all its tiles in the
  /// same order (a GPU's fold kernel); its tiles are then not submitted.
  void submitGroup(std::uint64_t G, const double *Partial);

  /// Groups x 2 Bins partials (zero for groups this process did not run):
  /// what MPI ranks exchange before finish(). Kept partials only (reset).
  std::span<double> partials();
  /// Adds the partials in group order, after every tile was submitted (or
  /// every partial exchanged).
  void finish();

  /// The totals, after finish().
  std::span<const double> sums() const { return {Total.data(), Bins}; }
  std::span<const double> weights() const {
    return {Total.data() + Bins, Bins};
  }

private:
  std::size_t Bins = 0;
  std::uint64_t Ntiles = 1, Groups = 1;
  AddTile Add;
  std::vector<double> Partials, Pairs, Total;
  std::mutex Mutex;
  std::vector<std::uint64_t> Next; ///< per group, the next tile to add
  /// Per group, whether its partial holds data (a tile, a partial from
  /// elsewhere, or zeros from partials()); the others are stale.
  std::vector<char> Started;
  /// Fold mode (reset): each group's partial in a buffer of its own, from
  /// FreePartials, back there once added; Folded groups are in Pairs.
  bool Fold = false, AnyFolded = false;
  std::uint64_t Folded = 0;
  std::vector<std::vector<double>> Held, FreePartials;
  double *partial(std::uint64_t G);
  void foldInto(const double *Partial);
  void foldReady();
  /// Per tile, its buffer while it waits for the earlier tiles of its
  /// group: moved in and out, so that handing a tile back allocates
  /// nothing.
  std::vector<std::optional<std::vector<double>>> Waiting;
  std::vector<std::vector<double>> Free;
};

} // namespace vf

#endif // VF_RUNTIME_REDUCTION_TRAININGSUMS_H
