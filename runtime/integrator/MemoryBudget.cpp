//===- runtime/integrator/MemoryBudget.cpp - An iteration's memory --------===//
//
// An iteration's arrays grow with its calls (a tile result and two edge
// segments per tile of at most 2^20 samples) and its hypercubes (a segment
// and the allocation's moments each): `calls = 1e15` asks for tens of
// gigabytes. Allocated blindly, that is std::bad_alloc, or the kernel's
// OOM killer, in the middle of a run. So the bytes are counted before
// anything is allocated and compared with what this process may have: the
// machine's physical memory, a cgroup's memory.max and the address-space
// limit (ulimit -v, RLIMIT_AS) less what the process already maps
// (files/MemoryLimit.h). The error says which part needs what and which
// option lowers it.
//
//===----------------------------------------------------------------------===//

#include "integrator/Iteration.h"

#include "files/MemoryLimit.h"
#include "reduction/Segments.h"

namespace vf {

Status Iteration::checkMemory(std::uint64_t Calls) const {
  const unsigned Nstrat = Strata::chooseNstrat(I.Dim, Calls, hcubeCap());
  std::uint64_t Nhcube = 1;
  for (unsigned D = 0; D < I.Dim; ++D)
    Nhcube = saturatingMulAdd(Nhcube, Nstrat);
  const std::uint64_t Stride = segmentStride(I.Outputs);
  const std::uint64_t Tile = tileSize(Calls), Ntiles = (Calls + Tile - 1) / Tile;
  // A segment, the moments, the prefix sum and adapt()'s damped value per
  // hypercube; a result, two edge segments and the scheduler's and the
  // training's bookkeeping per tile.
  const std::uint64_t PerHcube = 8 * Stride + sizeof(double) * 6;
  const std::uint64_t PerTile = 2 * 8 * Stride + sizeof(vf_tile_result) + 64;
  const std::uint64_t Hcubes = saturatingMulAdd(Nhcube, PerHcube);
  const std::uint64_t Tiles = saturatingMulAdd(Ntiles, PerTile);
  const std::uint64_t Need = saturatingMulAdd(1, Hcubes, Tiles);
  // What the arrays hold already is reused (Iteration keeps them).
  const std::uint64_t Held =
      8 * (Buffers.Segs.capacity() + Buffers.Edges.capacity()) +
      sizeof(vf_tile_result) * Buffers.Results.capacity();
  const MemoryLimit L = availableMemory();
  if (Need <= Held || Need - Held <= L.Bytes)
    return Status::ok();
  return Error{"an iteration of " + std::to_string(Calls) + " calls needs " +
               gibibytes(Need) + " of memory (" + gibibytes(Hcubes) + " for " +
               std::to_string(Nhcube) + " hypercubes, " + gibibytes(Tiles) +
               " for " + std::to_string(Ntiles) + " tiles), more than the " +
               gibibytes(L.Bytes) + " of " + L.What + ". Lower " +
               optionRef("calls") + " (fewer tiles and hypercubes)"};
}

} // namespace vf
