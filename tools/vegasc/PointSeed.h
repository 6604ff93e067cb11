//===- vegasc/PointSeed.h - The seed of a scan point ------------*- C++ -*-===//
//
// A batch's scan runs every point with its own seed by default (`seeds =
// "per-point"`, docs/user-guide.md, "Seeds of a scan"): with one seed for
// all, the points of a scan share their random numbers and a line shape
// fluctuates coherently, every point up or down together. The point's seed
// is a function of the run's seed and the point's index only, so a batch
// gives the same seeds on any machine, and any point can be rerun alone
// with `vegasc --seed`.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TOOLS_VEGASC_POINTSEED_H
#define VF_TOOLS_VEGASC_POINTSEED_H

#include <cstdint>

namespace vf {

/// Seeds are whole numbers from 0 to 2^63 - 1 (MaxSeed, TOML's largest
/// integer): the mix works modulo 2^63 so that every result is one.
constexpr std::uint64_t SeedMask = (std::uint64_t(1) << 63) - 1;

/// SplitMix64's finaliser (Steele, Lea and Flood, OOPSLA 2014) with its
/// products taken modulo 2^63: each step (a right xorshift, a product by
/// an odd number) is a bijection of [0, 2^63), so the whole is one.
constexpr std::uint64_t mixSeed(std::uint64_t X) {
  X &= SeedMask;
  X ^= X >> 30;
  X = (X * 0xbf58476d1ce4e5b9u) & SeedMask;
  X ^= X >> 27;
  X = (X * 0x94d049bb133111ebu) & SeedMask;
  X ^= X >> 31;
  return X;
}

/// The seed of point \p Index (0-based, in scan order) of a scan whose run
/// has seed \p Seed: mixSeed((mixSeed(Seed) + Index) mod 2^63). For one
/// seed, distinct indices below 2^63 give distinct seeds (a bijection of a
/// distinct argument); the inner mix keeps the scans of seeds S and S + 1
/// from being the same seeds shifted by one point.
constexpr std::uint64_t pointSeed(std::uint64_t Seed, std::uint64_t Index) {
  return mixSeed((mixSeed(Seed) + Index) & SeedMask);
}

} // namespace vf

#endif // VF_TOOLS_VEGASC_POINTSEED_H
