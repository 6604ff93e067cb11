//===- runtime/integrator/Checkpoint.cpp - Saved states and grids ---------===//
//
// Binary encoding (a byte buffer with explicit little-endian fields), the
// atomic write, and the compatibility check of a checkpoint against the
// integrator it is loaded into. See the header for the format.
//
//===----------------------------------------------------------------------===//
#include "integrator/Checkpoint.h"

#include "integrator/AdaptiveMap.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <unistd.h>

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

class Writer {
public:
  explicit Writer(const char (&Magic)[8], std::uint32_t Version) {
    Buf.append(Magic, 8);
    u32(Version);
  }
  void u8(std::uint8_t V) { Buf.push_back(char(V)); }
  void u32(std::uint32_t V) { le(V, 4); }
  void u64(std::uint64_t V) { le(V, 8); }
  void f64(double V) {
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
    for (double D : V)
      f64(D);
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

/// Reads fields back; any read past the end sets Bad and yields zeros, so
/// decoding runs to the end and the caller checks once.
class Reader {
public:
  explicit Reader(const std::string &B) : Buf(B) {}
  bool bad() const { return Bad; }
  bool atEnd() const { return Pos == Buf.size(); }
  std::uint8_t u8() { return std::uint8_t(le(1)); }
  std::uint32_t u32() { return std::uint32_t(le(4)); }
  std::uint64_t u64() { return le(8); }
  double f64() {
    std::uint64_t Bits = u64();
    double V;
    std::memcpy(&V, &Bits, 8);
    return V;
  }
  /// A count of items of at least `MinBytes` each that must fit in the
  /// rest of the buffer (so a damaged count cannot allocate terabytes).
  std::uint64_t count(std::size_t MinBytes) {
    std::uint64_t N = u64();
    if (N > (Buf.size() - Pos) / MinBytes) {
      Bad = true;
      return 0;
    }
    return N;
  }
  std::string str() {
    std::uint64_t N = count(1);
    std::string S = Buf.substr(Pos, N);
    Pos += N;
    return S;
  }
  std::vector<double> f64s() {
    std::vector<double> V(count(8));
    for (double &D : V)
      D = f64();
    return V;
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
  std::size_t Pos = 0;
  bool Bad = false;
};

std::string sysError(const std::string &What, const std::string &Path) {
  return "cannot " + What + " '" + Path + "': " + std::strerror(errno);
}

/// Temporary file beside `Path`, write, fsync, rename, fsync the folder.
Status writeAtomically(const std::string &Path, const std::string &Bytes) {
  std::string Tmp = Path + ".tmp." + std::to_string(::getpid());
  int Fd = ::open(Tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (Fd < 0)
    return Error{sysError("write", Path)};
  std::size_t Done = 0;
  while (Done < Bytes.size()) {
    ssize_t N = ::write(Fd, Bytes.data() + Done, Bytes.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      Error E{sysError("write", Path)};
      ::close(Fd);
      ::unlink(Tmp.c_str());
      return E;
    }
    Done += std::size_t(N);
  }
  if (::fsync(Fd) != 0 || ::close(Fd) != 0) {
    Error E{sysError("write", Path)};
    ::unlink(Tmp.c_str());
    return E;
  }
  if (::rename(Tmp.c_str(), Path.c_str()) != 0) {
    Error E{sysError("rename '" + Tmp + "' to", Path)};
    ::unlink(Tmp.c_str());
    return E;
  }
  std::size_t Slash = Path.find_last_of('/');
  std::string Dir =
      Slash == std::string::npos ? "." : Path.substr(0, Slash + 1);
  if (int D = ::open(Dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); D >= 0) {
    ::fsync(D); // Best effort: the rename itself has happened.
    ::close(D);
  }
  return Status::ok();
}

/// Reads the file and checks magic, version and hash; `Kind` names the file
/// in messages ("checkpoint", "grid"). On success `Bytes` holds the file
/// without its hash and the reader is positioned after the version.
Status readFramed(const std::string &Path, const char (&Magic)[8],
                  std::uint32_t Version, const char *Kind, std::string &Bytes) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return Error{sysError("read", Path)};
  Bytes.assign(std::istreambuf_iterator<char>(In),
               std::istreambuf_iterator<char>());
  std::string Not = "'" + Path + "' is not a vegasflow " + Kind + " file";
  if (Bytes.size() < 8 + 4 + 8 || std::memcmp(Bytes.data(), Magic, 8) != 0)
    return Error{Not};
  Reader R(Bytes);
  for (int K = 0; K < 8; ++K)
    (void)R.u8();
  std::uint32_t V = R.u32();
  if (V != Version)
    return Error{"'" + Path + "' is a " + Kind + " of format version " +
                 std::to_string(V) + "; this vegasc reads version " +
                 std::to_string(Version)};
  std::size_t Body = Bytes.size() - 8;
  std::uint64_t Stored = 0;
  for (int K = 0; K < 8; ++K)
    Stored |= std::uint64_t(static_cast<unsigned char>(Bytes[Body + K]))
              << (8 * K);
  if (Stored != fnv1a(Bytes.data(), Body))
    return Error{"'" + Path +
                 "' is damaged or truncated (checksum "
                 "mismatch); it cannot be used"};
  Bytes.resize(Body);
  return Status::ok();
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

Status writeCheckpoint(const std::string &Path, const CheckpointState &S) {
  Writer W(StateMagic, CheckpointVersion);
  W.str(S.Name);
  W.u32(S.Dim);
  W.u32(S.Outputs);
  W.str(S.ModuleHash);
  const IntegratorOptions &O = S.Options;
  W.u64(O.Seed);
  W.f64(O.Alpha);
  W.f64(O.Beta);
  W.u32(O.MaxNinc);
  W.u64(O.MaxHcube);
  W.u8(std::uint8_t(O.OnNonFinite));
  W.u64(S.ParamNames.size());
  for (std::size_t K = 0; K < S.ParamNames.size(); ++K) {
    W.str(S.ParamNames[K]);
    W.f64(S.Params[K]);
  }
  W.u32(S.Plan.Iterations);
  W.u64(S.Plan.Calls);
  W.u32(S.Plan.Warmup);
  W.u32(S.Plan.Done);
  W.u32(S.Iteration);
  W.u8(S.Frozen);
  W.u64(S.NextEvent);
  W.u64(S.Evaluations);
  W.f64(S.Wall);
  W.u32(S.Ninc);
  W.f64s(S.Edges);
  W.u64(S.StrataNeval);
  W.u64(S.Offsets.size());
  for (std::uint64_t O : S.Offsets)
    W.u64(O);
  W.u64(S.Rows.size());
  for (std::size_t K = 0; K < S.Rows.size(); ++K) {
    const IterationRow &R = S.Rows[K];
    W.u32(R.Index);
    W.u8(R.Warmup);
    W.f64s(R.Mean);
    W.f64s(R.Error);
    W.f64s(R.CumMean);
    W.f64s(R.CumError);
    W.f64(R.Chi2Dof);
    W.f64(R.Q);
    W.u64(R.Samples);
    W.u64(R.NonFinite);
    W.f64(R.Seconds);
    W.f64s(S.Covs[K]);
  }
  W.u64(S.Devices.size());
  for (const DeviceStats &D : S.Devices) {
    W.str(D.Name);
    W.str(D.Kind);
    W.u64(D.Samples);
    W.u64(D.Chunks);
    W.f64(D.BusySeconds);
    W.f64(D.IdleSeconds);
  }
  return writeAtomically(Path, W.finish());
}

Expected<CheckpointState> readCheckpoint(const std::string &Path) {
  std::string Bytes;
  if (Status St =
          readFramed(Path, StateMagic, CheckpointVersion, "checkpoint", Bytes);
      !St)
    return St.error();
  Reader R(Bytes);
  for (int K = 0; K < 12; ++K) // magic and version, checked above
    (void)R.u8();
  CheckpointState S;
  S.Name = R.str();
  S.Dim = R.u32();
  S.Outputs = R.u32();
  S.ModuleHash = R.str();
  IntegratorOptions &O = S.Options;
  O.Seed = R.u64();
  O.Alpha = R.f64();
  O.Beta = R.f64();
  O.MaxNinc = R.u32();
  O.MaxHcube = R.u64();
  O.OnNonFinite = R.u8() ? NonFinitePolicy::Zero : NonFinitePolicy::Stop;
  for (std::uint64_t K = 0, N = R.count(16); K < N; ++K) {
    S.ParamNames.push_back(R.str());
    S.Params.push_back(R.f64());
  }
  S.Plan.Iterations = R.u32();
  S.Plan.Calls = R.u64();
  S.Plan.Warmup = R.u32();
  S.Plan.Done = R.u32();
  S.Iteration = R.u32();
  S.Frozen = R.u8() != 0;
  S.NextEvent = R.u64();
  S.Evaluations = R.u64();
  S.Wall = R.f64();
  S.Ninc = R.u32();
  S.Edges = R.f64s();
  S.StrataNeval = R.u64();
  S.Offsets.resize(R.count(8));
  for (std::uint64_t &Off : S.Offsets)
    Off = R.u64();
  for (std::uint64_t K = 0, N = R.count(60); K < N && !R.bad(); ++K) {
    IterationRow Row;
    Row.Index = R.u32();
    Row.Warmup = R.u8() != 0;
    Row.Mean = R.f64s();
    Row.Error = R.f64s();
    Row.CumMean = R.f64s();
    Row.CumError = R.f64s();
    Row.Chi2Dof = R.f64();
    Row.Q = R.f64();
    Row.Samples = R.u64();
    Row.NonFinite = R.u64();
    Row.Seconds = R.f64();
    S.Rows.push_back(std::move(Row));
    S.Covs.push_back(R.f64s());
  }
  for (std::uint64_t K = 0, N = R.count(48); K < N && !R.bad(); ++K) {
    DeviceStats D;
    D.Name = R.str();
    D.Kind = R.str();
    D.Samples = R.u64();
    D.Chunks = R.u64();
    D.BusySeconds = R.f64();
    D.IdleSeconds = R.f64();
    S.Devices.push_back(std::move(D));
  }
  bool Shapes =
      S.Dim >= 1 && S.Outputs >= 1 &&
      (S.Edges.empty() ? S.Ninc == 0
                       : AdaptiveMap::validEdges(S.Dim, S.Ninc, S.Edges));
  for (std::size_t K = 0; K < S.Rows.size() && Shapes; ++K)
    Shapes = S.Rows[K].Mean.size() == S.Outputs &&
             S.Rows[K].Error.size() == S.Outputs &&
             S.Covs[K].size() == std::size_t(S.Outputs) * S.Outputs;
  if (R.bad() || !R.atEnd() || !Shapes)
    return Error{"'" + Path +
                 "' is not a valid checkpoint (inconsistent "
                 "contents); it cannot be used"};
  return S;
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

Status writeGrid(const std::string &Path, const GridFile &G) {
  Writer W(GridMagic, GridVersion);
  W.str(G.Integrand);
  W.u32(G.Dim);
  W.u32(G.Ninc);
  W.f64s(G.Edges);
  return writeAtomically(Path, W.finish());
}

Expected<GridFile> readGrid(const std::string &Path) {
  std::string Bytes;
  if (Status St = readFramed(Path, GridMagic, GridVersion, "grid", Bytes); !St)
    return St.error();
  Reader R(Bytes);
  for (int K = 0; K < 12; ++K)
    (void)R.u8();
  GridFile G;
  G.Integrand = R.str();
  G.Dim = R.u32();
  G.Ninc = R.u32();
  G.Edges = R.f64s();
  if (R.bad() || !R.atEnd() || !AdaptiveMap::validEdges(G.Dim, G.Ninc, G.Edges))
    return Error{"'" + Path +
                 "' is not a valid grid (its edges do not form "
                 "a map); it cannot be used"};
  return G;
}

} // namespace vf
