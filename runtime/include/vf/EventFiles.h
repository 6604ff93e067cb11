//===- vf/EventFiles.h - Events as LHE and HepMC3 files ---------*- C++ -*-===//
//
// Events of a trained, frozen integrator written for event generators'
// tools: Les Houches Event Files (.lhe, LHEF, hep-ph/0609017) and HepMC3's
// ASCII format (.hepmc3), both through HepMC3's own writers.
//
// The particles of an event come from an event record: an integrand of the
// same file with the same dimension (by convention NAME_event for the
// integrand NAME), evaluated at the event's point, in one of two layouts
// (EventLayout). The basic one has six numbers per particle: PDG id,
// status (-1 incoming, 1 outgoing), E, px, py, pz (GeV); the masses are
// sqrt(E^2 - p^2) (0 where that is within rounding of 0). The lhe one has
// what a parton shower reads: the event's process id, scale and couplings,
// and per particle its mothers, colour lines, mass, lifetime and spin.
// docs/user-guide.md, "Events for generators", has the headers written
// (beams, cross section, its error, the weights' meaning).
//
//===----------------------------------------------------------------------===//
#ifndef VF_EVENTFILES_H
#define VF_EVENTFILES_H

#include "vf/Events.h"
#include "vf/Expected.h"
#include "vf/Integrand.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vf {

class Integrator;

enum class EventFormat { Lhe, HepMC3 };

/// The format a file name asks for: .lhe, or .hepmc3 / .hepmc; an error
/// naming the file otherwise.
Expected<EventFormat> eventFormatOf(const std::string &Path);
/// Whether this build can write events (it was built with HepMC3).
bool haveEventFiles();

/// What the event record returns (the option event_layout).
enum class EventLayout {
  /// [pdg, status, E, px, py, pz] per particle.
  Basic,
  /// [idprup, scale, aqed, aqcd], then [pdg, status, mother1, mother2,
  /// colour, anticolour, E, px, py, pz, m, lifetime, spin] per particle.
  Lhe
};
/// The numbers of the lhe layout's event header and of each particle.
constexpr unsigned LheHeaderValues = 4, LheParticleValues = 13;

/// The LHE <init> beams (IDBMUP, EBMUP).
struct EventBeams {
  std::array<int, 2> Pdg{};
  std::array<double, 2> Energy{}; ///< GeV
};

/// The options' spellings, as every door takes them: "basic" or "lhe";
/// "PDG1,PDG2" (whole numbers, e.g. "2212,2212"); "E1,E2" (positive GeV).
/// Errors name the option (Error::Option).
Expected<EventLayout> parseEventLayout(std::string_view Text);
Expected<std::array<int, 2>> parseBeamIds(std::string_view Text);
Expected<std::array<double, 2>> parseBeamEnergies(std::string_view Text);
/// Both beam options or neither ("" where not given): the beams, none
/// (std::nullopt), or an error naming the one missing or malformed.
Expected<std::optional<EventBeams>> parseBeams(std::string_view Ids,
                                               std::string_view Energies);

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
  EventLayout Layout = EventLayout::Basic;
  /// The beams of LHE's <init>; none: those of the first event's incoming
  /// particles (a record's partons for a hadron collider, which a shower
  /// must not take for the beams).
  std::optional<EventBeams> Beams;
  /// The LHAPDF id of the beams' PDF set, LHE's PDFSUP (PDFGUP 0, as
  /// LHAPDF 6 numbers sets); -1: none, PDFGUP = PDFSUP = 0.
  int PdfSetId = -1;
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
/// trained map, a record of another dimension or of a size that its
/// layout does not have, a non-finite value, a value that LHE needs whole
/// (pdg, status, mothers, colours, idprup) that is not (naming the event
/// and the particle), a file that cannot be written.
Expected<EventFileReport> writeEventFile(Integrator &Int,
                                         const IntegrandInfo &Record,
                                         const EventFileOptions &O);

} // namespace vf

#endif // VF_EVENTFILES_H
