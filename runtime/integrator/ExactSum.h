//===- runtime/integrator/ExactSum.h - Order-independent sums ---*- C++ -*-===//
//
// Map-training sums are accumulated per tile and then added across tiles in
// whatever order the workers finish. Floating-point addition is not
// associative, so a plain double sum would make the next iteration's map -
// and so every later estimate - depend on the thread count. ExactSums adds
// non-negative doubles exactly, in a fixed-point accumulator wide enough for
// the whole double range (a Kulisch accumulator), so the result is the same
// for any order; it is rounded to double only when read.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_EXACTSUM_H
#define VF_RUNTIME_INTEGRATOR_EXACTSUM_H

#include <cstdint>
#include <span>
#include <vector>

namespace vf {

class ExactSums {
public:
  /// \p n independent sums, all zero.
  explicit ExactSums(std::size_t n = 0);

  std::size_t size() const { return N; }
  void clear();
  /// Adds \p values[i] to sum i; values must be finite and >= 0 (others are
  /// ignored: the caller reports non-finite integrand values itself).
  void add(std::span<const double> values);
  /// Sum i rounded to double (truncated to 64 significant bits first, then
  /// rounded to nearest: deterministic, within an ulp).
  double value(std::size_t i) const;
  void values(std::span<double> out) const;

private:
  static constexpr int Limbs = 68;       // 32-bit digits: 2^-1088 .. 2^1088
  static constexpr int ExponentBias = 1088;
  void normalize();

  std::size_t N;
  std::vector<std::uint64_t> Digits; // N x Limbs, each holding < 2^64
  std::uint32_t PendingAdds = 0;     // adds since the last carry pass
};

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_EXACTSUM_H
