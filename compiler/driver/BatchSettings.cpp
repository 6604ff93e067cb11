//===- driver/BatchSettings.cpp - A batch's integration settings ----------===//
//
// Each settings key: its TOML type first (a string, an integer, a whole
// number of calls), then the library's verdict on its value, reported at
// the value with the key's name (BatchSettings.h).
//
//===----------------------------------------------------------------------===//

#include "driver/BatchSettings.h"

#include "frontend/Diagnostics.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <limits>

using namespace llvm;

namespace vf {

std::string keyMessage(const Error &E) {
  return spellOptions(E, [](const OptionInfo &I, StringRef Value) {
    const std::string Key(I.Toml);
    if (Key.empty() || Value.empty())
      return Key.empty() ? Key : "'" + Key + "'";
    return Key + " = \"" + Value.str() + "\"";
  });
}

bool SettingsReader::accepted(const toml::node &N, const RunSettings &Probe,
                              StringRef Hint) {
  Expected<IntegratorOptions> IO = integratorOptions(Probe);
  if (IO)
    return true;
  error(loc(N), keyMessage(IO.error()) + Hint);
  return false;
}

void SettingsReader::convert(const BatchSettings &S,
                             IntegratorOptions &Options, SMLoc Where) {
  Expected<IntegratorOptions> IO = integratorOptions(S);
  if (IO)
    Options = std::move(*IO);
  else
    error(Where, keyMessage(IO.error()));
  // The events' keys together (the count with its file), at the key the
  // error names when the run (or [defaults]) set it.
  if (Expected<EventFileOptions> E = eventFileOptions(S); !E) {
    const std::string &Key = E.error().Option;
    SMLoc At = Key == "events_out" ? S.EventsOutLoc : SMLoc();
    for (SMLoc L : {S.EventsLoc, S.EventsOutLoc, Where})
      At = At.isValid() ? At : L;
    error(At, keyMessage(E.error()));
  }
}

std::string SettingsReader::resolve(StringRef P) const {
  if (sys::path::is_absolute(P) || C.Dir.empty())
    return P.str();
  SmallString<256> Full(C.Dir);
  sys::path::append(Full, P);
  return std::string(Full);
}

bool SettingsReader::eventSetting(const toml::key &K, const toml::node &N,
                                  BatchSettings &S) {
  StringRef Key = K.str();
  std::string Str;
  if (Key == "events") {
    std::uint64_t W;
    if (wholeNumber(K, N, MaxSeed, W)) {
      S.Events.Count = W;
      S.EventsLoc = loc(N);
    }
  } else if (Key == "events_out" || Key == "event_record") {
    if (!string(K, N, Str))
      return true;
    if (Str.empty()) {
      error(loc(N), "'" + Key + "' must name " +
                        (Key == "events_out" ? "a file" : "an integrand"));
      return true;
    }
    if (Key == "event_record") {
      S.Events.Record = Str;
      S.EventRecordLoc = loc(N);
      return true;
    }
    // The file's ending now, alone (the count it goes with once the run's
    // keys are all read: convert).
    RunSettings Probe;
    Probe.Events = {1, Str, false, ""};
    if (Expected<EventFileOptions> E = eventFileOptions(Probe); !E) {
      error(loc(N), keyMessage(E.error()));
      return true;
    }
    S.Events.Out = resolve(Str);
    S.EventsOutLoc = loc(N);
  } else if (Key == "weighted_events") {
    if (auto B = N.as_boolean())
      S.Events.Weighted = B->get();
    else
      error(loc(N), "'weighted_events' must be true or false, got " +
                        Twine(tomlTypeName(N)));
  } else {
    return false;
  }
  return true;
}

bool SettingsReader::wholeNumber(const toml::key &K, const toml::node &N,
                                 std::uint64_t Max, std::uint64_t &V) {
  // The command line's rule (parseWholeNumber) on the value as written:
  // 1000 or 1e3, never -1 wrapped nor 1.5 rounded.
  std::string Text = tomlTypeName(N);
  if (auto In = N.as_integer())
    Text = std::to_string(In->get());
  else if (auto F = N.as_floating_point()) {
    char Buf[40];
    std::snprintf(Buf, sizeof(Buf), "%.17g", F->get());
    Text = Buf;
  }
  std::string Why = N.is_number() ? parseWholeNumber(Text, Max, V)
                                  : "a whole number from 0 to " +
                                        std::to_string(Max) + ", got " + Text;
  if (Why.empty())
    return true;
  error(loc(N), "'" + K.str() + "' must be " + Why);
  return false;
}

bool SettingsReader::setting(const toml::key &K, const toml::node &N,
                             BatchSettings &S) {
  StringRef Key = K.str();
  constexpr std::int64_t MaxUnsigned = std::numeric_limits<unsigned>::max();
  double D;
  std::string Str;
  // The value alone in vegasc's defaults (which the library accepts), so
  // that the library's verdict is about this key only.
  auto Check = [&]<typename T>(T RunSettings::*Field, T Value,
                               StringRef Hint = "") {
    RunSettings Probe;
    Probe.*Field = Value;
    if (!accepted(N, Probe, Hint))
      return false;
    S.*Field = std::move(Value);
    return true;
  };
  if (Key == "calls") {
    // A whole number; 1e6 (a float in TOML) is accepted like --calls 1e6.
    double V = -1;
    if (auto F = N.as_floating_point())
      V = F->get();
    else if (auto In = N.as_integer())
      V = double(In->get());
    if (!(V >= 0) || V != std::floor(V)) {
      std::string Got = tomlTypeName(N);
      if (N.is_number()) {
        char Buf[40];
        std::snprintf(Buf, sizeof(Buf), "%.17g", V);
        Got = Buf;
      }
      error(loc(N), "'calls' must be a whole number of samples (e.g. 100000 "
                    "or 1e5), got " + Got);
      return true;
    }
    // Beyond 2^64 is beyond any plan: saturate, for the check to say.
    Check(&RunSettings::Calls,
          V < 0x1p64 ? std::uint64_t(V)
                     : std::numeric_limits<std::uint64_t>::max());
  } else if (Key == "iterations" || Key == "warmup" || Key == "ninc") {
    std::uint64_t W;
    if (wholeNumber(K, N, MaxUnsigned, W))
      Check(Key == "iterations" ? &RunSettings::Iterations
            : Key == "warmup"   ? &RunSettings::Warmup
                                : &RunSettings::Ninc,
            unsigned(W));
  } else if (Key == "rtol" || Key == "atol") {
    // The value's range here; whether the run's target as a whole can be
    // met (not 0 everywhere) once its keys are all read (convert).
    if (number(K, N, D)) {
      RunSettings Probe;
      (Key == "rtol" ? Probe.Rtol : Probe.Atol) = D;
      (Key == "rtol" ? Probe.Atol : Probe.Rtol) = 1;
      if (accepted(N, Probe, ""))
        (Key == "rtol" ? S.Rtol : S.Atol) = D;
    }
  } else if (Key == "max_iterations") {
    // Checked with the target it caps, once the run's keys are all read.
    std::int64_t I;
    if (integer(K, N, 1, MaxUnsigned, I, "a positive integer"))
      S.MaxIterations = unsigned(I);
  } else if (Key == "seed") {
    std::uint64_t W;
    if (wholeNumber(K, N, MaxSeed, W))
      S.Seed = W;
  } else if (Key == "alpha" || Key == "beta") {
    if (number(K, N, D))
      Check(Key == "alpha" ? &RunSettings::Alpha : &RunSettings::Beta, D);
  } else if (Key == "devices") {
    // The same list as --devices; a device this machine lacks (a GPU)
    // is reported per run, when the integrator sets it up.
    if (string(K, N, Str) && Check(&RunSettings::Devices, Str))
      S.DevicesLoc = loc(N);
  } else if (Key == "schedule") {
    if (string(K, N, Str)) {
      StringRef Best =
          closestName(Str, {"adaptive", "guided", "static", "dynamic"});
      Check(&RunSettings::Schedule, Str,
            Best.empty() ? "" : "; did you mean \"" + Best.str() + "\"?");
    }
  } else if (Key == "on_nonfinite") {
    if (string(K, N, Str))
      Check(&RunSettings::OnNonFinite, Str);
  } else {
    return eventSetting(K, N, S);
  }
  return true;
}

} // namespace vf
