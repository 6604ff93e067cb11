//===- runtime/integrator/Checkpoint.cpp - Saved states and grids ---------===//
//
// Binary encoding (a byte buffer with explicit little-endian fields), the
// atomic write, and the compatibility check of a checkpoint against the
// integrator it is loaded into. See the header for the format.
//
//===----------------------------------------------------------------------===//
#include "integrator/Checkpoint.h"

#include "integrator/AdaptiveMap.h"
#include "integrator/FormatDouble.h"

#include "files/SafeFiles.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace vf {

namespace {

constexpr char StateMagic[8] = {'V', 'F', 'S', 'T', 'A', 'T', 'E', '\0'};
constexpr char GridMagic[8] = {'V', 'F', 'G', 'R', 'I', 'D', '\0', '\0'};

/// FNV-1a, 64 bits: detects truncation and damage, not tampering.
std::uint64_t fnv1a(const char *Data, std::size_t Size) {
  std::uint64_t H = 0xcbf29ce484222325ull;
  for (std::size_t K = 0; K < Size; ++K) {
    H ^= static_cast<unsigned char>(Data[K]);
    H *= 0x100000001b3ull;
  }
  return H;
}

/// Appends fields to a byte buffer; with Reader, the two sides of the one
/// field list (checkpointFields, gridFields), so writing and reading
/// cannot drift apart.
class Writer {
public:
  explicit Writer(const char (&Magic)[8], std::uint32_t Version) {
    Buf.append(Magic, 8);
    u32(Version);
  }
  template <typename T> void u8(const T &V, const char *) {
    le(std::uint8_t(V), 1);
  }
  template <typename T> void u32(const T &V) { le(std::uint32_t(V), 4); }
  template <typename T> void u64(const T &V) { le(std::uint64_t(V), 8); }
  void f64(const double &V) {
    std::uint64_t Bits;
    std::memcpy(&Bits, &V, 8);
    u64(Bits);
  }
  void str(const std::string &S) {
    u64(S.size());
    Buf += S;
  }
  void f64s(const std::vector<double> &V) {
    u64(V.size());
    for (const double &D : V)
      f64(D);
  }
  void u64s(const std::vector<std::uint64_t> &V) {
    u64(V.size());
    for (std::uint64_t W : V)
      u64(W);
  }
  /// The item count of parallel arrays (\p First's size); \p MinBytes is
  /// the reader's bound.
  template <typename First, typename... Rest>
  std::uint64_t count(std::size_t MinBytes, const First &V, const Rest &...) {
    u64(V.size());
    return V.size();
  }
  std::string finish() {
    u64(fnv1a(Buf.data(), Buf.size()));
    return std::move(Buf);
  }

private:
  void le(std::uint64_t V, int Bytes) {
    for (int K = 0; K < Bytes; ++K)
      Buf.push_back(char((V >> (8 * K)) & 0xff));
  }
  std::string Buf;
};

/// Reads fields back from position \p Pos; any read past the end sets Bad
/// and yields zeros, so decoding runs to the end and the caller checks
/// once.
class Reader {
public:
  Reader(const std::string &B, std::size_t Pos) : Buf(B), Pos(Pos) {}
  bool bad() const { return Bad; }
  bool atEnd() const { return Pos == Buf.size(); }
  /// The first flag that was neither 0 nor 1, or null.
  const char *badFlag() const { return BadFlag; }
  /// A flag or a two-valued enum, named \p Field for errors: any byte but
  /// 0 and 1 is refused, never read as "true".
  template <typename T> void u8(T &V, const char *Field) {
    std::uint64_t B = le(1);
    if (B > 1 && !BadFlag)
      BadFlag = Field;
    V = T(B == 1);
  }
  template <typename T> void u32(T &V) { V = T(le(4)); }
  template <typename T> void u64(T &V) { V = T(le(8)); }
  void f64(double &V) {
    std::uint64_t Bits = le(8);
    std::memcpy(&V, &Bits, 8);
  }
  void str(std::string &S) {
    std::uint64_t N = count(1);
    S = Buf.substr(Pos, N);
    Pos += N;
  }
  void f64s(std::vector<double> &V) {
    V.resize(count(8));
    for (double &D : V)
      f64(D);
  }
  void u64s(std::vector<std::uint64_t> &V) {
    V.resize(count(8));
    for (std::uint64_t &W : V)
      u64(W);
  }
  /// A count of items of at least \p MinBytes each that must fit in the
  /// rest of the buffer (so a damaged count cannot allocate terabytes);
  /// the parallel arrays \p Arrays get that many items.
  template <typename... Arrays>
  std::uint64_t count(std::size_t MinBytes, Arrays &...A) {
    std::uint64_t N = le(8);
    if (N > (Buf.size() - Pos) / MinBytes) {
      Bad = true;
      N = 0;
    }
    (A.resize(N), ...);
    return N;
  }

private:
  std::uint64_t le(int Bytes) {
    if (Bad || Buf.size() - Pos < std::size_t(Bytes)) {
      Bad = true;
      return 0;
    }
    std::uint64_t V = 0;
    for (int K = 0; K < Bytes; ++K)
      V |= std::uint64_t(static_cast<unsigned char>(Buf[Pos + K])) << (8 * K);
    Pos += Bytes;
    return V;
  }
  const std::string &Buf;
  std::size_t Pos;
  bool Bad = false;
  const char *BadFlag = nullptr;
};

/// A multi-channel run's fields (version 5): the channel options, the
/// weights, the strata's sizing, channels 1 .. m-1's grids (at least 28
/// bytes each: a channel not sampled yet has no map and no allocation, as
/// in the state --task-init writes) and each row's channel rows (32 bytes
/// each).
template <typename Io, typename State> void channelFields(Io &F, State &S) {
  F.f64s(S.Options.ChannelWeights);
  F.f64(S.Options.ChannelFloor);
  F.f64s(S.ChannelAlpha);
  F.u64s(S.ChannelSizing);
  for (std::uint64_t K = 0, N = F.count(28, S.ChannelGrids); K < N; ++K) {
    auto &G = S.ChannelGrids[K];
    F.u32(G.Ninc);
    F.f64s(G.Edges);
    F.u64(G.StrataNeval);
    F.u64s(G.Offsets);
  }
  for (auto &R : S.Rows)
    for (std::uint64_t K = 0, N = F.count(32, R.Channels); K < N; ++K) {
      F.f64(R.Channels[K].Alpha);
      F.u64(R.Channels[K].Samples);
      F.f64(R.Channels[K].Mean);
      F.f64(R.Channels[K].Error);
    }
}

/// The checkpoint's fields in file order (Checkpoint.h), for a Writer
/// (State const) or a Reader. Minimum sizes bound the reader's counts:
/// a parameter is at least 16 bytes, a row 76, a device 48.
template <typename Io, typename State>
void checkpointFields(Io &F, State &S, std::uint32_t Version) {
  F.str(S.Name);
  F.u32(S.Dim);
  F.u32(S.Outputs);
  F.str(S.ModuleHash);
  auto &O = S.Options;
  F.u64(O.Seed);
  F.f64(O.Alpha);
  F.f64(O.Beta);
  F.u32(O.MaxNinc);
  F.u64(O.MaxHcube);
  F.u8(O.OnNonFinite, "on_nonfinite");
  for (std::uint64_t K = 0, N = F.count(16, S.ParamNames, S.Params); K < N;
       ++K) {
    F.str(S.ParamNames[K]);
    F.f64(S.Params[K]);
  }
  F.u32(S.Plan.Iterations);
  F.u64(S.Plan.Calls);
  F.u32(S.Plan.Warmup);
  F.u32(S.Plan.Done);
  F.u32(S.Iteration);
  F.u8(S.Frozen, "Frozen");
  F.u64(S.NextEvent);
  F.u64(S.Evaluations);
  F.f64(S.Wall);
  F.u32(S.Ninc);
  F.f64s(S.Edges);
  F.u64(S.StrataNeval);
  F.u64s(S.Offsets);
  for (std::uint64_t K = 0, N = F.count(76, S.Rows, S.Covs); K < N; ++K) {
    auto &R = S.Rows[K];
    F.u32(R.Index);
    F.u8(R.Warmup, "the warm-up flag of an iteration");
    F.f64s(R.Mean);
    F.f64s(R.Error);
    F.f64s(R.CumMean);
    F.f64s(R.CumError);
    F.f64(R.Chi2Dof);
    F.f64(R.Q);
    F.u64(R.Samples);
    F.u64(R.NonFinite);
    F.f64(R.MaxShare);
    F.f64s(R.MaxPoint);
    F.f64(R.Seconds);
    F.f64s(S.Covs[K]);
  }
  for (std::uint64_t K = 0, N = F.count(48, S.Devices); K < N; ++K) {
    auto &D = S.Devices[K];
    F.str(D.Name);
    F.str(D.Kind);
    F.u64(D.Samples);
    F.u64(D.Chunks);
    F.f64(D.BusySeconds);
    F.f64(D.IdleSeconds);
  }
  F.f64s(S.Histograms);
  F.f64s(S.HistRanges);
  // Version 3 files end here: their runs sampled the one channel, 0.
  if (Version >= 4)
    F.u32(S.Channel);
  // Version 4 files end here: their integrands had no channels.
  if (Version >= 5)
    channelFields(F, S);
}

/// The grid file's fields in file order.
template <typename Io, typename Grid>
void gridFields(Io &F, Grid &G, std::uint32_t Version) {
  F.str(G.Integrand);
  F.u32(G.Dim);
  F.u32(G.Ninc);
  F.f64s(G.Edges);
  // Version 1 files end here: their runs had no channels.
  if (Version < 2)
    return;
  F.f64s(G.Alpha);
  for (std::uint64_t K = 0, N = F.count(12, G.OtherMaps); K < N; ++K) {
    F.u32(G.OtherMaps[K].Ninc);
    F.f64s(G.OtherMaps[K].Edges);
  }
}

/// The largest checkpoint or grid read: far above any real one (a million
/// iterations of 16 outputs, 1024 axes of 100000 increments), so that only
/// a file that is not one is refused by its size.
constexpr std::uint64_t MaxStateBytes = std::uint64_t(4) << 30;

/// Checks \p Bytes' magic, version (from \p Oldest to \p Version) and
/// hash; `Kind` names them in messages ("checkpoint", "grid") and \p Name
/// says whose they are (a path, or what a task engine calls the bytes).
/// On success `Bytes` lose their hash and a reader starts after the
/// version.
Status checkFramed(std::string &Bytes, const std::string &Name,
                   const char (&Magic)[8], std::uint32_t Oldest,
                   std::uint32_t Version, const char *Kind) {
  std::string Not = "'" + Name + "' is not a vegasflow " + Kind + " file";
  if (Bytes.size() < 8 + 4 + 8 || std::memcmp(Bytes.data(), Magic, 8) != 0)
    return Error{Not};
  Reader R(Bytes, 8);
  std::uint32_t V = 0;
  R.u32(V);
  if (V < Oldest || V > Version)
    return Error{"'" + Name + "' is a " + Kind + " of format version " +
                 std::to_string(V) + "; this vegasc reads version " +
                 (Oldest < Version ? std::to_string(Oldest) + " to " : "") +
                 std::to_string(Version)};
  std::size_t Body = Bytes.size() - 8;
  std::uint64_t Stored = 0;
  for (int K = 0; K < 8; ++K)
    Stored |= std::uint64_t(static_cast<unsigned char>(Bytes[Body + K]))
              << (8 * K);
  if (Stored != fnv1a(Bytes.data(), Body))
    return Error{"'" + Name +
                 "' is damaged or truncated (checksum "
                 "mismatch); it cannot be used"};
  Bytes.resize(Body);
  return Status::ok();
}

/// Reads the file \p Path and checks it (checkFramed).
Status readFramed(const std::string &Path, const char (&Magic)[8],
                  std::uint32_t Oldest, std::uint32_t Version, const char *Kind,
                  std::string &Bytes) {
  Expected<std::string> Read =
      readRegularFile(Path, MaxStateBytes, std::string("the ") + Kind);
  if (!Read)
    return Read.error();
  Bytes = std::move(*Read);
  return checkFramed(Bytes, Path, Magic, Oldest, Version, Kind);
}

/// The shortest of %.15g, %.16g, %.17g that reads back as V.
std::string fmtDouble(double V) {
  char Buf[40];
  for (int Digits = 15; Digits <= 17; ++Digits) {
    std::snprintf(Buf, sizeof(Buf), "%.*g", Digits, V);
    if (std::strtod(Buf, nullptr) == V)
      break;
  }
  return Buf;
}

const char *policyName(NonFinitePolicy P) {
  return P == NonFinitePolicy::Zero ? "zero" : "stop";
}

} // namespace

//===----------------------------------------------------------------------===//
// Checkpoints
//===----------------------------------------------------------------------===//

std::string encodeCheckpoint(const CheckpointState &S) {
  Writer W(StateMagic, CheckpointVersion);
  checkpointFields(W, S, CheckpointVersion);
  return W.finish();
}

Status writeCheckpoint(const std::string &Path, const CheckpointState &S) {
  return writeFileAtomically(Path, encodeCheckpoint(S), "the checkpoint");
}

namespace {
/// \p Bytes, checked by checkFramed, as a state (\p Name in errors).
Expected<CheckpointState> parseCheckpoint(const std::string &Bytes,
                                          const std::string &Name) {
  Reader R(Bytes, 8); // after the magic; the version was checked before
  std::uint32_t Version = 0;
  R.u32(Version);
  CheckpointState S;
  checkpointFields(R, S, Version);
  std::string Why = R.bad() || !R.atEnd()
                        ? "its fields do not fill the file"
                    : R.badFlag() ? std::string(R.badFlag()) +
                                        " is neither 0 nor 1"
                                  : stateProblem(S);
  if (!Why.empty())
    return Error{"'" + Name + "' is not a valid checkpoint (" + Why +
                 "); it cannot be used"};
  return S;
}
} // namespace

Expected<CheckpointState> decodeCheckpoint(std::string Bytes,
                                           const std::string &Name) {
  if (Bytes.size() > MaxStateBytes)
    return Error{"'" + Name + "' is larger than any checkpoint (" +
                 std::to_string(Bytes.size()) + " bytes)"};
  if (Status St = checkFramed(Bytes, Name, StateMagic, OldestCheckpointVersion,
                              CheckpointVersion, "checkpoint");
      !St)
    return St.error();
  return parseCheckpoint(Bytes, Name);
}

Expected<CheckpointState> readCheckpoint(const std::string &Path) {
  std::string Bytes;
  if (Status St = readFramed(Path, StateMagic, OldestCheckpointVersion,
                             CheckpointVersion, "checkpoint", Bytes);
      !St)
    return St.error();
  return parseCheckpoint(Bytes, Path);
}

Status checkCompatible(const CheckpointState &Saved,
                       const CheckpointState &Current,
                       const std::string &Path) {
  std::vector<std::string> Diffs;
  auto differ = [&](const std::string &What, const std::string &A,
                    const std::string &B) {
    if (A != B)
      Diffs.push_back(What + " " + A + " vs " + B);
  };
  auto u = [](std::uint64_t V) { return std::to_string(V); };
  differ("integrand", "'" + Saved.Name + "'", "'" + Current.Name + "'");
  differ("dimensions", u(Saved.Dim), u(Current.Dim));
  differ("outputs", u(Saved.Outputs), u(Current.Outputs));
  if (Saved.ModuleHash != Current.ModuleHash && Diffs.empty())
    Diffs.push_back("compiled code (the source, the compiler or its options "
                    "changed)");
  const IntegratorOptions &A = Saved.Options, &B = Current.Options;
  differ("seed", u(A.Seed), u(B.Seed));
  differ("alpha", fmtDouble(A.Alpha), fmtDouble(B.Alpha));
  differ("beta", fmtDouble(A.Beta), fmtDouble(B.Beta));
  differ("ninc", u(A.MaxNinc), u(B.MaxNinc));
  differ("hypercube cap", u(A.MaxHcube), u(B.MaxHcube));
  differ("on_nonfinite", policyName(A.OnNonFinite), policyName(B.OnNonFinite));
  auto list = [&](const std::vector<double> &W) {
    std::string T = W.empty() ? "adapt" : "";
    for (std::size_t K = 0; K < W.size(); ++K)
      T += (K ? "," : "") + fmtDouble(W[K]);
    return T;
  };
  differ("channel_weights", list(A.ChannelWeights), list(B.ChannelWeights));
  differ("channel_floor", fmtDouble(A.ChannelFloor), fmtDouble(B.ChannelFloor));
  if (Saved.ParamNames != Current.ParamNames) {
    if (Diffs.empty())
      Diffs.push_back("parameter names");
  } else {
    for (std::size_t K = 0; K < Saved.Params.size(); ++K)
      differ("parameter " + Saved.ParamNames[K], fmtDouble(Saved.Params[K]),
             fmtDouble(Current.Params[K]));
  }
  if (Diffs.empty())
    return Status::ok();
  std::string Msg = "checkpoint '" + Path +
                    "' does not belong to this run (checkpoint vs this run): ";
  for (std::size_t K = 0; K < Diffs.size(); ++K)
    Msg += (K ? "; " : "") + Diffs[K];
  return Error{Msg};
}

//===----------------------------------------------------------------------===//
// Grids
//===----------------------------------------------------------------------===//

/// The first problem of \p G's maps and weights, or empty.
static std::string gridProblem(const GridFile &G) {
  if (std::string Why = AdaptiveMap::edgesProblem(G.Dim, G.Ninc, G.Edges);
      !Why.empty())
    return Why;
  if (G.Alpha.empty() != G.OtherMaps.empty() ||
      (!G.Alpha.empty() && G.Alpha.size() != G.OtherMaps.size() + 1))
    return std::to_string(G.Alpha.size()) + " channel weights for " +
           std::to_string(G.OtherMaps.size() + 1) + " channel maps";
  double Sum = 0;
  for (double A : G.Alpha) {
    if (!(A > 0) || !(A < 1))
      return "a channel weight of " + formatDouble(A);
    Sum += A;
  }
  if (!G.Alpha.empty() && !(std::fabs(Sum - 1) < 1e-9))
    return "channel weights adding up to " + formatDouble(Sum);
  for (const GridFile::ChannelMap &M : G.OtherMaps) {
    if (M.Ninc != G.Ninc)
      return "channel maps of " + std::to_string(M.Ninc) + " and " +
             std::to_string(G.Ninc) + " increments";
    if (std::string Why = AdaptiveMap::edgesProblem(G.Dim, M.Ninc, M.Edges);
        !Why.empty())
      return Why;
  }
  return "";
}

Status writeGrid(const std::string &Path, const GridFile &G) {
  Writer W(GridMagic, GridVersion);
  gridFields(W, G, GridVersion);
  return writeFileAtomically(Path, W.finish(), "the grid");
}

Expected<GridFile> readGrid(const std::string &Path) {
  std::string Bytes;
  if (Status St = readFramed(Path, GridMagic, OldestGridVersion, GridVersion,
                             "grid", Bytes);
      !St)
    return St.error();
  Reader R(Bytes, 8);
  std::uint32_t Version = 0;
  R.u32(Version);
  GridFile G;
  gridFields(R, G, Version);
  std::string Why = R.bad() || !R.atEnd() ? "its fields do not fill the file"
                    : G.Dim < 1           ? "Dim = 0"
                                          : gridProblem(G);
  if (!Why.empty())
    return Error{"'" + Path + "' is not a valid grid (" + Why +
                 "); it cannot be used"};
  return G;
}

} // namespace vf
