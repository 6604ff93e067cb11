//===- runtime/integrator/ChannelWeights.cpp - How channels share samples -===//
//
// The rules ChannelWeights.h states.
//
//===----------------------------------------------------------------------===//

#include "integrator/ChannelWeights.h"

#include "integrator/FormatDouble.h"
#include "integrator/Strata.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace vf {

double channelFloor(const IntegratorOptions &O, unsigned M) {
  return O.ChannelFloor > 0 ? O.ChannelFloor : 0.1 / double(M);
}

std::vector<double> initialChannelWeights(const IntegratorOptions &O,
                                          unsigned M) {
  if (O.ChannelWeights.empty())
    return std::vector<double>(M, 1 / double(M));
  const double Sum =
      std::accumulate(O.ChannelWeights.begin(), O.ChannelWeights.end(), 0.0);
  std::vector<double> A;
  for (double W : O.ChannelWeights)
    A.push_back(W / Sum);
  return A;
}

std::vector<double> nextChannelWeights(std::span<const ChannelMoments> Moments,
                                       std::span<const double> Alpha,
                                       bool KleissPittau, double Floor) {
  std::vector<double> Raw;
  double Sum = 0;
  for (const ChannelMoments &C : Moments) {
    const double PerSample = double(C.Samples) * C.Variance;
    const double W =
        std::sqrt(KleissPittau ? PerSample + C.Mean * C.Mean : PerSample);
    Raw.push_back(Strata::roundTo40Bits(W));
    Sum += Raw.back();
  }
  if (!(Sum > 0) || !std::isfinite(Sum))
    return std::vector<double>(Alpha.begin(), Alpha.end());
  const double Spare = 1 - double(Raw.size()) * Floor;
  for (double &W : Raw)
    W = Floor + Spare * (W / Sum);
  return Raw;
}

std::uint64_t channelCalls(double Alpha, std::uint64_t Calls) {
  return std::max<std::uint64_t>(
      Strata::MinNevalHcube, std::uint64_t(std::floor(Alpha * double(Calls))));
}

bool strataFit(std::uint64_t SizedFor, std::uint64_t Share) {
  return Share >= SizedFor / 2 && Share / 2 <= SizedFor;
}

Status checkChannelOptions(const IntegratorOptions &O, unsigned M,
                           const std::string &Name) {
  const std::string Of = "integrand '" + Name + "'";
  if (M < 2) {
    if (!O.ChannelWeights.empty())
      return Error{optionRef("channel_weights") +
                       " applies to an integrand "
                       "with channels; " +
                       Of + " has none",
                   "channel_weights"};
    return Status::ok();
  }
  if (!O.ChannelWeights.empty()) {
    if (O.ChannelWeights.size() != M)
      return Error{optionRef("channel_weights") + " has " +
                       std::to_string(O.ChannelWeights.size()) +
                       " weights, but " + Of + " has " + std::to_string(M) +
                       " channels: give one per channel, in source order",
                   "channel_weights"};
    for (double W : O.ChannelWeights)
      if (!(W > 0) || !std::isfinite(W))
        return Error{optionRef("channel_weights") +
                         " must be positive and finite, got " + formatDouble(W),
                     "channel_weights"};
  }
  if (!(O.ChannelFloor >= 0) || !(O.ChannelFloor * double(M) < 1))
    return Error{optionRef("channel_floor") + " must be from 0 to below 1/" +
                     std::to_string(M) + " for " + Of + "'s " +
                     std::to_string(M) + " channels, got " +
                     formatDouble(O.ChannelFloor),
                 "channel_floor"};
  return Status::ok();
}

} // namespace vf
