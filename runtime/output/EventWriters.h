//===- runtime/output/EventWriters.h - LHE and HepMC3 text ------*- C++ -*-===//
//
// The one place that includes HepMC3: a list of events written as an LHE
// or a HepMC3 ASCII file by HepMC3's own writers (LHEF::Writer,
// HepMC3::WriterAscii), streamed into an AtomicFile event by event: the
// text is never held whole (2 million events are a gigabyte of it), and
// every write is checked, so a file is complete or absent.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_OUTPUT_EVENTWRITERS_H
#define VF_RUNTIME_OUTPUT_EVENTWRITERS_H

#include "vf/EventFiles.h"

#include "files/SafeFiles.h"

#include <optional>
#include <string>
#include <vector>

namespace vf {

/// A particle as LHE's HEPEUP holds it.
struct Particle {
  int Pdg = 0;
  int Status = 1; ///< ISTUP: -1 incoming, 1 outgoing, 2 a resonance, ...
  int Mother1 = 0, Mother2 = 0;   ///< MOTHUP: 1-based, 0 for none
  int Colour = 0, Anticolour = 0; ///< ICOLUP: colour line tags, 0 for none
  double E = 0, Px = 0, Py = 0, Pz = 0;
  double Mass = 0;
  double Lifetime = 0; ///< VTIMUP, mm
  double Spin = 9;     ///< SPINUP: 9 for unknown
};

/// What an event says besides its particles (LHE's IDPRUP, SCALUP,
/// AQEDUP, AQCDUP; -1 where not given).
struct EventInfo {
  int Process = 1;
  double Scale = -1, AlphaQed = -1, AlphaQcd = -1;
};

/// Events of a fixed number of particles each, flat.
struct EventList {
  unsigned ParticlesPerEvent = 0;
  std::vector<double> Weights;
  std::vector<Particle> Particles; ///< ParticlesPerEvent per event
  /// Each event's header (the lhe layout); empty: EventInfo{} for all.
  std::vector<EventInfo> Infos;
  /// A multi-channel integrand's: each event's channel (an index into
  /// ChannelNames), written as the event's "channel" attribute.
  std::vector<std::string> ChannelNames;
  std::vector<std::uint32_t> Channels;
  /// The integrand's weight lists and, Entries per event, their entries'
  /// event weights (EventBatch::EntryWeights; empty without lists).
  std::vector<WeightListSpec> WeightLists;
  unsigned Entries = 0;
  std::vector<double> EntryWeights;
  std::size_t size() const { return Weights.size(); }
  const double *entryWeights(std::size_t Event) const {
    return EntryWeights.data() + Event * Entries;
  }
  const Particle *particles(std::size_t Event) const {
    return Particles.data() + Event * ParticlesPerEvent;
  }
  EventInfo info(std::size_t Event) const {
    return Infos.empty() ? EventInfo{} : Infos[Event];
  }
};

struct EventHeader {
  bool Weighted = false;
  /// The record's layout was lhe: HepMC3 events get its per-event values
  /// as attributes, which basic files never had.
  bool FullRecord = false;
  std::optional<EventBeams> Beams;
  int PdfSetId = -1;
  double CrossSection = 0, CrossSectionError = 0;
  double MaxWeight = 0;
  bool NegativeWeights = false;
};

/// Writes the file's text to \p File (not committed); an error if the
/// writer or any write fails.
Status writeEvents(EventFormat F, const EventHeader &H, const EventList &Events,
                   AtomicFile &File);

} // namespace vf

#endif // VF_RUNTIME_OUTPUT_EVENTWRITERS_H
