//===- runtime/output/EventOptions.cpp - The event files' option texts ----===//
//
// The spellings of event_layout, beams and beam_energies (vf/EventFiles.h),
// read once here for every door: vegasc's flags, TOML keys and Python's
// write_events all hand the library the same text, so a bad one gets the
// same message, naming the option, in each.
//
//===----------------------------------------------------------------------===//

#include "vf/EventFiles.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

namespace vf {

namespace {

/// \p Text split at commas, each part without the spaces around it.
std::vector<std::string_view> parts(std::string_view Text) {
  std::vector<std::string_view> P;
  for (;;) {
    const std::size_t Comma = Text.find(',');
    std::string_view Part = Text.substr(0, Comma);
    while (!Part.empty() && Part.front() == ' ')
      Part.remove_prefix(1);
    while (!Part.empty() && Part.back() == ' ')
      Part.remove_suffix(1);
    P.push_back(Part);
    if (Comma == std::string_view::npos)
      return P;
    Text.remove_prefix(Comma + 1);
  }
}

/// \p Part read whole as a T, or nothing.
template <typename T> std::optional<T> number(std::string_view Part) {
  T V{};
  const char *End = Part.data() + Part.size();
  auto [Ptr, Ec] = std::from_chars(Part.data(), End, V);
  if (Part.empty() || Ec != std::errc() || Ptr != End)
    return std::nullopt;
  return V;
}

} // namespace

Expected<EventLayout> parseEventLayout(std::string_view Text) {
  if (Text == "basic")
    return EventLayout::Basic;
  if (Text == "lhe")
    return EventLayout::Lhe;
  return Error{optionRef("event_layout") +
                   " must be basic (6 numbers per particle) or lhe (the "
                   "event's 4, then 13 per particle), got \"" +
                   std::string(Text) + "\"",
               "event_layout"};
}

Expected<std::array<int, 2>> parseBeamIds(std::string_view Text) {
  const std::vector<std::string_view> P = parts(Text);
  std::array<int, 2> Ids{};
  for (std::size_t K = 0; P.size() == 2 && K < 2; ++K)
    Ids[K] = number<int>(P[K]).value_or(0);
  if (P.size() != 2 || !Ids[0] || !Ids[1])
    return Error{optionRef("beams") +
                     " must be the two beams' PDG ids, PDG1,PDG2 (e.g. "
                     "2212,2212 for protons, 11,-11 for e- e+), got \"" +
                     std::string(Text) + "\"",
                 "beams"};
  return Ids;
}

Expected<std::array<double, 2>> parseBeamEnergies(std::string_view Text) {
  const std::vector<std::string_view> P = parts(Text);
  std::array<double, 2> E{};
  for (std::size_t K = 0; P.size() == 2 && K < 2; ++K)
    E[K] = number<double>(P[K]).value_or(0);
  if (P.size() != 2 || !(E[0] > 0 && E[1] > 0) || !std::isfinite(E[0]) ||
      !std::isfinite(E[1]))
    return Error{optionRef("beam_energies") +
                     " must be the two beams' energies in GeV, E1,E2, both "
                     "positive (e.g. 6500,6500), got \"" +
                     std::string(Text) + "\"",
                 "beam_energies"};
  return E;
}

Expected<std::optional<EventBeams>> parseBeams(std::string_view Ids,
                                               std::string_view Energies) {
  if (Ids.empty() && Energies.empty())
    return std::optional<EventBeams>();
  if (Ids.empty() || Energies.empty())
    return Error{optionRef("beams") + " and " + optionRef("beam_energies") +
                     " go together: the beams of LHE's <init> need both",
                 Ids.empty() ? "beams" : "beam_energies"};
  Expected<std::array<int, 2>> I = parseBeamIds(Ids);
  if (!I)
    return I.error();
  Expected<std::array<double, 2>> E = parseBeamEnergies(Energies);
  if (!E)
    return E.error();
  return std::optional<EventBeams>(EventBeams{*I, *E});
}

} // namespace vf
