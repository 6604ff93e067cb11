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
#include <limits>
#include <streambuf>
#include <tuple>

namespace vf {

double Particle::mass() const {
  // A massless particle's E^2 - p^2 is rounding, a few ulp of E^2: 0.
  const double M2 = E * E - (Px * Px + Py * Py + Pz * Pz);
  return M2 > 64 * 0x1p-52 * E * E ? std::sqrt(M2) : 0;
}

namespace {

/// An ostream's buffer over an AtomicFile: HepMC3's writers stream into
/// it, 64 KiB at a time; the first failed write sticks (the stream turns
/// bad) and is what the caller reports.
class AtomicFileBuf : public std::streambuf {
public:
  explicit AtomicFileBuf(AtomicFile &F) : File(F), Buffer(1 << 16) {
    setp(Buffer.data(), Buffer.data() + Buffer.size());
  }
  Status status() const { return Failure; }

protected:
  int_type overflow(int_type C) override {
    if (!drain())
      return traits_type::eof();
    if (!traits_type::eq_int_type(C, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(C);
      pbump(1);
    }
    return traits_type::not_eof(C);
  }
  int sync() override { return drain() ? 0 : -1; }

private:
  bool drain() {
    if (!Failure)
      return false;
    Failure = File.write({pbase(), std::size_t(pptr() - pbase())});
    setp(Buffer.data(), Buffer.data() + Buffer.size());
    return bool(Failure);
  }

  AtomicFile &File;
  std::vector<char> Buffer;
  Status Failure;
};

std::pair<std::pair<long, long>, std::pair<double, double>>
beamsOf(const EventList &Events) {
  std::pair<long, long> Beams{0, 0};
  std::pair<double, double> Energies{0, 0};
  int Incoming = 0;
  for (std::size_t K = 0; Events.size() && K < Events.ParticlesPerEvent; ++K)
    if (const Particle &P = Events.particles(0)[K];
        P.Status < 0 && Incoming < 2) {
      (Incoming ? Beams.second : Beams.first) = P.Pdg;
      (Incoming ? Energies.second : Energies.first) = P.E;
      ++Incoming;
    }
  return {Beams, Energies};
}

void fillEvent(LHEF::HEPEUP &E, double Weight, const Particle *Ps, unsigned N) {
  E.resize(int(N));
  E.IDPRUP = 1;
  E.XWGTUP = Weight;
  E.SCALUP = -1;
  E.AQEDUP = -1;
  E.AQCDUP = -1;
  // One process: outgoing particles come from the two incoming ones.
  int Nin = 0;
  for (unsigned K = 0; K < N; ++K) {
    const Particle &P = Ps[K];
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
}

/// The file through \p OS, checked after every event; the writer's
/// destructor closes the document.
bool writeLhe(std::ostream &OS, const EventHeader &H, const EventList &Events) {
  LHEF::Writer W(OS);
  LHEF::HEPRUP &R = W.heprup;
  std::tie(R.IDBMUP, R.EBMUP) = beamsOf(Events);
  R.PDFGUP = {0, 0};
  R.PDFSUP = {0, 0};
  R.IDWTUP = (H.Weighted ? 4 : 3) * (H.NegativeWeights ? -1 : 1);
  R.resize(1);
  R.XSECUP[0] = H.CrossSection;
  R.XERRUP[0] = H.CrossSectionError;
  R.XMAXUP[0] = H.MaxWeight;
  R.LPRUP[0] = 1;
  // LHEF writes dprec significant digits (15 by default, which does not
  // read back as the same double); 17 does, in <init> and every event.
  R.dprec = std::numeric_limits<double>::max_digits10;
  W.headerBlock() << "<!-- written by vegasflow: " << Events.size()
                  << (H.Weighted ? " weighted" : " unweighted")
                  << " events; cross section in the integrand's unit -->\n";
  W.init();
  LHEF::HEPEUP &E = W.hepeup;
  E.heprup = &R;
  for (std::size_t K = 0; K < Events.size() && OS; ++K) {
    fillEvent(E, Events.Weights[K], Events.particles(K),
              Events.ParticlesPerEvent);
    // The channel as an attribute of <event> and as a comment line after
    // the particles, which readers that drop attributes keep (HepMC3's
    // LHEF::Reader keeps it as HEPEUP::junk, Pythia's as a comment).
    if (!Events.Channels.empty()) {
      const std::string &Name = Events.ChannelNames[Events.Channels[K]];
      E.attributes["channel"] = Name;
      E.junk = "# channel " + Name + "\n";
    }
    W.writeEvent();
  }
  return bool(OS);
}

bool writeHepMC3(std::ostream &OS, const EventHeader &H,
                 const EventList &Events) {
  auto Run = std::make_shared<HepMC3::GenRunInfo>();
  Run->set_weight_names({"Default"});
  Run->tools().push_back({"vegasflow", "", H.Weighted ? "weighted events"
                                                      : "unweighted events"});
  HepMC3::WriterAscii W(OS, Run);
  for (std::size_t K = 0; K < Events.size() && OS; ++K) {
    HepMC3::GenEvent G(Run, HepMC3::Units::GEV, HepMC3::Units::MM);
    G.set_event_number(int(K + 1));
    G.weights() = {Events.Weights[K]};
    auto Xs = std::make_shared<HepMC3::GenCrossSection>();
    Xs->set_cross_section(H.CrossSection, H.CrossSectionError);
    G.set_cross_section(Xs);
    auto V = std::make_shared<HepMC3::GenVertex>();
    const Particle *Ps = Events.particles(K);
    for (unsigned J = 0; J < Events.ParticlesPerEvent; ++J) {
      const Particle &P = Ps[J];
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
    if (!Events.Channels.empty())
      G.add_attribute("channel", std::make_shared<HepMC3::StringAttribute>(
                                     Events.ChannelNames[Events.Channels[K]]));
    W.write_event(G);
  }
  W.close();
  return bool(OS) && !W.failed();
}

} // namespace

Status writeEvents(EventFormat F, const EventHeader &H, const EventList &Events,
                   AtomicFile &File) {
  AtomicFileBuf Buf(File);
  // HepMC3 reports trouble by exceptions (std::bad_alloc at least): they
  // end here, as an error.
  try {
    std::ostream OS(&Buf);
    bool Ok = F == EventFormat::Lhe ? writeLhe(OS, H, Events)
                                    : writeHepMC3(OS, H, Events);
    Ok = Ok && OS.flush();
    if (!Buf.status())
      return Buf.status();
    if (!Ok)
      return Error{"cannot write the events file: HepMC3's writer failed "
                   "(its stream went bad)"};
  } catch (const std::exception &E) {
    return Error{std::string("cannot write the events file: HepMC3's "
                             "writer failed: ") +
                 E.what()};
  }
  return Status::ok();
}

} // namespace vf
