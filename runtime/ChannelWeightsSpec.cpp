//===- runtime/ChannelWeightsSpec.cpp - Channel weights as text -----------===//
//
// The grammar of vf/ChannelWeightsSpec.h. Numbers are read by
// std::from_chars, so that "1e-2" and "0.5" read the same in every door
// and locale, and written back in their shortest form that reads back
// exactly.
//
//===----------------------------------------------------------------------===//

#include "vf/ChannelWeightsSpec.h"

#include <charconv>
#include <cmath>
#include <system_error>

namespace vf {

namespace {

std::string_view trimmed(std::string_view S) {
  const char *Space = " \t";
  const std::size_t First = S.find_first_not_of(Space);
  if (First == std::string_view::npos)
    return {};
  return S.substr(First, S.find_last_not_of(Space) - First + 1);
}

Error malformed(std::string_view Spec, const std::string &Why) {
  return Error{optionRef("channel_weights") +
                   " must be adapt or one positive number per channel, "
                   "comma-separated (e.g. 1,3), got '" +
                   std::string(Spec) + "': " + Why,
               "channel_weights"};
}

} // namespace

Expected<std::vector<double>> parseChannelWeights(std::string_view Spec) {
  if (trimmed(Spec) == "adapt")
    return std::vector<double>{};
  std::vector<double> Weights;
  std::size_t Begin = 0;
  while (true) {
    const std::size_t Comma = Spec.find(',', Begin);
    const std::string_view Item = trimmed(Spec.substr(
        Begin, Comma == std::string_view::npos ? Comma : Comma - Begin));
    const std::string Nth = "weight " + std::to_string(Weights.size() + 1);
    if (Item.empty())
      return malformed(Spec, Nth + " is empty");
    double W = 0;
    const char *End = Item.data() + Item.size();
    const std::from_chars_result Read = std::from_chars(Item.data(), End, W);
    if (Read.ec != std::errc() || Read.ptr != End)
      return malformed(Spec,
                       Nth + " '" + std::string(Item) + "' is not a number");
    if (!(W > 0) || !std::isfinite(W))
      return malformed(Spec, Nth + " '" + std::string(Item) +
                                 "' is not positive and finite");
    Weights.push_back(W);
    if (Comma == std::string_view::npos)
      return Weights;
    Begin = Comma + 1;
  }
}

std::string channelWeightsText(std::span<const double> Weights) {
  if (Weights.empty())
    return "adapt";
  std::string Text;
  for (double W : Weights) {
    char Buf[32];
    const std::to_chars_result R = std::to_chars(Buf, Buf + sizeof(Buf), W);
    Text += (Text.empty() ? "" : ",") + std::string(Buf, R.ptr);
  }
  return Text;
}

} // namespace vf
