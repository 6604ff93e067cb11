//===- runtime/files/MemoryLimit.cpp - What this process may allocate -----===//

#include "files/MemoryLimit.h"

#include "files/SafeFiles.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <sys/resource.h>
#include <unistd.h>

namespace vf {

namespace {

constexpr std::uint64_t Unlimited = UINT64_MAX;

/// The first number in a small file of /proc or /sys, or Unlimited.
std::uint64_t firstNumberIn(const std::string &Path) {
  Expected<std::string> Text = readRegularFile(Path, 1 << 16, Path);
  if (!Text || Text->empty() || !std::isdigit((unsigned char)(*Text)[0]))
    return Unlimited; // "max", missing, unreadable: no limit known
  return std::strtoull(Text->c_str(), nullptr, 10);
}

std::uint64_t pageBytes() {
  long P = ::sysconf(_SC_PAGESIZE);
  return P > 0 ? std::uint64_t(P) : 4096;
}

} // namespace

std::uint64_t saturatingMulAdd(std::uint64_t A, std::uint64_t B,
                               std::uint64_t C) {
  if (A && B > (Unlimited - C) / A)
    return Unlimited;
  return A * B + C;
}

std::string gibibytes(std::uint64_t Bytes) {
  char Buf[40];
  std::snprintf(Buf, sizeof(Buf), "%.3g GiB", double(Bytes) / (1 << 30));
  return Buf;
}

MemoryLimit availableMemory() {
  MemoryLimit L{Unlimited, ""};
  long Pages = ::sysconf(_SC_PHYS_PAGES);
  if (Pages > 0)
    L = {saturatingMulAdd(std::uint64_t(Pages), pageBytes()),
         "the machine's memory"};
  if (std::uint64_t C = firstNumberIn("/sys/fs/cgroup/memory.max"); C < L.Bytes)
    L = {C, "the cgroup's memory limit (memory.max)"};
  struct rlimit R;
  if (::getrlimit(RLIMIT_AS, &R) == 0 && R.rlim_cur != RLIM_INFINITY) {
    // statm's first number: the pages this process maps now.
    std::uint64_t Pages = firstNumberIn("/proc/self/statm");
    std::uint64_t Mapped =
        Pages == Unlimited ? 0 : saturatingMulAdd(Pages, pageBytes());
    std::uint64_t Left =
        std::uint64_t(R.rlim_cur) > Mapped ? R.rlim_cur - Mapped : 0;
    if (Left < L.Bytes)
      L = {Left, "the address-space limit (ulimit -v) less what this "
                 "process maps already"};
  }
  return L;
}

} // namespace vf
