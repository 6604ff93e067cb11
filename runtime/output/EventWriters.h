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

#include <string>
#include <vector>

namespace vf {

struct Particle {
  int Pdg = 0;
  int Status = 1; ///< -1 incoming, 1 outgoing (the LHE convention)
  double E = 0, Px = 0, Py = 0, Pz = 0;
  double mass() const;
};

/// Events of a fixed number of particles each, flat.
struct EventList {
  unsigned ParticlesPerEvent = 0;
  std::vector<double> Weights;
  std::vector<Particle> Particles; ///< ParticlesPerEvent per event
  /// A multi-channel integrand's: each event's channel (an index into
  /// ChannelNames), written as the event's "channel" attribute.
  std::vector<std::string> ChannelNames;
  std::vector<std::uint32_t> Channels;
  std::size_t size() const { return Weights.size(); }
  const Particle *particles(std::size_t Event) const {
    return Particles.data() + Event * ParticlesPerEvent;
  }
};

struct EventHeader {
  bool Weighted = false;
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
