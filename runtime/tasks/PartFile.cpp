//===- tasks/PartFile.cpp - Part files and their coverage -----------------===//

#include "tasks/PartFile.h"

#include "vf/Tasks.h"

#include "files/SafeFiles.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <tuple>

namespace vf {

namespace {

constexpr char PartMagic[8] = {'V', 'F', 'P', 'A', 'R', 'T', '\0', '\0'};
/// A part holds at most an iteration's arrays: 8 GiB is far beyond any.
constexpr std::uint64_t MaxPartBytes = std::uint64_t(8) << 30;

void putLe(std::string &B, std::uint64_t V, int Bytes) {
  for (int K = 0; K < Bytes; ++K)
    B.push_back(char((V >> (8 * K)) & 0xff));
}

std::uint64_t getLe(std::string_view B, std::size_t &Pos, int Bytes) {
  std::uint64_t V = 0;
  for (int K = 0; K < Bytes; ++K)
    V |= std::uint64_t(static_cast<unsigned char>(B[Pos + K])) << (8 * K);
  Pos += Bytes;
  return V;
}

std::string range(const Part &P) {
  return "groups " + std::to_string(P.Begin) + ":" + std::to_string(P.End) +
         " of " + std::to_string(P.Groups) + " ('" + P.Origin + "')";
}

/// Whether \p P is of the state \p StateHash.
Status ofState(const Part &P, std::uint64_t StateHash) {
  if (P.StateHash == StateHash)
    return Status::ok();
  return Error{"part '" + P.Origin +
               "' belongs to another state or run "
               "plan (state hash " +
               std::to_string(P.StateHash) + ", this one " +
               std::to_string(StateHash) + ")"};
}

} // namespace

std::uint64_t fnv1a64(std::string_view Data, std::uint64_t H) {
  for (char C : Data) {
    H ^= static_cast<unsigned char>(C);
    H *= 0x100000001b3ull;
  }
  return H;
}

std::uint64_t stateHash(std::string_view StateBytes, std::uint64_t Calls,
                        unsigned Iterations, unsigned Warmup) {
  std::string Plan = std::to_string(Calls) + "/" + std::to_string(Iterations) +
                     "/" + std::to_string(Warmup);
  return fnv1a64(Plan, fnv1a64(StateBytes));
}

std::string encodePart(const std::vector<Part> &Passes) {
  std::string B(PartMagic, 8);
  putLe(B, PartVersion, 4);
  putLe(B, Passes.empty() ? 0 : Passes[0].StateHash, 8);
  putLe(B, Passes.size(), 8);
  for (const Part &P : Passes) {
    std::uint64_t Busy;
    std::memcpy(&Busy, &P.BusySeconds, 8);
    for (std::uint64_t V :
         {P.Groups, P.Begin, P.End, Busy, std::uint64_t(P.Words.size())})
      putLe(B, V, 8);
    for (std::uint64_t W : P.Words)
      putLe(B, W, 8);
  }
  putLe(B, fnv1a64(B), 8);
  return B;
}

namespace {

constexpr std::size_t FileHeader = 8 + 4 + 2 * 8, PassHeader = 5 * 8;

/// The passes' fields and words of \p B (whose magic, version and size
/// are checked), each pass's counts against the bytes left before the
/// checksum; an empty string when they fit.
std::string readPasses(std::string_view B, std::vector<Part> &Passes) {
  const std::string Mismatch =
      "truncated or damaged (its size does not match its contents)";
  const std::size_t End = B.size() - 8;
  std::size_t Pos = 8 + 4;
  const std::uint64_t Hash = getLe(B, Pos, 8), Count = getLe(B, Pos, 8);
  if (Count == 0 || Count > (End - Pos) / PassHeader)
    return Mismatch;
  Passes.resize(Count);
  for (Part &P : Passes) {
    if (End - Pos < PassHeader)
      return Mismatch;
    P.StateHash = Hash;
    P.Groups = getLe(B, Pos, 8);
    P.Begin = getLe(B, Pos, 8);
    P.End = getLe(B, Pos, 8);
    std::uint64_t Busy = getLe(B, Pos, 8);
    std::memcpy(&P.BusySeconds, &Busy, 8);
    std::uint64_t N = getLe(B, Pos, 8);
    if (N > (End - Pos) / 8)
      return Mismatch;
    P.Words.resize(N);
    for (std::uint64_t &W : P.Words)
      W = getLe(B, Pos, 8);
  }
  return Pos == End ? "" : Mismatch;
}

/// What is wrong with pass \p P's fields, or an empty string.
std::string checkPass(const Part &P) {
  // Busy seconds weigh the next cut (PartSplit.h): NaN or negative would
  // pass silently through every comparison there.
  if (!std::isfinite(P.BusySeconds) || P.BusySeconds < 0)
    return "its busy time (" + std::to_string(P.BusySeconds) +
           " seconds) is not a duration";
  if (P.Groups == 0 || P.Groups > 64 || P.Begin > P.End || P.End > P.Groups ||
      P.Words.empty())
    return "inconsistent group range";
  std::uint64_t Mask = 0;
  for (std::uint64_t G = P.Begin; G < P.End; ++G)
    Mask |= std::uint64_t(1) << G;
  if (P.Words[0] != Mask)
    return "its packet does not hold its group range";
  return "";
}

} // namespace

Expected<std::vector<Part>> decodePart(std::string_view B,
                                       const std::string &Origin) {
  auto Bad = [&](const std::string &Why) {
    return Error{"part '" + Origin + "': " + Why};
  };
  if (B.size() < 12 || std::memcmp(B.data(), PartMagic, 8) != 0)
    return Bad("not a vegasflow part file");
  std::size_t Pos = 8;
  if (std::uint64_t V = getLe(B, Pos, 4); V != PartVersion)
    return Bad("version " + std::to_string(V) + ", this vegasc reads " +
               std::to_string(PartVersion) +
               (V < PartVersion ? " (written by an older vegasc: compute the "
                                  "part again with this one)"
                                : ""));
  if (B.size() < FileHeader + 8)
    return Bad("truncated");
  std::vector<Part> Passes;
  if (std::string Why = readPasses(B, Passes); !Why.empty())
    return Bad(Why);
  std::size_t HashPos = B.size() - 8;
  if (getLe(B, HashPos, 8) != fnv1a64(B.substr(0, B.size() - 8)))
    return Bad("damaged (checksum mismatch)");
  for (std::size_t K = 0; K < Passes.size(); ++K) {
    Passes[K].Origin = Origin;
    if (std::string Why = checkPass(Passes[K]); !Why.empty())
      return Bad(Passes.size() > 1 ? "pass " + std::to_string(K) + ": " + Why
                                   : Why);
  }
  return Passes;
}

Expected<std::string> readPartBytes(const std::string &Path) {
  return readRegularFile(Path, MaxPartBytes, "the part");
}

Status checkCoverage(std::vector<Part> &Parts, std::uint64_t StateHash) {
  if (Parts.empty())
    return Error{"no parts to merge"};
  for (const Part &P : Parts) {
    if (Status S = ofState(P, StateHash); !S)
      return S;
    if (P.Groups != Parts[0].Groups)
      return Error{"parts disagree on the iteration's groups: " + range(P) +
                   " vs " + range(Parts[0])};
  }
  std::sort(Parts.begin(), Parts.end(), [](const Part &A, const Part &B) {
    return std::tie(A.Begin, A.End, A.Origin) <
           std::tie(B.Begin, B.End, B.Origin);
  });
  std::vector<Part> Kept;
  for (Part &P : Parts) {
    if (!Kept.empty() && Kept.back().Begin == P.Begin &&
        Kept.back().End == P.End) {
      if (Kept.back().Words != P.Words)
        return Error{"two parts of the same range differ: " + range(P) +
                     " and '" + Kept.back().Origin +
                     "' (computed with another build or a faulty device)"};
      continue; // a retry's identical copy
    }
    Kept.push_back(std::move(P));
  }
  std::uint64_t Next = 0;
  for (const Part &P : Kept) {
    if (P.Begin == P.End)
      continue;
    if (P.Begin < Next)
      return Error{"parts overlap: " + range(P) + " starts before group " +
                   std::to_string(Next) + ", where the previous part ends"};
    if (P.Begin > Next)
      return Error{"groups " + std::to_string(Next) + ":" +
                   std::to_string(P.Begin) + " are missing (no part covers "
                   "them; the next is " + range(P) + ")"};
    Next = P.End;
  }
  if (Next != Kept[0].Groups)
    return Error{"groups " + std::to_string(Next) + ":" +
                 std::to_string(Kept[0].Groups) + " are missing (no part "
                 "covers them)"};
  Parts = std::move(Kept);
  return Status::ok();
}

Expected<std::vector<std::vector<Part>>>
partsByPass(std::vector<std::vector<Part>> Files, std::uint64_t StateHash,
            std::size_t Passes) {
  std::vector<std::vector<Part>> ByPass(Passes);
  for (std::vector<Part> &F : Files) {
    if (Status S = ofState(F.front(), StateHash); !S)
      return S.error();
    if (F.size() != Passes)
      return Error{"part '" + F.front().Origin + "' holds " +
                   std::to_string(F.size()) +
                   " passes, an iteration of this integrand has " +
                   std::to_string(Passes) + " (one per channel)"};
    for (std::size_t K = 0; K < Passes; ++K)
      ByPass[K].push_back(std::move(F[K]));
  }
  for (std::size_t K = 0; K < Passes; ++K)
    if (Status S = checkCoverage(ByPass[K], StateHash); !S)
      return Error{(Passes > 1 ? "pass " + std::to_string(K) + ": " : "") +
                   S.message()};
  return ByPass;
}

} // namespace vf
