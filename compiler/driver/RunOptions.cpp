//===- driver/RunOptions.cpp - A run's settings, for both doors -----------===//
//
// The one conversion of RunSettings into IntegratorOptions, the devices
// list both doors accept, and the rewriting of the library's option names
// into a door's own (RunOptions.h).
//
//===----------------------------------------------------------------------===//

#include "driver/RunOptions.h"

#include "vf/Version.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"

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

std::string parseWholeNumber(StringRef Text, std::uint64_t Max,
                             std::uint64_t &V) {
  const std::string Want =
      "a whole number from 0 to " + std::to_string(Max) + ", got '" +
      Text.str() + "'";
  StringRef T = Text.trim();
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

std::string spellOptions(const Error &E, function_ref<std::string(
                                             StringRef Key, StringRef Value)>
                                             Spell) {
  const std::string Ref = optionRef("");
  const StringRef Open = StringRef(Ref).drop_back(); // "option '"
  std::string Out;
  StringRef Rest = E.Message;
  bool Named = false;
  for (size_t At; (At = Rest.find(Open)) != StringRef::npos;) {
    Out += Rest.take_front(At);
    Rest = Rest.drop_front(At + Open.size());
    const size_t Close = Rest.find('\'');
    const StringRef Name = Rest.take_front(Close);
    if (Close == StringRef::npos) {
      Out += Open;
      continue;
    }
    Rest = Rest.drop_front(Close + 1);
    // An option of the library that this door has no setting for (only
    // the C++, C and Python APIs set max_hcube) is named without the
    // word "option", which would send the user looking for a flag.
    if (!is_contained(RunSettingKeys, Name)) {
      Out += "'" + Name.str() + "'";
      continue;
    }
    Named = true;
    // "option 'K' to 'V'": a value to give it, in the door's own syntax.
    StringRef Value;
    if (Rest.consume_front(" to '")) {
      Value = Rest.take_until([](char C) { return C == '\''; });
      Rest = Rest.drop_front(std::min(Rest.size(), Value.size() + 1));
    }
    Out += Spell(Name, Value);
  }
  Out += Rest;
  // A message that already says the spelling (one written for this door)
  // is left as it is.
  if (!Named && is_contained(RunSettingKeys, E.Option) &&
      Out.find(Spell(E.Option, "")) == std::string::npos)
    return Spell(E.Option, "") + ": " + Out;
  return Out;
}

std::string flagMessage(const Error &E) {
  return spellOptions(E, [](StringRef Key, StringRef Value) {
    std::string Flag = "--" + Key.str();
    std::replace(Flag.begin(), Flag.end(), '_', '-');
    return Value.empty() ? Flag : Flag + "=" + Value.str();
  });
}

void addRunSettings(nlohmann::ordered_json &S, const RunSettings &R,
                    const RunFacts &F) {
  S["seed"] = R.Seed;
  S["calls"] = R.Calls;
  S["iterations"] = R.Iterations;
  S["warmup"] = R.Warmup;
  S["alpha"] = R.Alpha;
  S["beta"] = R.Beta;
  S["ninc"] = R.Ninc;
  S["devices"] = R.Devices;
  S["schedule"] = R.Schedule;
  S["cpu_threads"] = F.CpuThreads;
  S["mpi_ranks"] = F.MpiRanks;
  S["on_nonfinite"] = R.OnNonFinite;
  S["rtol"] = R.Rtol ? nlohmann::ordered_json(*R.Rtol) : nullptr;
  S["atol"] = R.Atol ? nlohmann::ordered_json(*R.Atol) : nullptr;
  S["max_iterations"] = R.iterationCap();
  nlohmann::ordered_json Ps = nlohmann::ordered_json::object();
  for (const auto &[Name, Value] : F.Params)
    Ps[Name] = Value;
  S["params"] = Ps;
  S["versions"] = {{"vegasflow", versionString()},
                   {"llvm", LLVM_VERSION_STRING}};
}

} // namespace vf
