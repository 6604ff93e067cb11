//===- runtime/reduction/TrainingSums.cpp - Map training in a fixed order ===//

#include "reduction/TrainingSums.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace vf {

namespace {

// The per-tile pass over a 2 x dim x ninc histogram (128 KB at lepage8's
// 8 x 1000 bins, every 4096 samples) is bound by the cache's bandwidth:
// the widest vectors the CPU has, chosen at load time, instead of the
// baseline's 16-byte ones. Element-wise additions: the same bits whatever
// the width.
#define VF_WIDEST_VECTORS                                                      \
  __attribute__((target_clones("avx512f", "avx2", "default")))

/// P += B and B = 0, element by element.
VF_WIDEST_VECTORS void addAndClear(double *P, double *B, std::size_t N) {
  for (std::size_t I = 0; I < N; ++I) {
    P[I] += B[I];
    B[I] = 0.0;
  }
}

/// P = B and B = 0: a group's first tile, whose partial would be 0 + B.
/// The same bits, because no sum or weight is -0 (they add squares and
/// 1 / n_h), so 0 + x is x.
VF_WIDEST_VECTORS void moveAndClear(double *P, double *B, std::size_t N) {
  for (std::size_t I = 0; I < N; ++I) {
    P[I] = B[I];
    B[I] = 0.0;
  }
}

/// P += B, element by element.
VF_WIDEST_VECTORS void addInto(double *P, const double *B, std::size_t N) {
  for (std::size_t I = 0; I < N; ++I)
    P[I] += B[I];
}

} // namespace

std::uint64_t TrainingSums::groupCount(std::size_t Bins,
                                       std::uint64_t Ntiles) {
  // 64 groups let ranks share an iteration in 1/64ths; partials are kept
  // for every group, so large histograms get fewer (at most 2^22 doubles,
  // 32 MiB, of partials).
  const std::uint64_t Budget = std::uint64_t(1) << 22;
  std::uint64_t ByMemory = Bins ? Budget / (2 * Bins) : 64;
  return std::clamp<std::uint64_t>(std::min<std::uint64_t>(ByMemory, 64), 1,
                                   std::max<std::uint64_t>(Ntiles, 1));
}

TrainingSums::TrainingSums(std::size_t Bins, std::uint64_t Ntiles) {
  reset(Bins, Ntiles);
}

void TrainingSums::reset(std::size_t NewBins, std::uint64_t NewNtiles,
                         std::uint64_t NewGroups, AddTile NewAdd,
                         bool KeepPartials) {
  // Partials an unfinished iteration (cancelled, or its devices failed)
  // left with their groups go back to the pool.
  for (std::vector<double> &H : Held)
    if (!H.empty())
      FreePartials.push_back(std::move(H));
  Held.clear();
  if (NewBins != Bins) { // recycled buffers have the old size
    Free.clear();
    FreePartials.clear();
  }
  Bins = NewBins;
  Ntiles = NewNtiles;
  Groups = NewGroups ? NewGroups : groupCount(Bins, Ntiles);
  Add = std::move(NewAdd);
  Fold = !KeepPartials && !Add;
  // Not cleared (8 MiB at lepage8's 64 groups, every iteration): a group's
  // first tile writes its partial, and partials() clears the groups no
  // tile of this process reached.
  Partials.resize(Fold ? 0 : Groups * 2 * Bins);
  Held.resize(Fold ? Groups : 0); // all empty: cleared above
  Folded = 0;
  AnyFolded = false;
  Started.assign(Groups, 0);
  Total.assign(2 * Bins, 0.0);
  Pairs.resize(2 * Bins);
  Next.clear();
  for (std::uint64_t G = 0; G < Groups; ++G)
    Next.push_back(groupBegin(G));
  Waiting.clear();
  Waiting.resize(Ntiles);
}

std::vector<double> TrainingSums::acquire() {
  std::vector<double> B;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (!Free.empty()) {
      B = std::move(Free.back());
      Free.pop_back();
    }
  }
  // A recycled buffer was cleared as it was added (submit): only a new one
  // needs filling.
  if (B.size() != 2 * Bins)
    B.assign(2 * Bins, 0.0);
  return B;
}

void TrainingSums::submit(std::uint64_t Tile, std::vector<double> Buffer) {
  std::lock_guard<std::mutex> Lock(Mutex);
  // The group of Tile: the last g with groupBegin(g) <= Tile.
  std::uint64_t G = std::min(Groups - 1, (Tile * Groups + Groups) / Ntiles);
  while (G > 0 && groupBegin(G) > Tile)
    --G;
  if (Tile >= Waiting.size() || Waiting[Tile])
    return; // not this iteration's, or already handed back
  Waiting[Tile] = std::move(Buffer);
  // Taken only when a tile is added: a tile handed back again after its
  // group was folded must not claim a partial.
  double *P = nullptr;
  const std::uint64_t End = groupBegin(G + 1);
  while (Next[G] < End && Waiting[Next[G]]) {
    if (!P)
      P = partial(G);
    std::vector<double> &Buf = *Waiting[Next[G]];
    // Add and clear in one pass, so the buffer goes back to Free zeroed
    // and acquire() need not write it again.
    double *B = Buf.data();
    if (Add) {
      if (!Started[G])
        std::fill(P, P + 2 * Bins, 0.0);
      Add(G, Next[G], P, B);
      std::fill(Buf.begin(), Buf.end(), 0.0);
    } else if (!Started[G]) {
      moveAndClear(P, B, 2 * Bins);
    } else {
      addAndClear(P, B, 2 * Bins);
    }
    Started[G] = 1;
    Free.push_back(std::move(Buf));
    Waiting[Next[G]].reset();
    ++Next[G];
  }
  foldReady();
}

void TrainingSums::submitGroup(std::uint64_t G, const double *Partial) {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::copy(Partial, Partial + 2 * Bins, partial(G));
  Next[G] = groupBegin(G + 1);
  Started[G] = 1;
  foldReady();
}

double *TrainingSums::partial(std::uint64_t G) {
  if (!Fold)
    return Partials.data() + G * 2 * Bins;
  // A buffer of a group folded before, still in the cache; its stale
  // contents are overwritten by the group's first tile.
  if (Held[G].empty()) {
    if (!FreePartials.empty()) {
      Held[G] = std::move(FreePartials.back());
      FreePartials.pop_back();
    } else {
      Held[G].resize(2 * Bins);
    }
  }
  return Held[G].data();
}

void TrainingSums::foldInto(const double *P) {
  if (!AnyFolded)
    std::copy(P, P + 2 * Bins, Pairs.begin());
  else
    addInto(Pairs.data(), P, 2 * Bins);
  AnyFolded = true;
}

void TrainingSums::foldReady() {
  // The groups whose tiles are all in, in group order from the first not
  // yet folded: the same additions finish() makes in keep mode.
  while (Fold && Folded < Groups && Next[Folded] == groupBegin(Folded + 1)) {
    if (Started[Folded])
      foldInto(Held[Folded].data());
    if (!Held[Folded].empty())
      FreePartials.push_back(std::move(Held[Folded]));
    Held[Folded].clear();
    ++Folded;
  }
}

std::span<double> TrainingSums::partials() {
  assert(!Fold && "partials are exchanged only when kept");
  std::lock_guard<std::mutex> Lock(Mutex);
  for (std::uint64_t G = 0; G < Groups; ++G)
    if (!Started[G]) {
      std::fill_n(Partials.begin() + G * 2 * Bins, 2 * Bins, 0.0);
      Started[G] = 1;
    }
  return Partials;
}

void TrainingSums::finish() {
  // Tiles keep (sum, weight) pairs side by side (kernels/SamplerABI.h):
  // the groups are added as they are (one contiguous, vectorizable pass
  // each), and the totals split into sums, then weights, for the map. A
  // group no tile reached is zero, and adds nothing; the first is copied
  // rather than added to zero (the same bits: no entry is -0).
  if (Fold) {
    // Groups not complete are folded now, those no tile reached skipped.
    for (; Folded < Groups; ++Folded)
      if (Started[Folded])
        foldInto(Held[Folded].data());
  } else {
    for (std::uint64_t G = 0; G < Groups; ++G)
      if (Started[G])
        foldInto(Partials.data() + G * 2 * Bins);
  }
  if (!AnyFolded)
    std::fill(Pairs.begin(), Pairs.end(), 0.0);
  for (std::size_t I = 0; I < Bins; ++I) {
    Total[I] = Pairs[2 * I];
    Total[Bins + I] = Pairs[2 * I + 1];
  }
}

void TrainingSums::widenFloats(std::span<double> Buffer) {
  // From the last chunk down, each chunk's floats copied out before its
  // doubles are written: chunk [B, E) reads bytes [4B, 4E), and the chunks
  // after it wrote bytes from 8E on, so none of its floats was overwritten.
  // The copy lets the conversion vectorize.
  constexpr std::size_t Chunk = 64;
  const auto *Bytes = reinterpret_cast<const unsigned char *>(Buffer.data());
  for (std::size_t End = Buffer.size(); End > 0;) {
    const std::size_t Begin = End > Chunk ? End - Chunk : 0;
    float F[Chunk];
    std::memcpy(F, Bytes + Begin * sizeof(float),
                (End - Begin) * sizeof(float));
    for (std::size_t I = Begin; I < End; ++I)
      Buffer[I] = F[I - Begin];
    End = Begin;
  }
}

} // namespace vf
