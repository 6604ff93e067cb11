//===- vf/EventFiles.h - Events as LHE and HepMC3 files ---------*- C++ -*-===//
//
// Events of a trained, frozen integrator written for event generators'
// tools: Les Houches Event Files (.lhe, LHEF, hep-ph/0609017) and HepMC3's
// ASCII format (.hepmc3), both through HepMC3's own writers.
//
// The particles of an event come from an event record: an integrand of the
// same file with the same dimension (by convention NAME_event for the
// integrand NAME), evaluated at the event's point, returning six numbers
// per particle: PDG id, status (-1 incoming, 1 outgoing), E, px, py, pz
// (GeV). The masses are sqrt(E^2 - p^2) (0 where that is within rounding
// of 0). docs/user-guide.md, "Events for generators", has the headers
// written (cross section, its error, the weights' meaning).
//
//===----------------------------------------------------------------------===//
#ifndef VF_EVENTFILES_H
#define VF_EVENTFILES_H

#include "vf/Events.h"
#include "vf/Expected.h"
#include "vf/Integrand.h"

#include <cstdint>
#include <string>

namespace vf {

class Integrator;

enum class EventFormat { Lhe, HepMC3 };

/// The format a file name asks for: .lhe, or .hepmc3 / .hepmc; an error
/// naming the file otherwise.
Expected<EventFormat> eventFormatOf(const std::string &Path);
/// Whether this build can write events (it was built with HepMC3).
bool haveEventFiles();

struct EventFileOptions {
  std::string Path;
  std::uint64_t Events = 0;
  /// Weighted events (Integrator::sample; LHE IDWTUP 4) instead of
  /// unweighted ones (Integrator::unweight; IDWTUP 3).
  bool Weighted = false;
  UnweightOptions Unweight;
  /// The header's cross section and its error (the integration's result,
  /// in the integrand's unit: pb for the physics examples).
  double CrossSection = 0;
  double CrossSectionError = 0;
};

struct EventFileReport {
  EventFormat Format = EventFormat::Lhe;
  std::uint64_t Written = 0;
  double SumWeights = 0;
  /// The largest |weight| written (weighted events), or w_max.
  double MaxWeight = 0;
  /// Unweighted events only: efficiency, w_max, overshoot.
  UnweightStats Unweighting;
};

/// What would stop writeEventFile after a run, said before it: the file's
/// name and folder, the record's dimension and size, and the memory the
/// events need until written (Integrand: the integrand to be run).
Status checkEventFile(const IntegrandInfo &Integrand,
                      const IntegrandInfo &Record, const EventFileOptions &O);

/// Draws \p O.Events events from \p Int (run, then freeze()d) and writes
/// them to \p O.Path atomically (the file appears whole or not at all:
/// it is streamed to a temporary, every write checked, and renamed),
/// each event's particles from \p Record at the event's point. Errors: no
/// trained map, a record of another dimension or of a size that is not 6
/// per particle, a non-finite momentum, a file that cannot be written.
Expected<EventFileReport> writeEventFile(Integrator &Int,
                                         const IntegrandInfo &Record,
                                         const EventFileOptions &O);

} // namespace vf

#endif // VF_EVENTFILES_H
