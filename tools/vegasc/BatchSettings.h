//===- vegasc/BatchSettings.h - A batch's integration settings --*- C++ -*-===//
//
// The settings keys of [defaults] and [[run]] (settingKeys(): calls,
// alpha, devices, ...). Each value is read for its TOML type here and then
// checked by the same conversion a single run's flags go through
// (integratorOptions, hence the library's checks), alone with vegasc's
// defaults for the rest, so that each bad key gets its own error at its
// line, in file order; the library's message names the option as the key.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TOOLS_VEGASC_BATCHSETTINGS_H
#define VF_TOOLS_VEGASC_BATCHSETTINGS_H

#include "vegasc/TomlReader.h"

namespace vf {

class SettingsReader : public TomlReader {
public:
  using TomlReader::TomlReader;

protected:
  /// Reads and checks one of settingKeys() into \p S (left as it was if
  /// the value is refused); false if \p K is not a setting.
  bool setting(const toml::key &K, const toml::node &N, BatchSettings &S);
  /// \p S converted into \p Options; a refusal (one that involves several
  /// keys at once) is reported at \p Where.
  void convert(const BatchSettings &S, IntegratorOptions &Options,
               TextLoc Where);

  /// \p P resolved against the TOML file's folder (an absolute path as
  /// it is).
  std::string resolve(std::string_view P) const;

private:
  /// events, events_out, weighted_events, event_record, event_layout,
  /// beams, beam_energies, pdf_id (\p Id).
  void eventSetting(OptionId Id, const toml::key &K, const toml::node &N,
                    BatchSettings &S);
  /// event_layout, beams or beam_energies (\p Id): \p Str, if the library
  /// reads it, into \p S.
  void layoutOrBeams(OptionId Id, const toml::node &N, const std::string &Str,
                     BatchSettings &S);
  /// calls: a whole number of samples, 1e6 as well as 1000000.
  void calls(const toml::node &N, BatchSettings &S);
  /// The other numbers: iterations, warmup, ninc, rtol, atol,
  /// max_iterations, seed, alpha, beta, channel_floor (\p Id).
  void numberSetting(OptionId Id, const toml::key &K, const toml::node &N,
                     BatchSettings &S);
  /// channel_weights: "adapt", "1,3" or an array of numbers [1, 3].
  void channelWeights(const toml::key &K, const toml::node &N,
                      BatchSettings &S);
  /// devices, schedule, on_nonfinite (\p Id).
  void stringSetting(OptionId Id, const toml::key &K, const toml::node &N,
                     BatchSettings &S);
  /// \p Value into \p S's \p Field if the library accepts it alone in
  /// vegasc's defaults (so that its verdict is about this key only);
  /// otherwise its error at \p N, with \p Hint.
  template <typename T>
  bool check(const toml::node &N, BatchSettings &S, T RunSettings::*Field,
             T Value, std::string_view Hint = "") {
    RunSettings Probe;
    Probe.*Field = Value;
    if (!accepted(N, Probe, Hint))
      return false;
    S.*Field = std::move(Value);
    return true;
  }
  /// \p N as a whole number from 0 to \p Max by the command line's rule
  /// (parseWholeNumber); reported at \p N if not.
  bool wholeNumber(const toml::key &K, const toml::node &N, std::uint64_t Max,
                   std::uint64_t &V);
  /// Whether \p Probe (vegasc's defaults but for the value of \p N) passes
  /// the library; if not, its error is reported at \p N, with \p Hint.
  bool accepted(const toml::node &N, const RunSettings &Probe,
                std::string_view Hint = "");
};

/// \p E's message with options named as TOML keys ('calls'; a value to
/// give one as on_nonfinite = "zero").
std::string keyMessage(const Error &E);

} // namespace vf

#endif // VF_TOOLS_VEGASC_BATCHSETTINGS_H
