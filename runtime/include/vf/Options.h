//===- vf/Options.h - The run options as data -------------------*- C++ -*-===//
//
// The options of a run (vf/Options.def) as a table that every door reads:
// the library checks ranges with it, vegasc registers its flags and help
// from it, the TOML reader its keys, the Python module its keywords, the
// JSON `settings` its keys, and the documentation's options table is
// generated from it. An error refusing an option names it by OptionInfo
// Name (Error::Option); each door then says it its own way (a flag, a key,
// a keyword).
//
//===----------------------------------------------------------------------===//
#ifndef VF_OPTIONS_H
#define VF_OPTIONS_H

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>

namespace vf {

/// The largest alpha, samples per iteration (a whole number that a double
/// still holds exactly, as `--calls 1e18` is read) and seed (vegasc's and
/// TOML's; the library takes any 64-bit seed) the doors accept.
constexpr double MaxAlpha = 1.5;
constexpr std::uint64_t MaxRunCalls = 1000000000000000000ull;
constexpr std::uint64_t MaxSeed = std::numeric_limits<std::int64_t>::max();

/// An option's row of vf/Options.def; "" where a door lacks the option.
struct OptionInfo {
  std::string_view Name;
  std::string_view Type;
  double Lo, Hi; ///< the range the library accepts (Hi infinite: none)
  std::string_view Default;
  std::string_view Unit;
  std::string_view Flag;
  std::string_view Toml;
  std::string_view Python;
  std::string_view Json;
  std::string_view Description;
};

enum class OptionId : unsigned {
#define VF_OPTION(ID, ...) ID,
#include "vf/Options.def"
};

/// Every option, in the order of vf/Options.def.
std::span<const OptionInfo> optionTable();
const OptionInfo &optionInfo(OptionId Id);
/// The option called \p Name (OptionInfo::Name), or null.
const OptionInfo *findOption(std::string_view Name);

/// Whether \p V lies in \p Id's range, ends included (NaN never does).
bool inRange(OptionId Id, double V);
/// \p Id's range as messages and the docs say it: "0 to 1.5", ">= 0", or
/// "" for an option that is no number.
std::string rangeText(OptionId Id);

} // namespace vf

#endif // VF_OPTIONS_H
