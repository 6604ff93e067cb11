//===- runtime/output/EventWriters.cpp - LHE and HepMC3 text --------------===//
//
// LHE (Alwall et al., hep-ph/0609017): one <init> block (the beams from
// the first event's incoming particles, IDWTUP 3 for unweighted events or
// 4 for weighted ones, negative when some weight is, XSECUP/XERRUP the
// cross section and its error, XMAXUP the largest weight) and one <event>
// per event (XWGTUP its weight). HepMC3 ASCII: a run info with one weight
// named "Default", and per event one vertex from the incoming particles
// (status 4, beams) to the outgoing ones (status 1), its weight, and the
// cross section and its error (GenCrossSection).
//
//===----------------------------------------------------------------------===//

#include "output/EventWriters.h"

#include "HepMC3/GenCrossSection.h"
#include "HepMC3/GenEvent.h"
#include "HepMC3/GenParticle.h"
#include "HepMC3/GenRunInfo.h"
#include "HepMC3/GenVertex.h"
#include "HepMC3/LHEF.h"
#include "HepMC3/WriterAscii.h"

#include <cmath>
#include <exception>
#include <sstream>

namespace vf {

double Particle::mass() const {
  // A massless particle's E^2 - p^2 is rounding, a few ulp of E^2: 0.
  const double M2 = E * E - (Px * Px + Py * Py + Pz * Pz);
  return M2 > 64 * 0x1p-52 * E * E ? std::sqrt(M2) : 0;
}

namespace {

/// The file through \p OS; the writer's destructor closes the document.
void writeLhe(std::ostream &OS, const EventHeader &H,
              const std::vector<StoredEvent> &Events) {
  LHEF::Writer W(OS);
  LHEF::HEPRUP &R = W.heprup;
  std::pair<long, long> Beams{0, 0};
  std::pair<double, double> Energies{0, 0};
  int Incoming = 0;
  if (!Events.empty())
    for (const Particle &P : Events.front().Particles)
      if (P.Status < 0 && Incoming < 2) {
        (Incoming ? Beams.second : Beams.first) = P.Pdg;
        (Incoming ? Energies.second : Energies.first) = P.E;
        ++Incoming;
      }
  R.IDBMUP = Beams;
  R.EBMUP = Energies;
  R.PDFGUP = {0, 0};
  R.PDFSUP = {0, 0};
  R.IDWTUP = (H.Weighted ? 4 : 3) * (H.NegativeWeights ? -1 : 1);
  R.resize(1);
  R.XSECUP[0] = H.CrossSection;
  R.XERRUP[0] = H.CrossSectionError;
  R.XMAXUP[0] = H.MaxWeight;
  R.LPRUP[0] = 1;
  W.headerBlock() << "<!-- written by vegasflow: " << Events.size()
                  << (H.Weighted ? " weighted" : " unweighted")
                  << " events; cross section in the integrand's unit -->\n";
  W.init();
  LHEF::HEPEUP &E = W.hepeup;
  E.heprup = &R;
  for (const StoredEvent &Ev : Events) {
    E.resize(int(Ev.Particles.size()));
    E.IDPRUP = 1;
    E.XWGTUP = Ev.Weight;
    E.SCALUP = -1;
    E.AQEDUP = -1;
    E.AQCDUP = -1;
    // One process: outgoing particles come from the two incoming ones.
    int Nin = 0;
    for (std::size_t K = 0; K < Ev.Particles.size(); ++K) {
      const Particle &P = Ev.Particles[K];
      E.IDUP[K] = P.Pdg;
      E.ISTUP[K] = P.Status < 0 ? -1 : 1;
      Nin += P.Status < 0;
      E.MOTHUP[K] = P.Status < 0 ? std::pair{0, 0}
                                 : std::pair{Nin > 0 ? 1 : 0, Nin > 1 ? 2 : 0};
      E.ICOLUP[K] = {0, 0};
      E.PUP[K] = {P.Px, P.Py, P.Pz, P.E, P.mass()};
      E.VTIMUP[K] = 0;
      E.SPINUP[K] = 9; // unknown helicity
    }
    W.writeEvent();
  }
}

std::string renderLhe(const EventHeader &H,
                      const std::vector<StoredEvent> &Events) {
  std::ostringstream OS;
  writeLhe(OS, H, Events);
  return OS.str();
}

std::string renderHepMC3(const EventHeader &H,
                         const std::vector<StoredEvent> &Events) {
  std::ostringstream OS;
  auto Run = std::make_shared<HepMC3::GenRunInfo>();
  Run->set_weight_names({"Default"});
  Run->tools().push_back({"vegasflow", "", H.Weighted ? "weighted events"
                                                      : "unweighted events"});
  {
    HepMC3::WriterAscii W(OS, Run);
    std::uint64_t Number = 0;
    for (const StoredEvent &Ev : Events) {
      HepMC3::GenEvent G(Run, HepMC3::Units::GEV, HepMC3::Units::MM);
      G.set_event_number(int(++Number));
      G.weights() = {Ev.Weight};
      auto Xs = std::make_shared<HepMC3::GenCrossSection>();
      Xs->set_cross_section(H.CrossSection, H.CrossSectionError);
      G.set_cross_section(Xs);
      auto V = std::make_shared<HepMC3::GenVertex>();
      for (const Particle &P : Ev.Particles) {
        auto Gp = std::make_shared<HepMC3::GenParticle>(
            HepMC3::FourVector(P.Px, P.Py, P.Pz, P.E), P.Pdg,
            P.Status < 0 ? 4 : 1);
        Gp->set_generated_mass(P.mass());
        if (P.Status < 0)
          V->add_particle_in(Gp);
        else
          V->add_particle_out(Gp);
      }
      G.add_vertex(V);
      W.write_event(G);
    }
    W.close();
  }
  return OS.str();
}

} // namespace

Expected<std::string> renderEvents(EventFormat F, const EventHeader &H,
                                   const std::vector<StoredEvent> &Events) {
  // HepMC3 reports trouble by exceptions (std::bad_alloc at least): they
  // end here, as an error.
  try {
    return F == EventFormat::Lhe ? renderLhe(H, Events)
                                 : renderHepMC3(H, Events);
  } catch (const std::exception &E) {
    return Error{std::string("the event writer failed: ") + E.what()};
  }
}

} // namespace vf
