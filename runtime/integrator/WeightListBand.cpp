//===- runtime/integrator/WeightListBand.cpp - A list's band --------------===//

#include "WeightListBand.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace vf {

static BandRange replicaBand(std::span<const double> M, unsigned N) {
  double Mean = 0, Square = 0;
  for (unsigned I = 1; I <= N; ++I) {
    Mean += M[I];
    Square += M[I] * M[I];
  }
  Mean /= N;
  Square /= N;
  double Var = N / (N - 1.0) * (Square - Mean * Mean);
  double Sd = Var > 0 ? std::sqrt(Var) : 0.0;
  return {Mean, Mean - Sd, Mean + Sd};
}

static BandRange hessianBand(std::span<const double> M, unsigned N,
                             double Scale) {
  double Plus = 0, Minus = 0;
  for (unsigned I = 1; I + 1 <= N; I += 2) {
    double Up = std::max({M[I] - M[0], M[I + 1] - M[0], 0.0});
    double Down = std::max({M[0] - M[I], M[0] - M[I + 1], 0.0});
    Plus += Up * Up;
    Minus += Down * Down;
  }
  return {M[0], M[0] - Scale * std::sqrt(Minus),
          M[0] + Scale * std::sqrt(Plus)};
}

static BandRange symmHessianBand(std::span<const double> M, unsigned N,
                                 double Scale) {
  double Sum = 0;
  for (unsigned I = 1; I <= N; ++I)
    Sum += (M[I] - M[0]) * (M[I] - M[0]);
  double W = Scale * std::sqrt(Sum);
  return {M[0], M[0] - W, M[0] + W};
}

BandRange weightListBand(const WeightListSpec &S, double Central,
                         std::span<const double> Values) {
  if (S.Band == WeightBand::Envelope || Values.empty()) {
    if (Values.empty())
      return {Central, Central, Central};
    const auto [Lo, Hi] = std::minmax_element(Values.begin(), Values.end());
    return {Central, *Lo, *Hi};
  }
  // By member: 0 the integrand's value, then the entries' members.
  std::vector<double> M(S.ErrorMembers + 1, Central);
  for (unsigned K = 1; K <= S.ErrorMembers; ++K)
    M[K] = Values[K - S.First];
  switch (S.Band) {
  case WeightBand::Replicas:
    return replicaBand(M, S.ErrorMembers);
  case WeightBand::Hessian:
    return hessianBand(M, S.ErrorMembers, S.Scale);
  default:
    return symmHessianBand(M, S.ErrorMembers, S.Scale);
  }
}

} // namespace vf
