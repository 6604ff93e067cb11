//===- vegasc/Events.cpp - Events after a run, for both doors -------------===//
//
// What a single run and a batch run do alike for --events / events_out:
// find the event record in the integrand's module, draw and write the
// events with the run's cross section, and say what was written (a line,
// and a batch run's JSON `events`).
//
//===----------------------------------------------------------------------===//

#include "vegasc/Driver.h"

#include "vegasc/Format.h"
#include "vf/Module.h"

#include <nlohmann/json.hpp>

namespace vf {

Expected<IntegrandInfo> eventRecord(const Module &M, const RunSettings &S,
                                    const std::string &Name,
                                    const std::string &Where) {
  const std::string Record =
      S.Events.Record.empty() ? Name + "_event" : S.Events.Record;
  auto Info = M.integrand(Record);
  if (Info)
    return *Info;
  return Error{"no event record '" + Record + "' in " + Where +
                   ": add an integrand " + Record +
                   "(x in the same domain) -> [6n] returning [pdg, status, "
                   "E, px, py, pz] per particle, or name one with " +
                   optionRef("event_record") +
                   " (docs/user-guide.md, \"Events for generators\")",
               S.Events.Record.empty() ? "events" : "event_record"};
}

Expected<EventFileReport> writeRunEvents(Integrator &Int,
                                         const IntegrandInfo &Record,
                                         EventFileOptions E, const Result &R) {
  Int.freeze();
  E.CrossSection = R.Mean[0];
  E.CrossSectionError = R.Error[0];
  return writeEventFile(Int, Record, E);
}

nlohmann::ordered_json eventsJson(const EventFileOptions &E,
                                  const std::string &Record,
                                  const std::optional<EventFileReport> &Rep,
                                  const std::string &Error) {
  nlohmann::ordered_json J;
  J["file"] = E.Path;
  J["weighted"] = E.Weighted;
  J["record"] = Record;
  if (!Rep) {
    J["error"] = Error;
    return J;
  }
  J["format"] = Rep->Format == EventFormat::Lhe ? "lhe" : "hepmc3";
  J["written"] = Rep->Written;
  J["sum_weights"] = Rep->SumWeights;
  J["max_weight"] = Rep->MaxWeight;
  if (!E.Weighted) {
    J["efficiency"] = Rep->Unweighting.Efficiency;
    J["wmax"] = Rep->Unweighting.Wmax;
    J["overshoot_fraction"] = Rep->Unweighting.OvershootFraction;
    // A multi-channel integrand's efficiency per channel, in source order.
    if (!Rep->Unweighting.Channels.empty()) {
      nlohmann::ordered_json C = nlohmann::ordered_json::array();
      for (const ChannelUnweight &U : Rep->Unweighting.Channels)
        C.push_back({{"drawn", U.Drawn},
                     {"accepted", U.Accepted},
                     {"efficiency", U.efficiency()}});
      J["channel_efficiency"] = C;
    }
  }
  return J;
}

std::string eventsWritten(const EventFileReport &Rep,
                          const EventFileOptions &E) {
  std::string S = std::to_string(Rep.Written) +
                  (E.Weighted ? " weighted" : " unweighted") +
                  " events to '" + E.Path + "' (" +
                  (Rep.Format == EventFormat::Lhe ? "LHE" : "HepMC3") + ")";
  if (E.Weighted)
    return S;
  const UnweightStats &U = Rep.Unweighting;
  S += ": efficiency " + printfDouble("%.4g", U.Efficiency);
  if (!U.Channels.empty()) {
    S += " (per channel";
    for (const ChannelUnweight &C : U.Channels)
      S += " " + printfDouble("%.4g", C.efficiency());
    S += ")";
  }
  return S + ", w_max " + printfDouble("%.6g", U.Wmax) + ", overshoot " +
         printfDouble("%.3g", 100 * U.OvershootFraction) + "%";
}

} // namespace vf
