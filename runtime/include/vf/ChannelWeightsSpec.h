//===- vf/ChannelWeightsSpec.h - Channel weights as text --------*- C++ -*-===//
//
// The text every door accepts for a multi-channel integrand's weights
// (vf/Options.def, channel_weights): "adapt", the default, or positive
// numbers separated by commas, one per channel in source order ("1,3").
// vegasc's --channel-weights, the TOML key (an array is written back as
// this text), Python's channel_weights= and the JSON settings all read
// and write it here, so that one grammar serves every door. Whether the
// count suits the integrand is the integrator's check
// (IntegratorOptions::ChannelWeights, checked in Integrator::create).
//
//===----------------------------------------------------------------------===//
#ifndef VF_CHANNELWEIGHTSSPEC_H
#define VF_CHANNELWEIGHTSSPEC_H

#include "vf/Expected.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vf {

/// \p Spec as IntegratorOptions::ChannelWeights: empty for "adapt",
/// otherwise the numbers (spaces around each allowed). A malformed list,
/// or a number that is not positive and finite, is an error naming
/// channel_weights.
Expected<std::vector<double>> parseChannelWeights(std::string_view Spec);

/// \p Weights as parseChannelWeights reads them back: "adapt" when empty,
/// otherwise each number in its shortest exact form, comma-separated.
std::string channelWeightsText(std::span<const double> Weights);

} // namespace vf

#endif // VF_CHANNELWEIGHTSSPEC_H
