//===- vegasc/RunOptions.cpp - A run's settings, for both doors -----------===//
//
// The one conversion of RunSettings into IntegratorOptions, the devices
// list both doors accept, and the rewriting of the library's option names
// into a door's own (RunOptions.h).
//
//===----------------------------------------------------------------------===//

#include "vegasc/RunOptions.h"

#include "vegasc/Format.h"
#include "vf/ChannelWeightsSpec.h"
#include "vf/ToolSupport.h"
#include "vf/Version.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <system_error>

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

/// The channel options into \p IO. The floor's range is the table's
/// here; the integrator checks it, and the weights' count, against the
/// integrand's channels.
Status channelOptions(const RunSettings &S, IntegratorOptions &IO) {
  Expected<std::vector<double>> W = parseChannelWeights(S.ChannelWeights);
  if (!W)
    return W.error();
  IO.ChannelWeights = std::move(*W);
  if (!inRange(OptionId::ChannelFloor, S.ChannelFloor))
    return Error{optionRef("channel_floor") + " must be from " +
                     rangeText(OptionId::ChannelFloor) +
                     " (0: 0.1/channels), got " + shortest(S.ChannelFloor),
                 "channel_floor"};
  IO.ChannelFloor = S.ChannelFloor;
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
  Expected<Precision> P = parsePrecision(S.Precision);
  if (!P)
    return P.error();
  IO.Arithmetic = *P;
  if (Status St = targetOptions(S, IO); !St)
    return St.error();
  if (Status St = channelOptions(S, IO); !St)
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
  if (!E.Layout.empty()) {
    Expected<EventLayout> L = parseEventLayout(E.Layout);
    if (!L)
      return L.error();
    O.Layout = *L;
  }
  Expected<std::optional<EventBeams>> B = parseBeams(E.Beams, E.BeamEnergies);
  if (!B)
    return B.error();
  O.Beams = *B;
  O.PdfSetId = E.PdfId;
  return O;
}

namespace {

bool isDigit(char C) { return C >= '0' && C <= '9'; }

/// Whether the decimal \p T (digits with at most one '.', then perhaps an
/// exponent: what std::from_chars read whole) is exactly \p N: its
/// significant digits are N's and their last one has N's place, so that
/// "25e2" and "2500.000" are 2500 and "2500.0001" is not. The digits are
/// compared as text: no arithmetic on T can round.
bool isExactly(std::string_view T, std::uint64_t N) {
  const std::size_t E = T.find_first_of("eE");
  const std::string_view Mantissa = T.substr(0, E);
  // The exponent, held within a range no text that fits in memory can
  // reach back from (what is beyond it is never exactly N anyway).
  long long Exp = 0;
  if (E != std::string_view::npos) {
    std::string_view X = T.substr(E + 1);
    const bool Negative = X.front() == '-';
    X.remove_prefix(X.front() == '-' || X.front() == '+');
    for (char C : X)
      Exp = std::min(Exp * 10 + (C - '0'), 1LL << 50);
    Exp = Negative ? -Exp : Exp;
  }
  // T = Digits x 10^(Exp - the digits after the point).
  std::string Digits;
  for (char C : Mantissa)
    if (isDigit(C))
      Digits += C;
  const std::size_t Point = Mantissa.find('.');
  if (Point != std::string_view::npos)
    Exp -= (long long)(Mantissa.size() - Point - 1);
  Digits.erase(0, std::min(Digits.find_first_not_of('0'), Digits.size()));
  if (Digits.empty())
    return N == 0;
  // Without trailing zeros on both sides, equal values have equal digits
  // and equal powers of ten.
  auto Strip = [](std::string &S, long long &Pow) {
    const std::size_t Last = S.find_last_not_of('0');
    Pow += (long long)(S.size() - Last - 1);
    S.resize(Last + 1);
  };
  std::string NDigits = std::to_string(N);
  long long NExp = 0;
  Strip(Digits, Exp);
  if (N != 0)
    Strip(NDigits, NExp);
  return Digits == NDigits && Exp == NExp;
}

/// \p S without the white space LLVM's StringRef::trim takes off.
std::string_view trimmed(std::string_view S) {
  const char *Space = " \t\n\v\f\r";
  const std::size_t First = S.find_first_not_of(Space);
  if (First == std::string_view::npos)
    return {};
  return S.substr(First, S.find_last_not_of(Space) - First + 1);
}

} // namespace

std::string parseWholeNumber(std::string_view Text, std::uint64_t Max,
                             std::uint64_t &V) {
  const std::string Want = "a whole number from 0 to " + std::to_string(Max) +
                           ", got '" + std::string(Text) + "'";
  const std::string_view T = trimmed(Text);
  if (T.empty() || !isDigit(T.front()) || !isDigit(T.back()) ||
      T.find_first_not_of("0123456789.eE+-") != std::string_view::npos)
    return Want; // a sign, a space, "inf", "nan", "0x..": never wrapped
  const char *End = T.data() + T.size();
  if (T.find_first_not_of("0123456789") == std::string_view::npos) {
    std::uint64_t N;
    if (std::from_chars(T.data(), End, N).ec != std::errc())
      return Want;
    V = N;
    return N > Max ? Want : "";
  }
  // 1e6, 2.5e3, 1e17: only a whole number that a double holds exactly, so
  // that no digit is silently changed (12345678901234567e3 is refused).
  // The text itself must be that number (isExactly), which LLVM's
  // StringRef::getAsDouble, read here before, did not quite check: it took
  // a fraction too small for its working precision as exact
  // ("200.000000000000000010" as 200, "42404609996025056.00058"), and a
  // zero with an exponent of 24000 or more followed by anything
  // ("0e99999-1"). Both are refused now, as the rule above says; every
  // other text reads as it did (compared on 20 million texts of digits,
  // points, exponents and signs).
  double D;
  const std::from_chars_result Read = std::from_chars(T.data(), End, D);
  if (Read.ec != std::errc() || Read.ptr != End || !(D >= 0) ||
      D != std::floor(D) || !(D < 0x1p64) || D > double(Max) ||
      !isExactly(T, std::uint64_t(D)))
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
  auto Say = [&Spell](std::string_view Name, std::string_view Value) {
    const OptionInfo *I = findOption(Name);
    std::string Door = I ? Spell(*I, Value) : "";
    return Door.empty() ? "'" + std::string(Name) + "'" : Door;
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
  Put(OptionId::ChannelWeights, R.ChannelWeights);
  Put(OptionId::ChannelFloor, R.ChannelFloor);
  Put(OptionId::Precision, R.Precision);
  nlohmann::ordered_json Ps = nlohmann::ordered_json::object();
  for (const auto &[Name, Value] : F.Params)
    Ps[Name] = Value;
  S["params"] = Ps;
  S["versions"] = {{"vegasflow", versionString()},
                   {"llvm", llvmVersionString()}};
}

} // namespace vf
