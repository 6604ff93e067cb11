//===- tasks/PartFile.h - What one task computed of an iteration -*- C++ -*-===//
//
// A part: the raw, mergeable sums of a contiguous range [Begin, End) of an
// exchange's TrainingSums groups, as RankExchange packs them for another
// rank (word 0 the group mask, then per group its tiles' results and edge
// segments, its inner hypercubes' segments, its training partial). An
// iteration exchanges once per pass: once, or once per channel of a
// multi-channel integrand (integrator/ChannelPasses.cpp), each pass with
// its own groups; a part file holds one Part per pass, in channel order.
//
// Format, version 2 (PartVersion). Little-endian: the 8-byte magic
// "VFPART\0\0", a u32 version, u64 StateHash and the pass count, then per
// pass u64 Groups, Begin, End, the busy seconds (IEEE bits), the word count
// and the words, then a u64 FNV-1a of every byte before it, so a truncated
// or damaged part is refused. StateHash names the state the part belongs
// to (stateHash). Version 1 held one pass without its count; such a file
// is refused, naming both versions.
//
// The checksum proves only that a part was not damaged on the way: what
// a script or a faulty node wrote is checked like any rank's packet.
// decodePart checks the header (the counts against the size, a finite
// busy time, the mask against the range), checkCoverage the set of parts
// of a pass, and the merge the packet against its own allocation
// (integrator/GroupPacket.h) before using a word of it.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_TASKS_PARTFILE_H
#define VF_RUNTIME_TASKS_PARTFILE_H

#include "vf/Expected.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vf {

inline constexpr std::uint32_t PartVersion = 2;

/// One pass's part (what a part file holds per pass).
struct Part {
  std::uint64_t StateHash = 0;
  std::uint64_t Groups = 0;           ///< the pass's group count
  std::uint64_t Begin = 0, End = 0;   ///< the groups computed
  double BusySeconds = 0;
  std::vector<std::uint64_t> Words;   ///< the packet
  std::string Origin;                 ///< where it was read (messages)
};

/// FNV-1a, 64 bits: identity and damage, not tampering.
std::uint64_t fnv1a64(std::string_view Data,
                      std::uint64_t H = 0xcbf29ce484222325ull);
/// The identity of an iteration: the state file's bytes and the run plan
/// the command asks for (an initial state has none of its own).
std::uint64_t stateHash(std::string_view StateBytes, std::uint64_t Calls,
                        unsigned Iterations, unsigned Warmup);

/// A part file of \p Passes (one per pass, in pass order, of one state).
std::string encodePart(const std::vector<Part> &Passes);
/// Reads a part file's passes from \p Bytes; \p Origin names it in errors.
Expected<std::vector<Part>> decodePart(std::string_view Bytes,
                                       const std::string &Origin);
// readPartBytes, a part file's bytes, is public (vf/Tasks.h).

/// Drops identical duplicates (retries, speculative execution) and checks
/// that \p Parts belong to \p StateHash and cover groups [0, Groups) once;
/// errors name the files and ranges. On success Parts is in group order.
Status checkCoverage(std::vector<Part> &Parts, std::uint64_t StateHash);

/// The parts of each of \p Passes passes, from \p Files (each a part
/// file's passes): every file of \p StateHash and with \p Passes passes,
/// then each pass's parts checked by checkCoverage.
Expected<std::vector<std::vector<Part>>>
partsByPass(std::vector<std::vector<Part>> Files, std::uint64_t StateHash,
            std::size_t Passes);

} // namespace vf

#endif // VF_RUNTIME_TASKS_PARTFILE_H
