//===- integrator/GroupPacket.cpp - What ranks exchange, checked ----------===//
//
// Packing and checked unpacking of the groups a rank computed (the format
// and the checks are in GroupPacket.h). The packet's layout is derived
// from the receiver's allocation alone, so no length or index inside a
// packet is ever used to address memory: they are only compared with it.
//
//===----------------------------------------------------------------------===//

#include "integrator/GroupPacket.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace vf {

namespace {

static_assert(sizeof(vf_tile_result) % 8 == 0 && sizeof(double) == 8);
constexpr std::size_t ResultWords = sizeof(vf_tile_result) / 8;

std::string u(std::uint64_t V) { return std::to_string(V); }

/// The hypercube holding sample \p S (< Offsets.back()), as the kernels'
/// vf_find_hcube finds it: the last h with Offsets[h] <= S.
std::uint64_t hcubeOf(const GroupLayout &L, std::uint64_t S) {
  auto It = std::upper_bound(L.Offsets.begin(), L.Offsets.end(), S);
  return std::uint64_t(It - L.Offsets.begin()) - 1;
}

/// Tile \p T's samples [Begin, End) and the hypercubes of its first and
/// last sample, from the receiver's allocation.
struct TileSpan {
  std::uint64_t Begin, End, FirstH, LastH;
};
TileSpan tileSpan(const GroupLayout &L, std::uint64_t T) {
  const std::uint64_t B = T * L.TileSize;
  const std::uint64_t E = std::min(B + L.TileSize, L.Samples);
  return {B, E, hcubeOf(L, B), hcubeOf(L, E - 1)};
}

/// How many of tile \p S's samples hypercube \p H holds.
std::uint64_t samplesIn(const GroupLayout &L, const TileSpan &S,
                        std::uint64_t H) {
  const std::uint64_t B = std::max(S.Begin, L.Offsets[H]);
  const std::uint64_t E = std::min(S.End, L.Offsets[H + 1]);
  return E > B ? E - B : 0;
}

/// The hypercubes strictly inside tiles [Tb, Te) (Segments.h's
/// innerHypercubes of their first and last sample's hypercubes).
std::pair<std::uint64_t, std::uint64_t>
innerOf(const GroupLayout &L, std::uint64_t Tb, std::uint64_t Te) {
  const std::uint64_t First = tileSpan(L, Tb).FirstH;
  const std::uint64_t Last = tileSpan(L, Te - 1).LastH;
  return {First + 1, Last > First + 1 ? Last - First - 1 : 0};
}

/// Words of group \p G in a packet.
std::uint64_t groupWords(const GroupLayout &L, std::uint64_t G) {
  const std::uint64_t Tb = L.GroupBegin[G], Te = L.GroupBegin[G + 1];
  if (Tb == Te)
    return L.PartialSize + L.HistSize;
  return (Te - Tb) * (ResultWords + 2 * L.Stride) +
         innerOf(L, Tb, Te).second * L.Stride + L.PartialSize + L.HistSize;
}

/// Calls Move(array pointer, element count) for each array of the groups
/// in \p Mask, in packet order.
template <typename F>
void walk(const GroupLayout &L, std::uint64_t Mask, const GroupArrays &A,
          F &&Move) {
  for (std::uint64_t G = 0; G < L.groups(); ++G) {
    if (!(Mask >> G & 1))
      continue;
    const std::uint64_t Tb = L.GroupBegin[G], Te = L.GroupBegin[G + 1];
    if (Tb < Te) {
      Move(A.Results.data() + Tb, Te - Tb);
      Move(A.Edges.data() + Tb * 2 * L.Stride, (Te - Tb) * 2 * L.Stride);
      auto [First, Count] = innerOf(L, Tb, Te);
      Move(A.Segs.data() + First * L.Stride, Count * L.Stride);
    }
    Move(A.Partials.data() + G * L.PartialSize, L.PartialSize);
    if (L.HistSize)
      Move(A.Hists.data() + G * L.HistSize, L.HistSize);
  }
}

double wordDouble(std::uint64_t W) { return std::bit_cast<double>(W); }

/// Why segment count \p N cannot be that of a segment whose hypercube has
/// \p Most samples in the tiles that wrote it, or empty.
std::string countProblem(double N, std::uint64_t Most) {
  if (N >= 0 && N <= double(Most) && N == std::floor(N))
    return "";
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.17g", N);
  return "a segment counts " + std::string(Buf) + " samples, its hypercube "
         "has " + u(Most) + " there";
}

/// The first problem of tile \p T's result \p R and edge segments \p E
/// (2 Stride words), or empty.
std::string tileProblem(const GroupLayout &L, std::uint64_t T,
                        const vf_tile_result &R, const std::uint64_t *E) {
  const TileSpan S = tileSpan(L, T);
  const std::string Tile = "tile " + u(T) + ": ";
  if (R.first_hcube != S.FirstH || R.last_hcube != S.LastH)
    return Tile + "its hypercubes " + u(R.first_hcube) + ".." +
           u(R.last_hcube) + " are not those of its samples " + u(S.Begin) +
           ".." + u(S.End - 1) + " (" + u(S.FirstH) + ".." + u(S.LastH) + ")";
  auto Inside = [&](std::uint64_t I) { return I >= S.Begin && I < S.End; };
  if (R.nonfinite > S.End - S.Begin)
    return Tile + u(R.nonfinite) + " non-finite samples of its " +
           u(S.End - S.Begin);
  if (R.nonfinite && !Inside(R.first_bad))
    return Tile + "its first non-finite sample " + u(R.first_bad) +
           " is not one of its samples " + u(S.Begin) + ".." + u(S.End - 1);
  if (!Inside(R.max_index))
    return Tile + "its largest sample " + u(R.max_index) +
           " is not one of its samples " + u(S.Begin) + ".." + u(S.End - 1);
  std::string Why = countProblem(wordDouble(E[0]), samplesIn(L, S, S.FirstH));
  if (Why.empty() && S.LastH != S.FirstH)
    Why = countProblem(wordDouble(E[L.Stride]), samplesIn(L, S, S.LastH));
  return Why.empty() ? "" : Tile + "edge segment: " + Why;
}

/// The first problem of group \p G's words at \p P (groupWords of them),
/// or empty.
std::string groupProblem(const GroupLayout &L, std::uint64_t G,
                         const std::uint64_t *P) {
  const std::uint64_t Tb = L.GroupBegin[G], Te = L.GroupBegin[G + 1];
  const std::uint64_t *Edges = P + (Te - Tb) * ResultWords;
  bool Finite = true;
  for (std::uint64_t T = Tb; T < Te; ++T) {
    vf_tile_result R;
    std::memcpy(&R, P + (T - Tb) * ResultWords, sizeof R);
    Finite = Finite && R.nonfinite == 0;
    if (std::string Why = tileProblem(L, T, R, Edges + (T - Tb) * 2 * L.Stride);
        !Why.empty())
      return "group " + u(G) + ", " + Why;
  }
  const std::uint64_t *Segs = Edges + (Te - Tb) * 2 * L.Stride;
  const auto [First, Count] =
      Tb < Te ? innerOf(L, Tb, Te) : std::pair<std::uint64_t, std::uint64_t>{};
  // A tile's first and last hypercube are built from its edges (estimate()
  // zeroes them first): their slots hold whatever an earlier iteration
  // left there, which no check can judge.
  std::vector<std::uint64_t> Ends;
  for (std::uint64_t T = Tb + 1; T < Te; ++T)
    Ends.insert(Ends.end(), {hcubeOf(L, T * L.TileSize - 1),
                             hcubeOf(L, T * L.TileSize)});
  for (std::uint64_t K = 0; K < Count; ++K) {
    const std::uint64_t H = First + K;
    if (std::binary_search(Ends.begin(), Ends.end(), H))
      continue;
    if (std::string Why = countProblem(wordDouble(Segs[K * L.Stride]),
                                       L.Offsets[H + 1] - L.Offsets[H]);
        !Why.empty())
      return "group " + u(G) + ", hypercube " + u(H) + ": " + Why;
  }
  const std::uint64_t *Partial = Segs + Count * L.Stride;
  for (std::size_t K = 0; Finite && K < L.PartialSize; ++K)
    if (!(wordDouble(Partial[K]) >= 0))
      return "group " + u(G) + ": its map-training sum " + u(K) +
             " is negative or NaN, though none of its samples is";
  return "";
}

} // namespace

Status checkLayout(const GroupLayout &L, const GroupArrays &A) {
  const std::uint64_t G = L.groups(), Ntiles = G ? L.GroupBegin.back() : 0;
  const std::uint64_t Nh = L.Offsets.empty() ? 0 : L.Offsets.size() - 1;
  bool Ok = G >= 1 && G <= 64 && L.GroupBegin[0] == 0 && L.TileSize > 0 &&
            Nh >= 1 && L.Offsets.back() >= L.Samples && L.Samples > 0 &&
            Ntiles == (L.Samples + L.TileSize - 1) / L.TileSize &&
            A.Results.size() >= Ntiles &&
            A.Edges.size() >= Ntiles * 2 * L.Stride &&
            A.Segs.size() >= Nh * L.Stride &&
            A.Partials.size() >= G * L.PartialSize &&
            A.Hists.size() >= G * L.HistSize && L.Stride >= 1;
  for (std::uint64_t K = 0; Ok && K < G; ++K)
    Ok = L.GroupBegin[K] <= L.GroupBegin[K + 1];
  if (!Ok)
    return Error{"internal error: the iteration's groups, tiles and "
                 "hypercubes disagree (" + u(G) + " groups, " + u(Ntiles) +
                 " tiles, " + u(L.Samples) + " samples, " + u(Nh) +
                 " hypercubes)"};
  return Status::ok();
}

void packGroups(const GroupLayout &L, std::uint64_t Mask, const GroupArrays &A,
                std::vector<std::uint64_t> &Out) {
  Out.push_back(Mask);
  walk(L, Mask, A, [&](const auto *Data, std::size_t Count) {
    const std::size_t At = Out.size();
    Out.resize(At + Count * sizeof(*Data) / 8);
    std::memcpy(Out.data() + At, Data, Count * sizeof(*Data));
  });
}

Status unpackGroups(const GroupLayout &L, std::span<const std::uint64_t> Packet,
                    const GroupArrays &A, std::uint64_t &Seen,
                    const std::string &From) {
  auto Bad = [&](const std::string &Why) { return Error{From + ": " + Why}; };
  const std::uint64_t G = L.groups();
  const std::uint64_t All =
      G == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << G) - 1;
  if (Packet.empty())
    return Bad("empty (not even its list of groups)");
  const std::uint64_t Mask = Packet[0];
  if (Mask & ~All)
    return Bad("names groups beyond the iteration's " + u(G));
  if (Mask & Seen)
    return Bad("holds groups that another part or rank holds too");
  std::uint64_t Need = 1;
  for (std::uint64_t K = 0; K < G; ++K)
    if (Mask >> K & 1)
      Need += groupWords(L, K);
  if (Packet.size() != Need)
    return Bad("holds " + u(Packet.size()) + " words, its groups need " +
               u(Need) + " (cut, padded or of another allocation)");
  const std::uint64_t *P = Packet.data() + 1;
  for (std::uint64_t K = 0; K < G; ++K) {
    if (!(Mask >> K & 1))
      continue;
    if (std::string Why = groupProblem(L, K, P); !Why.empty())
      return Bad(Why);
    P += groupWords(L, K);
  }
  // Checked whole: now the copy, in the same order as the checks.
  P = Packet.data() + 1;
  walk(L, Mask, A, [&](auto *Data, std::size_t Count) {
    std::memcpy(Data, P, Count * sizeof(*Data));
    P += Count * sizeof(*Data) / 8;
  });
  Seen |= Mask;
  return Status::ok();
}

} // namespace vf
