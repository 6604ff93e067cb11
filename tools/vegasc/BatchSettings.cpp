//===- vegasc/BatchSettings.cpp - A batch's integration settings ----------===//
//
// Each settings key: its TOML type first (a string, an integer, a whole
// number of calls), then the library's verdict on its value, reported at
// the value with the key's name (BatchSettings.h).
//
//===----------------------------------------------------------------------===//

#include "vegasc/BatchSettings.h"

#include "vegasc/ClosestName.h"
#include "vegasc/PathNames.h"
#include "vf/ChannelWeightsSpec.h"

#include <cmath>
#include <limits>
#include <optional>

namespace vf {

namespace {

/// The option whose TOML key is \p Key (vf/Options.def), if any.
std::optional<OptionId> tomlOption(std::string_view Key) {
  const std::span<const OptionInfo> Table = optionTable();
  for (const OptionInfo &I : Table)
    if (!I.Toml.empty() && I.Toml == Key)
      return OptionId(&I - Table.data());
  return std::nullopt;
}

} // namespace

std::string keyMessage(const Error &E) {
  return spellOptions(E, [](const OptionInfo &I, std::string_view Value) {
    const std::string Key(I.Toml);
    if (Key.empty() || Value.empty())
      return Key.empty() ? Key : "'" + Key + "'";
    return Key + " = \"" + std::string(Value) + "\"";
  });
}

bool SettingsReader::accepted(const toml::node &N, const RunSettings &Probe,
                              std::string_view Hint) {
  Expected<IntegratorOptions> IO = integratorOptions(Probe);
  if (IO)
    return true;
  error(loc(N), keyMessage(IO.error()) + std::string(Hint));
  return false;
}

void SettingsReader::convert(const BatchSettings &S, IntegratorOptions &Options,
                             TextLoc Where) {
  Expected<IntegratorOptions> IO = integratorOptions(S);
  if (IO)
    Options = std::move(*IO);
  else
    error(Where, keyMessage(IO.error()));
  // The events' keys together (the count with its file), at the key the
  // error names when the run (or [defaults]) set it.
  if (Expected<EventFileOptions> E = eventFileOptions(S); !E) {
    const std::string &Key = E.error().Option;
    TextLoc At = Key == "events_out" ? S.EventsOutLoc : TextLoc();
    for (TextLoc L : {S.EventsLoc, S.EventsOutLoc, Where})
      At = At.isValid() ? At : L;
    error(At, keyMessage(E.error()));
  }
}

std::string SettingsReader::resolve(std::string_view P) const {
  if (P.starts_with('/'))
    return std::string(P);
  return joinPath(C.Dir, P);
}

void SettingsReader::eventSetting(OptionId Id, const toml::key &K,
                                  const toml::node &N, BatchSettings &S) {
  const std::string Key(K.str());
  std::string Str;
  if (Id == OptionId::Events) {
    std::uint64_t W;
    if (wholeNumber(K, N, MaxSeed, W)) {
      S.Events.Count = W;
      S.EventsLoc = loc(N);
    }
    return;
  }
  if (Id == OptionId::PdfId) {
    std::uint64_t W;
    if (wholeNumber(K, N, std::uint64_t(optionInfo(Id).Hi), W))
      S.Events.PdfId = int(W);
    return;
  }
  if (Id == OptionId::WeightedEvents) {
    if (auto B = N.as_boolean())
      S.Events.Weighted = B->get();
    else
      error(loc(N), "'" + Key + "' must be true or false, got " +
                        std::string(tomlTypeName(N)));
    return;
  }
  // event_layout, beams, beam_energies: the library reads their text.
  if (Id == OptionId::EventLayout || Id == OptionId::Beams ||
      Id == OptionId::BeamEnergies) {
    if (string(K, N, Str))
      layoutOrBeams(Id, N, Str, S);
    return;
  }
  // events_out and event_record: a file, an integrand.
  if (!string(K, N, Str))
    return;
  if (Str.empty()) {
    error(loc(N), "'" + Key + "' must name " +
                      (Id == OptionId::EventsOut ? "a file" : "an integrand"));
    return;
  }
  if (Id == OptionId::EventRecord) {
    S.Events.Record = Str;
    S.EventRecordLoc = loc(N);
    return;
  }
  // The file's ending now, alone (the count it goes with once the run's
  // keys are all read: convert).
  RunSettings Probe;
  Probe.Events.Count = 1;
  Probe.Events.Out = Str;
  if (Expected<EventFileOptions> E = eventFileOptions(Probe); !E) {
    error(loc(N), keyMessage(E.error()));
    return;
  }
  S.Events.Out = resolve(Str);
  S.EventsOutLoc = loc(N);
}

void SettingsReader::layoutOrBeams(OptionId Id, const toml::node &N,
                                   const std::string &Str, BatchSettings &S) {
  // Each text alone now, at its line; the two beam keys together once the
  // run's keys are all read (convert).
  Status Read = Status::ok();
  if (Id == OptionId::EventLayout) {
    if (Expected<EventLayout> L = parseEventLayout(Str); !L)
      Read = L.error();
  } else if (Id == OptionId::Beams) {
    if (Expected<std::array<int, 2>> B = parseBeamIds(Str); !B)
      Read = B.error();
  } else if (Expected<std::array<double, 2>> E = parseBeamEnergies(Str); !E) {
    Read = E.error();
  }
  if (!Read) {
    error(loc(N), keyMessage(Read.error()));
    return;
  }
  std::string &Field = Id == OptionId::EventLayout ? S.Events.Layout
                       : Id == OptionId::Beams     ? S.Events.Beams
                                                   : S.Events.BeamEnergies;
  Field = Str;
}

void SettingsReader::calls(const toml::node &N, BatchSettings &S) {
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
                  "or 1e5), got " +
                      Got);
    return;
  }
  // Beyond 2^64 is beyond any plan: saturate, for the check to say.
  check(N, S, &RunSettings::Calls,
        V < 0x1p64 ? std::uint64_t(V)
                   : std::numeric_limits<std::uint64_t>::max());
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
  error(loc(N), "'" + std::string(K.str()) + "' must be " + Why);
  return false;
}

void SettingsReader::numberSetting(OptionId Id, const toml::key &K,
                                   const toml::node &N, BatchSettings &S) {
  constexpr std::int64_t MaxUnsigned = std::numeric_limits<unsigned>::max();
  double D;
  std::uint64_t W;
  if (Id == OptionId::Iterations || Id == OptionId::Warmup ||
      Id == OptionId::Ninc) {
    if (wholeNumber(K, N, MaxUnsigned, W))
      check(N, S,
            Id == OptionId::Iterations ? &RunSettings::Iterations
            : Id == OptionId::Warmup   ? &RunSettings::Warmup
                                       : &RunSettings::Ninc,
            unsigned(W));
  } else if (Id == OptionId::Rtol || Id == OptionId::Atol) {
    // The value's range here; whether the run's target as a whole can be
    // met (not 0 everywhere) once its keys are all read (convert).
    if (!number(K, N, D))
      return;
    const bool Rel = Id == OptionId::Rtol;
    RunSettings Probe;
    (Rel ? Probe.Rtol : Probe.Atol) = D;
    (Rel ? Probe.Atol : Probe.Rtol) = 1;
    if (accepted(N, Probe, ""))
      (Rel ? S.Rtol : S.Atol) = D;
  } else if (Id == OptionId::MaxIterations) {
    // Checked with the target it caps, once the run's keys are all read.
    std::int64_t I;
    if (integer(K, N, 1, MaxUnsigned, I, "a positive integer"))
      S.MaxIterations = unsigned(I);
  } else if (Id == OptionId::Seed) {
    if (wholeNumber(K, N, MaxSeed, W))
      S.Seed = W;
  } else if (number(K, N, D)) { // alpha, beta, channel_floor
    check(N, S,
          Id == OptionId::Alpha  ? &RunSettings::Alpha
          : Id == OptionId::Beta ? &RunSettings::Beta
                                 : &RunSettings::ChannelFloor,
          D);
  }
}

void SettingsReader::channelWeights(const toml::key &K, const toml::node &N,
                                    BatchSettings &S) {
  // An array of numbers is the same list as the text "1,3": written as
  // that text (vf/ChannelWeightsSpec.h), which the library then reads.
  const toml::array *A = N.as_array();
  if (!A) {
    std::string Str;
    if (string(K, N, Str))
      check(N, S, &RunSettings::ChannelWeights, Str);
    return;
  }
  std::vector<double> Weights;
  for (const toml::node &W : *A) {
    if (!W.is_number()) {
      error(loc(W), "'" + std::string(K.str()) +
                        "' must be \"adapt\" or an array of positive "
                        "numbers, one per channel; got an array holding " +
                        std::string(tomlTypeName(W)));
      return;
    }
    Weights.push_back(W.is_integer() ? double(W.as_integer()->get())
                                     : W.as_floating_point()->get());
  }
  if (Weights.empty()) {
    error(loc(N), "'" + std::string(K.str()) +
                      "' is an empty array: give one weight per channel, "
                      "or \"adapt\"");
    return;
  }
  check(N, S, &RunSettings::ChannelWeights, channelWeightsText(Weights));
}

void SettingsReader::stringSetting(OptionId Id, const toml::key &K,
                                   const toml::node &N, BatchSettings &S) {
  std::string Str;
  if (!string(K, N, Str))
    return;
  if (Id == OptionId::Devices) {
    // The same list as --devices; a device this machine lacks (a GPU)
    // is reported per run, when the integrator sets it up.
    if (check(N, S, &RunSettings::Devices, Str))
      S.DevicesLoc = loc(N);
  } else if (Id == OptionId::Schedule) {
    static constexpr std::string_view Schedules[] = {"adaptive", "guided",
                                                     "static", "dynamic"};
    const std::string_view Best = closestName(Str, Schedules);
    check(N, S, &RunSettings::Schedule, Str,
          Best.empty() ? "" : "; did you mean \"" + std::string(Best) + "\"?");
  } else if (Id == OptionId::Precision) {
    check(N, S, &RunSettings::Precision, Str);
  } else {
    check(N, S, &RunSettings::OnNonFinite, Str);
  }
}

bool SettingsReader::setting(const toml::key &K, const toml::node &N,
                             BatchSettings &S) {
  std::optional<OptionId> Id = tomlOption(K.str());
  if (!Id)
    return false;
  switch (*Id) {
  case OptionId::Calls:
    calls(N, S);
    break;
  case OptionId::Iterations:
  case OptionId::Warmup:
  case OptionId::Ninc:
  case OptionId::Rtol:
  case OptionId::Atol:
  case OptionId::MaxIterations:
  case OptionId::Seed:
  case OptionId::Alpha:
  case OptionId::Beta:
  case OptionId::ChannelFloor:
    numberSetting(*Id, K, N, S);
    break;
  case OptionId::ChannelWeights:
    channelWeights(K, N, S);
    break;
  case OptionId::Devices:
  case OptionId::Schedule:
  case OptionId::OnNonFinite:
  case OptionId::Precision:
    stringSetting(*Id, K, N, S);
    break;
  case OptionId::Events:
  case OptionId::EventsOut:
  case OptionId::WeightedEvents:
  case OptionId::EventRecord:
  case OptionId::EventLayout:
  case OptionId::Beams:
  case OptionId::BeamEnergies:
  case OptionId::PdfId:
    eventSetting(*Id, K, N, S);
    break;
  case OptionId::MaxHcube: // no TOML key (tomlOption never returns it)
    return false;
  }
  return true;
}

} // namespace vf
