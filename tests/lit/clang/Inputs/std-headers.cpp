// Every standard header vegasflow provides, used: complex products,
// quotients, exp, sqrt, abs and norm, with std::array, the algorithms and
// the limits (tests/lit/clang/std-headers.test, tests/python/test_cpp.py).
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numeric>
#include <type_traits>
#include <utility>

#include "vf/integrand.h"

using Complex = std::complex<double>;
static_assert(std::is_same_v<Complex::value_type, double>);
static_assert(std::numeric_limits<double>::digits == 53);

static Complex propagator(double S, double M, double W) {
  return 1.0 / Complex(S - M * M, M * W);
}

VF_INTEGRAND(amp, 2, 2, "m = 0.5, w = 0.1") {
  const Complex Z(x[0] - 0.3, x[1] + 0.2);
  const Complex P = propagator(x[0], params[0], params[1]);
  const Complex Q = (Z * P) / (Z + Complex(1.5, -0.25));
  const Complex E = std::exp(Complex(0, 2 * M_PI * x[1])) * std::sqrt(Z);
  std::array<double, 4> Parts = {std::abs(Q), std::norm(E), std::abs(x[0]),
                                 std::arg(E)};
  std::sort(Parts.begin(), Parts.end());
  const std::int32_t Largest = std::int32_t(
      std::max_element(Parts.begin(), Parts.end()) - Parts.begin());
  const double Sum = std::accumulate(Parts.begin(), Parts.end(), 0.0);
  out[0] = std::clamp(Sum, 0.0, std::numeric_limits<double>::max()) +
           std::max({Q.real(), Q.imag(), E.real()}) + Largest;
  std::pair<double, double> RI = {std::real(std::conj(Q)), std::imag(Q)};
  std::swap(RI.first, RI.second);
  out[1] = RI.first * RI.second + std::pow(Z, 3).imag();
}
