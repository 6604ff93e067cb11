//===- runtime/integrator/ExactSum.cpp - Order-independent sums -----------===//
//
// A double m * 2^e (m a 53-bit integer) is added as m shifted into 32-bit
// digits stored in 64-bit words; carries are propagated lazily, before the
// words could overflow (each add puts less than 2^32 into a word).
//
//===----------------------------------------------------------------------===//

#include "integrator/ExactSum.h"

#include <cmath>
#include <cstring>

namespace vf {

ExactSums::ExactSums(std::size_t n) : N(n), Digits(n * Limbs, 0) {}

void ExactSums::clear() {
  std::fill(Digits.begin(), Digits.end(), 0);
  PendingAdds = 0;
}

void ExactSums::normalize() {
  for (std::size_t I = 0; I < N; ++I) {
    std::uint64_t *D = &Digits[I * Limbs];
    std::uint64_t Carry = 0;
    for (int L = 0; L < Limbs; ++L) {
      std::uint64_t W = D[L] + Carry;
      D[L] = W & 0xffffffffu;
      Carry = W >> 32;
    }
  }
  PendingAdds = 0;
}

void ExactSums::add(std::span<const double> values) {
  // Each add contributes < 2^32 to a word; normalise well before 2^32 adds.
  if (++PendingAdds >= (1u << 30))
    normalize();
  for (std::size_t I = 0; I < N && I < values.size(); ++I) {
    // Decode the IEEE bits directly (frexp/ldexp are library calls): a
    // positive finite double is M * 2^(E - 1075) with M < 2^53.
    std::uint64_t Bits;
    std::memcpy(&Bits, &values[I], sizeof(Bits));
    std::uint64_t BiasedExp = Bits >> 52; // sign bit included: negatives skip
    if (Bits == 0 || BiasedExp >= 0x7ff)
      continue;
    std::uint64_t M = Bits & ((std::uint64_t(1) << 52) - 1);
    if (BiasedExp)
      M |= std::uint64_t(1) << 52;
    else
      BiasedExp = 1; // subnormal
    // Bit position of M's lowest bit in the accumulator: 2^-1088 is bit 0.
    int Pos = int(BiasedExp) - 1075 + ExponentBias;
    std::uint64_t *D = &Digits[I * Limbs];
    int L = Pos / 32, Shift = Pos % 32;
    // M << Shift spans at most 85 bits: three 32-bit digits.
    unsigned __int128 W = static_cast<unsigned __int128>(M) << Shift;
    D[L] += static_cast<std::uint64_t>(W) & 0xffffffffu;
    D[L + 1] += static_cast<std::uint64_t>(W >> 32) & 0xffffffffu;
    D[L + 2] += static_cast<std::uint64_t>(W >> 64);
  }
}

double ExactSums::value(std::size_t I) const {
  // Normalise a copy of this sum's digits.
  std::uint64_t D[Limbs];
  std::uint64_t Carry = 0;
  for (int L = 0; L < Limbs; ++L) {
    std::uint64_t W = Digits[I * Limbs + L] + Carry;
    D[L] = W & 0xffffffffu;
    Carry = W >> 32;
  }
  int Top = Limbs - 1;
  while (Top >= 0 && D[Top] == 0)
    --Top;
  if (Top < 0)
    return 0.0;
  // The top two digits hold at least 33 significant bits; take three.
  std::uint64_t Hi = (D[Top] << 32) | (Top >= 1 ? D[Top - 1] : 0);
  double R = std::ldexp(static_cast<double>(Hi), 32 * (Top - 1) - ExponentBias);
  if (Top >= 2)
    R += std::ldexp(static_cast<double>(D[Top - 2]),
                    32 * (Top - 2) - ExponentBias);
  return R;
}

void ExactSums::values(std::span<double> out) const {
  for (std::size_t I = 0; I < N && I < out.size(); ++I)
    out[I] = value(I);
}

} // namespace vf
