//===- vegasc/RunOptions.h - A run's settings, for both doors ---*- C++ -*-===//
//
// A single run (`vegasc f.vf --calls 1e6`) and a batch run (`calls = 1e6`
// in a TOML file) have the same settings, RunSettings, with vegasc's
// defaults. integratorOptions() is the one conversion of them into
// vf::IntegratorOptions, and the one validation: it reads the two driver
// spellings (the devices list, the non-finite policy) and leaves every
// other check to the library (vf::checkOptions, vf::checkRunPlan). Its
// errors, like every library error, name options as vf::optionRef(KEY) and
// set Error::Option; each door then says them in its own terms:
// flagMessage() as command-line flags, the TOML reader as keys at their
// line (BatchSettings.cpp). eventFileOptions() is the same for the events
// a run writes after it.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TOOLS_VEGASC_RUNOPTIONS_H
#define VF_TOOLS_VEGASC_RUNOPTIONS_H

#include "vf/EventFiles.h"
#include "vf/Integrator.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vf {

/// The TOML keys of a run's settings (vf/Options.def), in table order.
std::vector<std::string_view> settingKeys();

/// \p Text as a whole number from 0 to \p Max, written in digits (123) or,
/// where that is exact, in exponent notation (1e6) as both doors accept
/// for counts. Returns "" or what is wrong ("a whole number from 0 to MAX,
/// got 'TEXT'"); a sign, hex, inf, nan or a fraction is refused, never
/// wrapped or rounded.
std::string parseWholeNumber(std::string_view Text, std::uint64_t Max,
                             std::uint64_t &V);

/// The events drawn after a run from its trained map (docs/user-guide.md,
/// "Events for generators"): --events N --events-out FILE
/// [--weighted-events] [--event-record NAME] [--event-layout lhe]
/// [--beams PDG1,PDG2 --beam-energies E1,E2] [--pdf-id ID], or the same
/// keys in TOML.
struct EventSettings {
  std::uint64_t Count = 0; ///< events to write (0: none)
  std::string Out;         ///< FILE.lhe or FILE.hepmc3
  bool Weighted = false;   ///< weighted rather than unweighted events
  std::string Record;      ///< the record integrand ("": NAME_event)
  /// The texts of event_layout, beams and beam_energies ("": not given),
  /// read by vf::parseEventLayout and vf::parseBeams.
  std::string Layout, Beams, BeamEnergies;
  int PdfId = -1; ///< the LHAPDF id (-1: not given)
  bool any() const {
    return Count || !Out.empty() || Weighted || !Record.empty() ||
           !Layout.empty() || !Beams.empty() || !BeamEnergies.empty() ||
           PdfId >= 0;
  }
};

/// The integration settings of a run; the defaults are vegasc's.
struct RunSettings {
  std::string Devices = "all"; ///< as --devices (vf::parseDevices)
  std::uint64_t Calls = 1000000;
  unsigned Iterations = 10;
  unsigned Warmup = 5;
  std::uint64_t Seed = 1;
  /// How tiles are handed to devices; the result is the same under all.
  std::string Schedule = "adaptive";
  double Alpha = 0.5;
  double Beta = 0.75;
  unsigned Ninc = 1000;
  std::string OnNonFinite = "stop"; ///< stop | zero
  std::string Precision = "f64";    ///< f64 | f32
  /// A multi-channel integrand's weights, as vf/ChannelWeightsSpec.h
  /// spells them ("adapt" or "1,3"), and the floor of adapted ones (0:
  /// 0.1 / channels).
  std::string ChannelWeights = "adapt";
  double ChannelFloor = 0;
  /// Accuracy target (unset: a fixed number of iterations). Given, each
  /// must be >= 0 and one > 0; MaxIterations (0: Iterations) is the cap.
  std::optional<double> Rtol, Atol;
  unsigned MaxIterations = 0;
  EventSettings Events;
  /// The measured iterations run() is given: the cap with a target.
  unsigned iterationCap() const {
    return MaxIterations && (Rtol || Atol) ? MaxIterations : Iterations;
  }
};

/// \p S as IntegratorOptions, checked whole (options and run plan); the
/// error names the option (optionRef, Error::Option). Cluster and machine
/// share are the caller's to add.
Expected<IntegratorOptions> integratorOptions(const RunSettings &S);

/// \p S's events as EventFileOptions (Events 0 when none are asked for),
/// checked before the run so that a wrong name costs no integration: the
/// count and the file go together, the file's ending, a build with
/// HepMC3, the layout's and the beams' spellings. Errors name the option
/// (optionRef, Error::Option). The cross section is the caller's to fill in
/// from the result.
Expected<EventFileOptions> eventFileOptions(const RunSettings &S);

/// \p E's message with each option it names (Error::Mentions) said as
/// \p Spell(OPTION, VALUE), OPTION being the option's row of
/// vf/Options.def and VALUE the value to give it, if any; a message that
/// names no option but has E.Option set gets "Spell(Option, ""): " in
/// front. An option the door lacks
/// (Spell returns "": max_hcube, set only through the APIs) becomes
/// 'NAME', never "option 'NAME'" or a flag the door does not have.
std::string spellOptions(
    const Error &E,
    const std::function<std::string(const OptionInfo &, std::string_view Value)>
        &Spell);
/// spellOptions with command-line flags: option 'on_nonfinite' is
/// --on-nonfinite, "option 'on_nonfinite' to 'zero'" --on-nonfinite=zero.
std::string flagMessage(const Error &E);

/// What a run's JSON `settings` records besides its RunSettings.
struct RunFacts {
  unsigned CpuThreads = 0; ///< per process, as the integrator set them up
  int MpiRanks = 1;
  std::vector<std::pair<std::string, double>> Params;
};
/// Appends \p R's keys and \p F to \p S, in the documented order
/// (docs/json.md).
void addRunSettings(nlohmann::ordered_json &S, const RunSettings &R,
                    const RunFacts &F);

} // namespace vf

#endif // VF_TOOLS_VEGASC_RUNOPTIONS_H
