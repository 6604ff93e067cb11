//===- vegasc/RunOptions.cpp - A run's settings, for both doors -----------===//
//
// The one conversion of RunSettings into IntegratorOptions, the devices
// list both doors accept, and the rewriting of the library's option names
// into a door's own (RunOptions.h).
//
//===----------------------------------------------------------------------===//

#include "vegasc/RunOptions.h"

#include "vf/ToolSupport.h"
#include "vf/Version.h"

#include "llvm/ADT/StringExtras.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace vf {

namespace {

/// The accuracy target into \p IO. The library takes 0 as "no target";
/// a target the user gave as 0 everywhere is never met, so the run would
/// always use its whole cap: said as an error rather than run.
Status targetOptions(const RunSettings &S, IntegratorOptions &IO) {
  IO.Rtol = S.Rtol.value_or(0);
  IO.Atol = S.Atol.value_or(0);
  if (Status St = checkTarget(IO); !St)
    return St;
  if ((S.Rtol || S.Atol) && !IO.hasTarget())
    return Error{"an accuracy target of 0 (" +
                     optionRef(S.Rtol ? "rtol" : "atol") +
                     ") is never met, so the run would always go to its "
                     "cap; give a positive " + optionRef("rtol") + " or " +
                     optionRef("atol") + ", or neither to run a fixed "
                     "number of " + optionRef("iterations"),
                 S.Rtol ? "rtol" : "atol"};
  if (S.MaxIterations && !IO.hasTarget())
    return Error{optionRef("max_iterations") + " is the cap of a run with an "
                 "accuracy target; give " + optionRef("rtol") + " or " +
                 optionRef("atol") + ", or use " + optionRef("iterations"),
                 "max_iterations"};
  return Status::ok();
}

} // namespace

Expected<IntegratorOptions> integratorOptions(const RunSettings &S) {
  IntegratorOptions IO;
  if (Status St = parseDevices(S.Devices, IO); !St)
    return St.error();
  IO.Seed = S.Seed;
  IO.Alpha = S.Alpha;
  IO.Beta = S.Beta;
  IO.MaxNinc = S.Ninc;
  IO.Schedule = S.Schedule;
  if (S.OnNonFinite == "zero")
    IO.OnNonFinite = NonFinitePolicy::Zero;
  else if (S.OnNonFinite != "stop")
    return Error{optionRef("on_nonfinite") + " must be \"stop\" or \"zero\", "
                 "got \"" + S.OnNonFinite + "\"", "on_nonfinite"};
  if (Status St = targetOptions(S, IO); !St)
    return St.error();
  if (Status St = checkOptions(IO); !St)
    return St.error();
  if (Status St = checkRunPlan(S.iterationCap(), S.Calls, S.Warmup); !St)
    return St.error();
  return IO;
}

Expected<EventFileOptions> eventFileOptions(const RunSettings &S) {
  const EventSettings &E = S.Events;
  EventFileOptions O;
  if (!E.any())
    return O;
  if (!E.Count || E.Out.empty())
    return Error{optionRef("events") + " N and " + optionRef("events_out") +
                     " FILE go together (the events are drawn after the "
                     "run from its trained map)",
                 E.Count ? "events_out" : "events"};
  if (auto F = eventFormatOf(E.Out); !F)
    return Error{optionRef("events_out") + ": " + F.message(), "events_out"};
  if (!haveEventFiles())
    return Error{optionRef("events_out") + ": this vegasc was built without "
                     "HepMC3 (install libhepmc3-dev and rebuild)",
                 "events_out"};
  O.Path = E.Out;
  O.Events = E.Count;
  O.Weighted = E.Weighted;
  return O;
}

std::string parseWholeNumber(std::string_view Text, std::uint64_t Max,
                             std::uint64_t &V) {
  const std::string Want = "a whole number from 0 to " + std::to_string(Max) +
                           ", got '" + std::string(Text) + "'";
  StringRef T = StringRef(Text).trim();
  if (T.empty() || !isDigit(T[0]) || !isDigit(T.back()) ||
      T.find_first_not_of("0123456789.eE+-") != StringRef::npos)
    return Want; // a sign, a space, "inf", "nan", "0x..": never wrapped
  if (T.find_first_not_of("0123456789") == StringRef::npos)
    return T.getAsInteger(10, V) || V > Max ? Want : "";
  // 1e6, 2.5e3, 1e17: only what reads as a double exactly (AllowInexact
  // false), so no digit is silently changed.
  double D;
  if (T.getAsDouble(D, /*AllowInexact=*/false) || !(D >= 0) ||
      D != std::floor(D) || !(D < 0x1p64) || D > double(Max))
    return Want;
  V = std::uint64_t(D);
  return "";
}

std::vector<std::string_view> settingKeys() {
  std::vector<std::string_view> Keys;
  for (const OptionInfo &I : optionTable())
    if (!I.Toml.empty())
      Keys.push_back(I.Toml);
  return Keys;
}

std::string spellOptions(
    const Error &E,
    const std::function<std::string(const OptionInfo &, std::string_view)>
        &Spell) {
  // The door's spelling, or 'NAME' for an option it cannot set, which the
  // word "option" would send the user looking for.
  auto Say = [&Spell](StringRef Name, StringRef Value) {
    const OptionInfo *I = findOption(Name);
    std::string Door = I ? Spell(*I, Value) : "";
    return Door.empty() ? "'" + Name.str() + "'" : Door;
  };
  std::string Out;
  std::size_t At = 0;
  for (const OptionMention &M : E.Mentions) {
    Out += E.Message.substr(At, M.Begin - At) + Say(M.Name, M.Value);
    At = M.Begin + M.Size;
  }
  Out += E.Message.substr(At);
  // The library writes no door's spelling, so a message that names no
  // option gets the refused one's in front.
  const OptionInfo *Refused = findOption(E.Option);
  if (E.Mentions.empty() && Refused && !Spell(*Refused, "").empty())
    return Spell(*Refused, "") + ": " + Out;
  return Out;
}

std::string flagMessage(const Error &E) {
  return spellOptions(E, [](const OptionInfo &I, std::string_view Value) {
    if (I.Flag.empty() || Value.empty())
      return std::string(I.Flag);
    return std::string(I.Flag) + "=" + std::string(Value);
  });
}

void addRunSettings(nlohmann::ordered_json &S, const RunSettings &R,
                    const RunFacts &F) {
  // Each option under its JSON key (vf/Options.def), in the documented
  // order (docs/json.md).
  auto Put = [&S](OptionId Id, nlohmann::ordered_json V) {
    S[std::string(optionInfo(Id).Json)] = std::move(V);
  };
  Put(OptionId::Seed, R.Seed);
  Put(OptionId::Calls, R.Calls);
  Put(OptionId::Iterations, R.Iterations);
  Put(OptionId::Warmup, R.Warmup);
  Put(OptionId::Alpha, R.Alpha);
  Put(OptionId::Beta, R.Beta);
  Put(OptionId::Ninc, R.Ninc);
  Put(OptionId::Devices, R.Devices);
  Put(OptionId::Schedule, R.Schedule);
  S["cpu_threads"] = F.CpuThreads;
  S["mpi_ranks"] = F.MpiRanks;
  Put(OptionId::OnNonFinite, R.OnNonFinite);
  Put(OptionId::Rtol, R.Rtol ? nlohmann::ordered_json(*R.Rtol) : nullptr);
  Put(OptionId::Atol, R.Atol ? nlohmann::ordered_json(*R.Atol) : nullptr);
  Put(OptionId::MaxIterations, R.iterationCap());
  nlohmann::ordered_json Ps = nlohmann::ordered_json::object();
  for (const auto &[Name, Value] : F.Params)
    Ps[Name] = Value;
  S["params"] = Ps;
  S["versions"] = {{"vegasflow", versionString()},
                   {"llvm", llvmVersionString()}};
}

} // namespace vf
