//===- runtime/integrator/MemoryBudget.cpp - An iteration's memory --------===//
//
// An iteration's arrays grow with its calls (a tile result and two edge
// segments per tile of at most 2^20 samples) and its hypercubes (a segment
// and the allocation's moments each): `calls = 1e15` asks for tens of
// gigabytes. Allocated blindly, that is std::bad_alloc, or the kernel's
// OOM killer, in the middle of a run. So the bytes are counted before
// anything is allocated and compared with what this process may have: the
// machine's physical memory, a cgroup's memory.max and the address-space
// limit (ulimit -v, RLIMIT_AS) less what the process already maps. The
// error says which part needs what and which option lowers it.
//
//===----------------------------------------------------------------------===//

#include "integrator/IntegratorImpl.h"

#include "files/SafeFiles.h"
#include "reduction/Segments.h"

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

std::string gib(std::uint64_t Bytes) {
  char Buf[40];
  std::snprintf(Buf, sizeof(Buf), "%.3g GiB", double(Bytes) / (1 << 30));
  return Buf;
}

/// Saturating a * b + c.
std::uint64_t mulAdd(std::uint64_t A, std::uint64_t B, std::uint64_t C = 0) {
  if (A && B > (Unlimited - C) / A)
    return Unlimited;
  return A * B + C;
}

} // namespace

MemoryLimit availableMemory() {
  MemoryLimit L{Unlimited, ""};
  long Pages = ::sysconf(_SC_PHYS_PAGES);
  if (Pages > 0)
    L = {mulAdd(std::uint64_t(Pages), pageBytes()), "the machine's memory"};
  if (std::uint64_t C = firstNumberIn("/sys/fs/cgroup/memory.max"); C < L.Bytes)
    L = {C, "the cgroup's memory limit (memory.max)"};
  struct rlimit R;
  if (::getrlimit(RLIMIT_AS, &R) == 0 && R.rlim_cur != RLIM_INFINITY) {
    // statm's first number: the pages this process maps now.
    std::uint64_t Pages = firstNumberIn("/proc/self/statm");
    std::uint64_t Mapped = Pages == Unlimited ? 0 : mulAdd(Pages, pageBytes());
    std::uint64_t Left =
        std::uint64_t(R.rlim_cur) > Mapped ? R.rlim_cur - Mapped : 0;
    if (Left < L.Bytes)
      L = {Left, "the address-space limit (ulimit -v) less what this "
                 "process maps already"};
  }
  return L;
}

Status Integrator::Impl::checkMemory(std::uint64_t Calls) const {
  const unsigned Nstrat = Strata::chooseNstrat(I.Dim, Calls, O.MaxHcube);
  std::uint64_t Nhcube = 1;
  for (unsigned D = 0; D < I.Dim; ++D)
    Nhcube = mulAdd(Nhcube, Nstrat);
  const std::uint64_t Stride = segmentStride(I.Outputs);
  const std::uint64_t Tile = tileSize(Calls), Ntiles = (Calls + Tile - 1) / Tile;
  // A segment, the moments, the prefix sum and adapt()'s damped value per
  // hypercube; a result, two edge segments and the scheduler's and the
  // training's bookkeeping per tile.
  const std::uint64_t PerHcube = 8 * Stride + sizeof(double) * 6;
  const std::uint64_t PerTile = 2 * 8 * Stride + sizeof(vf_tile_result) + 64;
  const std::uint64_t Hcubes = mulAdd(Nhcube, PerHcube);
  const std::uint64_t Tiles = mulAdd(Ntiles, PerTile);
  const std::uint64_t Need = mulAdd(1, Hcubes, Tiles);
  // What the arrays hold already is reused (iterate keeps them).
  const std::uint64_t Held =
      8 * (Buffers.Segs.capacity() + Buffers.Edges.capacity()) +
      sizeof(vf_tile_result) * Buffers.Results.capacity();
  const MemoryLimit L = availableMemory();
  if (Need <= Held || Need - Held <= L.Bytes)
    return Status::ok();
  return Error{"an iteration of " + std::to_string(Calls) + " calls needs " +
               gib(Need) + " of memory (" + gib(Hcubes) + " for " +
               std::to_string(Nhcube) + " hypercubes, " + gib(Tiles) +
               " for " + std::to_string(Ntiles) + " tiles), more than the " +
               gib(L.Bytes) + " of " + L.What + ". Lower " +
               optionRef("calls") + " (fewer tiles and hypercubes)"};
}

} // namespace vf
