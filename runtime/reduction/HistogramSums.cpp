//===- runtime/reduction/HistogramSums.cpp - Histogram cells in tile order ===//

#include "reduction/HistogramSums.h"

#include "HistSums.h"

#include <algorithm>

namespace vf {

void HistogramSums::reset(std::uint32_t NewCells, std::uint64_t Ntiles,
                          std::uint64_t Groups, const vf_sampler_args &A,
                          const vf_tile_result *NewResults) {
  Cells = NewCells;
  Results = NewResults;
  Offsets = A.hcube_offsets;
  Nhcube = double(A.nhcube);
  Totals.assign(2 * std::size_t(Cells), 0.0);
  GroupLast.assign(Groups, 0);
  Order.reset(3 * std::size_t(Cells), Ntiles, Groups,
              [this](std::uint64_t G, std::uint64_t Tile, double *Partial,
                     const double *Buffer) {
                const vf_tile_result &R = Results[Tile];
                const std::uint64_t Begin = Order.groupBegin(G);
                if (Tile == Begin) {
                  std::copy(Buffer, Buffer + VF_HIST_TILE(Cells), Partial);
                  GroupLast[G] = R.last_hcube;
                  return;
                }
                absorb(Partial, Results[Begin].first_hcube, GroupLast[G],
                       Buffer, R.first_hcube, R.last_hcube);
              });
}

void HistogramSums::fold(double *Tot, double *Raw, std::uint64_t H) const {
  const double N = double(Offsets[H + 1] - Offsets[H]);
  for (std::uint32_t C = 0; C < Cells; ++C) {
    double *R = Raw + 2 * std::size_t(C);
    if (R[0] == 0.0 && R[1] == 0.0)
      continue;
    vf_hist_fold(Tot + 2 * std::size_t(C), R, N, Nhcube);
    R[0] = R[1] = 0.0;
  }
}

void HistogramSums::absorb(double *Acc, std::uint64_t AccFirst,
                           std::uint64_t &AccLast, const double *Part,
                           std::uint64_t First, std::uint64_t Last) {
  const std::size_t C2 = 2 * std::size_t(Cells);
  double *Tot = Acc, *Edge0 = Acc + C2, *Edge1 = Acc + 2 * C2;
  for (std::size_t I = 0; I < C2; ++I)
    Tot[I] += Part[I];
  // The open hypercube: Acc's first (kept raw: it may continue before
  // Acc) or its last, in edge 1.
  auto Open = [&] { return AccLast == AccFirst ? Edge0 : Edge1; };
  // Part's first hypercube continues the open one or follows it.
  if (First == AccLast) {
    double *O = Open();
    for (std::size_t I = 0; I < C2; ++I)
      O[I] += Part[C2 + I];
  } else {
    if (AccLast != AccFirst)
      fold(Tot, Edge1, AccLast);
    std::copy(Part + C2, Part + 2 * C2, Edge1);
    AccLast = First;
  }
  if (Last == First)
    return;
  // Part moved on: its first hypercube is complete, its last is open.
  if (AccLast != AccFirst)
    fold(Tot, Edge1, AccLast);
  std::copy(Part + 2 * C2, Part + 3 * C2, Edge1);
  AccLast = Last;
}

void HistogramSums::finish() {
  std::fill(Totals.begin(), Totals.end(), 0.0);
  if (!Cells)
    return;
  std::span<double> P = Order.partials();
  const std::size_t Size = VF_HIST_TILE(Cells);
  std::vector<double> Acc(P.begin(), P.begin() + Size);
  const std::uint64_t First = Results[0].first_hcube;
  // Group 0 may have run on another rank: its ends from the results.
  std::uint64_t Last = Results[Order.groupBegin(1) - 1].last_hcube;
  for (std::uint64_t G = 1; G < Order.groups(); ++G) {
    const std::uint64_t B = Order.groupBegin(G), E = Order.groupBegin(G + 1);
    absorb(Acc.data(), First, Last, P.data() + G * Size,
           Results[B].first_hcube, Results[E - 1].last_hcube);
  }
  const std::size_t C2 = 2 * std::size_t(Cells);
  fold(Acc.data(), Acc.data() + C2, First);
  if (Last != First)
    fold(Acc.data(), Acc.data() + 2 * C2, Last);
  std::copy(Acc.begin(), Acc.begin() + C2, Totals.begin());
}

} // namespace vf
