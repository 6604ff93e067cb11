//===- runtime/output/EventWriters.h - LHE and HepMC3 text ------*- C++ -*-===//
//
// The one place that includes HepMC3: a list of events rendered as the text
// of an LHE or a HepMC3 ASCII file by HepMC3's own writers (LHEF::Writer,
// HepMC3::WriterAscii), for EventFiles.cpp to write atomically.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_OUTPUT_EVENTWRITERS_H
#define VF_RUNTIME_OUTPUT_EVENTWRITERS_H

#include "vf/EventFiles.h"

#include <string>
#include <vector>

namespace vf {

struct Particle {
  int Pdg = 0;
  int Status = 1; ///< -1 incoming, 1 outgoing (the LHE convention)
  double E = 0, Px = 0, Py = 0, Pz = 0;
  double mass() const;
};

struct StoredEvent {
  double Weight = 0;
  std::vector<Particle> Particles;
};

struct EventHeader {
  bool Weighted = false;
  double CrossSection = 0, CrossSectionError = 0;
  double MaxWeight = 0;
  bool NegativeWeights = false;
};

/// The file's text; an error if the writer fails.
Expected<std::string> renderEvents(EventFormat F, const EventHeader &H,
                                   const std::vector<StoredEvent> &Events);

} // namespace vf

#endif // VF_RUNTIME_OUTPUT_EVENTWRITERS_H
