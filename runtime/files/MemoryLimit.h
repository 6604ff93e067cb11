//===- runtime/files/MemoryLimit.h - What this process may allocate -*- C++
//-*-===//
//
// The most memory this process may still allocate, read from the files
// that say it (/proc, /sys) and the address-space limit: for refusing a
// request that cannot fit (an iteration's arrays, an event file's events)
// before any of it is allocated, with the limit named in the message.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_FILES_MEMORYLIMIT_H
#define VF_RUNTIME_FILES_MEMORYLIMIT_H

#include <cstdint>
#include <string>

namespace vf {

struct MemoryLimit {
  std::uint64_t Bytes; ///< UINT64_MAX when nothing limits it
  std::string What;    ///< what sets it, for messages
};

/// The least of the machine's physical memory, a cgroup's memory.max and
/// the address-space limit (ulimit -v) less what the process maps now.
MemoryLimit availableMemory();

/// A * B + C, or UINT64_MAX where that overflows: byte counts of absurd
/// requests stay comparable with the limit.
std::uint64_t saturatingMulAdd(std::uint64_t A, std::uint64_t B,
                               std::uint64_t C = 0);

/// \p Bytes as "1.5 GiB", for messages.
std::string gibibytes(std::uint64_t Bytes);

} // namespace vf

#endif // VF_RUNTIME_FILES_MEMORYLIMIT_H
