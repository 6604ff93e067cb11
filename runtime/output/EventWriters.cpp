//===- runtime/output/EventWriters.cpp - LHE and HepMC3 text --------------===//
//
// LHE (Alwall et al., hep-ph/0609017): one <init> block (the beams from
// the run's settings, else from the first event's incoming particles;
// PDFSUP the LHAPDF id of the set, if given; IDWTUP 3 for unweighted
// events or 4 for weighted ones, negative when some weight is; one
// process line per process id the events carry, each with its share of
// the cross section and its error, XMAXUP the largest weight) and one
// <event> per event (XWGTUP its weight, the record's particles). An
// integrand's weight lists (docs/user-guide.md, "Weight lists in event
// files") add LHEF 3.0's <initrwgt>, one <weightgroup> per list and one
// <weight id="LIST_k"> per entry, twice: in <header>, where MadGraph
// writes it and Pythia 8 reads it (name="LIST"), and in <init>, where
// HepMC3's LHEF::Reader reads it (HepMC3's writer spells it type="LIST");
// each event then carries its entries' weights as <rwgt>'s <wgt
// id="LIST_k"> and, as HepMC3's writer adds, in <weights> in that order.
// HepMC3 ASCII: a run info with the weight "Default" (then LIST_k, each
// event's weights in that order) and, given the beams, the LHE <init>
// as HepMC3 keeps it (the HEPRUP attribute), and per event one
// vertex per set of mothers (the incoming particles, status 4 as beams;
// those of no vertex in one of their own), colour lines as the particles'
// "flow1" and "flow2" attributes, as HepMC3's readers of HepMC2 and
// Pythia 8's interface write them, its weight, and the cross section and
// its error (GenCrossSection, the same for every weight: HepMC3 3.1's
// writes the first weight's for all).
//
//===----------------------------------------------------------------------===//

#include "output/EventWriters.h"

#include "HepMC3/GenCrossSection.h"
#include "HepMC3/GenEvent.h"
#include "HepMC3/GenParticle.h"
#include "HepMC3/GenRunInfo.h"
#include "HepMC3/GenVertex.h"
#include "HepMC3/LHEF.h"
#include "HepMC3/LHEFAttributes.h"
#include "HepMC3/WriterAscii.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <streambuf>

namespace vf {

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

/// IDBMUP and EBMUP: the run's beams, else the first event's incoming
/// particles (what vegasflow wrote before the beams were options).
EventBeams beamsOf(const EventHeader &H, const EventList &Events) {
  if (H.Beams)
    return *H.Beams;
  EventBeams B;
  unsigned Incoming = 0;
  for (std::size_t K = 0; Events.size() && K < Events.ParticlesPerEvent; ++K)
    if (const Particle &P = Events.particles(0)[K];
        P.Status < 0 && Incoming < 2) {
      B.Pdg[Incoming] = P.Pdg;
      B.Energy[Incoming++] = P.E;
    }
  return B;
}

/// One <init> process line: its id, its share of the weights and its
/// largest |weight|.
struct ProcessLine {
  int Id = 1;
  double SumWeights = 0, MaxWeight = 0;
};

/// The process lines of the events' ids, in increasing order (one, id 1,
/// when the record gives none).
std::vector<ProcessLine> processLines(const EventList &Events) {
  std::map<int, ProcessLine> Lines;
  for (std::size_t K = 0; K < Events.size(); ++K) {
    ProcessLine &L = Lines[Events.info(K).Process];
    L.Id = Events.info(K).Process;
    L.SumWeights += Events.Weights[K];
    L.MaxWeight = std::max(L.MaxWeight, std::fabs(Events.Weights[K]));
  }
  std::vector<ProcessLine> V;
  for (const auto &[Id, L] : Lines)
    V.push_back(L);
  return V.empty() ? std::vector<ProcessLine>(1) : V;
}

void fillInit(LHEF::HEPRUP &R, const EventHeader &H, const EventList &Events) {
  const EventBeams B = beamsOf(H, Events);
  R.IDBMUP = {B.Pdg[0], B.Pdg[1]};
  R.EBMUP = {B.Energy[0], B.Energy[1]};
  R.PDFGUP = {0, 0};
  R.PDFSUP = {std::max(H.PdfSetId, 0), std::max(H.PdfSetId, 0)};
  R.IDWTUP = (H.Weighted ? 4 : 3) * (H.NegativeWeights ? -1 : 1);
  const std::vector<ProcessLine> Lines = processLines(Events);
  double Sum = 0;
  for (const ProcessLine &L : Lines)
    Sum += L.SumWeights;
  R.resize(int(Lines.size()));
  for (std::size_t K = 0; K < Lines.size(); ++K) {
    // One process has the whole cross section; several, shares of it by
    // their events' weights (their own errors were never measured), or
    // equal shares where the weights cancel.
    const double Share = Lines.size() == 1 ? 1
                         : Sum != 0        ? Lines[K].SumWeights / Sum
                                           : 1.0 / double(Lines.size());
    R.XSECUP[K] = H.CrossSection * Share;
    R.XERRUP[K] = H.CrossSectionError * Share;
    R.XMAXUP[K] =
        H.Weighted && Lines.size() > 1 ? Lines[K].MaxWeight : H.MaxWeight;
    R.LPRUP[K] = Lines[K].Id;
  }
}

/// The names of \p Lists' entries, list after list: LIST_k, k the list's
/// index, one name per (list, k) since k's text has no '_'.
std::vector<std::string> entryNames(const std::vector<WeightListSpec> &Lists) {
  std::vector<std::string> Names;
  for (const WeightListSpec &L : Lists)
    for (unsigned K = 0; K < L.Entries; ++K)
      Names.push_back(L.Name + "_" + std::to_string(L.First + K));
  return Names;
}

/// What a <weight> tag says of its entry: "LIST k=K".
std::string entryText(const WeightListSpec &L, unsigned K) {
  return L.Name + " k=" + std::to_string(L.First + K);
}

/// The lists as <initrwgt> in <header>, MadGraph's spelling.
void headerWeights(std::ostream &OS, const EventList &Events) {
  if (Events.WeightLists.empty())
    return;
  const std::vector<std::string> Names = entryNames(Events.WeightLists);
  std::size_t Next = 0;
  OS << "<initrwgt>\n";
  for (const WeightListSpec &L : Events.WeightLists) {
    OS << "<weightgroup name=\"" << L.Name << "\" combine=\""
       << weightBandName(L.Band) << "\">\n";
    for (unsigned K = 0; K < L.Entries; ++K)
      OS << "<weight id=\"" << Names[Next++] << "\">" << entryText(L, K)
         << "</weight>\n";
    OS << "</weightgroup>\n";
  }
  OS << "</initrwgt>\n";
}

/// The lists as HEPRUP's weight groups and infos (<init>'s <initrwgt>).
void initWeights(LHEF::HEPRUP &R, const EventList &Events) {
  const std::vector<std::string> Names = entryNames(Events.WeightLists);
  std::size_t Next = 0;
  for (const WeightListSpec &L : Events.WeightLists) {
    R.weightgroup.emplace_back();
    R.weightgroup.back().type = L.Name;
    R.weightgroup.back().combine = weightBandName(L.Band);
    for (unsigned K = 0; K < L.Entries; ++K) {
      LHEF::WeightInfo I;
      I.isrwgt = true;
      I.name = Names[Next++];
      I.inGroup = int(R.weightgroup.size()) - 1;
      I.contents = entryText(L, K);
      R.weightinfo.push_back(I);
    }
  }
}

/// \p E's weights and named weights (<rwgt>) for \p R's weight infos;
/// each event then sets the values (HEPEUP::print copies them from
/// weights to the named ones).
void namedWeights(LHEF::HEPEUP &E, LHEF::HEPRUP &R) {
  E.weights.assign(1, {0.0, nullptr});
  E.namedweights.clear();
  for (std::size_t K = 0; K < R.weightinfo.size(); ++K) {
    E.weights.push_back({0.0, &R.weightinfo[K]});
    LHEF::Weight W;
    W.iswgt = true;
    W.name = R.weightinfo[K].name;
    W.weights = {0.0};
    W.indices = {int(K) + 1};
    E.namedweights.push_back(W);
  }
}

void fillEvent(LHEF::HEPEUP &E, double Weight, const EventInfo &Info,
               const Particle *Ps, unsigned N) {
  E.resize(int(N));
  E.IDPRUP = Info.Process;
  E.XWGTUP = Weight;
  E.SCALUP = Info.Scale;
  E.AQEDUP = Info.AlphaQed;
  E.AQCDUP = Info.AlphaQcd;
  for (unsigned K = 0; K < N; ++K) {
    const Particle &P = Ps[K];
    E.IDUP[K] = P.Pdg;
    E.ISTUP[K] = P.Status;
    E.MOTHUP[K] = {P.Mother1, P.Mother2};
    E.ICOLUP[K] = {P.Colour, P.Anticolour};
    E.PUP[K] = {P.Px, P.Py, P.Pz, P.E, P.Mass};
    E.VTIMUP[K] = P.Lifetime;
    E.SPINUP[K] = P.Spin;
  }
}

/// The file through \p OS, checked after every event; the writer's
/// destructor closes the document.
bool writeLhe(std::ostream &OS, const EventHeader &H, const EventList &Events) {
  LHEF::Writer W(OS);
  LHEF::HEPRUP &R = W.heprup;
  fillInit(R, H, Events);
  // LHEF writes dprec significant digits (15 by default, which does not
  // read back as the same double); 17 does, in <init> and every event.
  R.dprec = std::numeric_limits<double>::max_digits10;
  W.headerBlock() << "<!-- written by vegasflow: " << Events.size()
                  << (H.Weighted ? " weighted" : " unweighted")
                  << " events; cross section in the integrand's unit -->\n";
  headerWeights(W.headerBlock(), Events);
  initWeights(R, Events);
  W.init();
  LHEF::HEPEUP &E = W.hepeup;
  E.heprup = &R;
  if (Events.Entries)
    namedWeights(E, R);
  for (std::size_t K = 0; K < Events.size() && OS; ++K) {
    fillEvent(E, Events.Weights[K], Events.info(K), Events.particles(K),
              Events.ParticlesPerEvent);
    for (unsigned J = 0; J < Events.Entries; ++J)
      E.weights[J + 1].first = Events.entryWeights(K)[J];
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

/// The HepMC3 particle of \p P: incoming ones as beams (status 4), the
/// others with their LHE status.
HepMC3::GenParticlePtr genParticle(const Particle &P) {
  auto Gp = std::make_shared<HepMC3::GenParticle>(
      HepMC3::FourVector(P.Px, P.Py, P.Pz, P.E), P.Pdg,
      P.Status == -1 || P.Status == -9 ? 4 : P.Status);
  Gp->set_generated_mass(P.Mass);
  return Gp;
}

/// \p P's colour lines as "flow1" and "flow2" on \p Gp, which must be in
/// its event already (HepMC3 drops the attributes of a particle that is
/// not).
void addColourFlow(HepMC3::GenParticle &Gp, const Particle &P) {
  if (P.Colour)
    Gp.add_attribute("flow1", std::make_shared<HepMC3::IntAttribute>(P.Colour));
  if (P.Anticolour)
    Gp.add_attribute("flow2",
                     std::make_shared<HepMC3::IntAttribute>(P.Anticolour));
}

/// The particles of one event and their vertices: one per range of
/// mothers (first, last; EventRecord.cpp has checked that no particle is
/// in two), in the order of their first daughter; the particles no range
/// names, to one vertex of their own, incoming ones in, the others out
/// (as the basic layout's files without incoming particles always had).
void addParticles(HepMC3::GenEvent &G, const Particle *Ps, unsigned N) {
  std::vector<HepMC3::GenParticlePtr> Gps;
  for (unsigned J = 0; J < N; ++J)
    Gps.push_back(genParticle(Ps[J]));
  std::map<std::pair<int, int>, HepMC3::GenVertexPtr> ByMothers;
  std::vector<HepMC3::GenVertexPtr> Order;
  std::vector<bool> IsMother(N + 1, false);
  for (unsigned J = 0; J < N; ++J) {
    const Particle &P = Ps[J];
    if (!P.Mother1)
      continue;
    const std::pair Range{P.Mother1, P.Mother2 ? P.Mother2 : P.Mother1};
    HepMC3::GenVertexPtr &V = ByMothers[Range];
    if (!V) {
      V = std::make_shared<HepMC3::GenVertex>();
      for (int M = Range.first; M <= Range.second; ++M) {
        V->add_particle_in(Gps[M - 1]);
        IsMother[M] = true;
      }
      Order.push_back(V);
    }
    V->add_particle_out(Gps[J]);
  }
  auto Root = std::make_shared<HepMC3::GenVertex>();
  for (unsigned J = 0; J < N; ++J)
    if (!Ps[J].Mother1 && !IsMother[J + 1])
      Ps[J].Status < 0 ? Root->add_particle_in(Gps[J])
                       : Root->add_particle_out(Gps[J]);
  if (!Root->particles_in().empty() || !Root->particles_out().empty())
    G.add_vertex(Root);
  for (const HepMC3::GenVertexPtr &V : Order)
    G.add_vertex(V);
  for (unsigned J = 0; J < N; ++J)
    addColourFlow(*Gps[J], Ps[J]);
}

/// The lhe layout's event header, named as Pythia 8's HepMC3 interface
/// names it.
void addEventInfo(HepMC3::GenEvent &G, const EventInfo &Info) {
  G.add_attribute("signal_process_id",
                  std::make_shared<HepMC3::IntAttribute>(Info.Process));
  G.add_attribute("event_scale",
                  std::make_shared<HepMC3::DoubleAttribute>(Info.Scale));
  G.add_attribute("alphaQED",
                  std::make_shared<HepMC3::DoubleAttribute>(Info.AlphaQed));
  G.add_attribute("alphaQCD",
                  std::make_shared<HepMC3::DoubleAttribute>(Info.AlphaQcd));
}

/// Attaches to \p G, whose weights are set, the cross section for each
/// weight: set_cross_section sizes its list by the event's weights, and
/// HepMC3 3.1 cannot read back a list shorter than the weights.
void crossSection(const EventHeader &H, HepMC3::GenEvent &G) {
  auto Xs = std::make_shared<HepMC3::GenCrossSection>();
  G.set_cross_section(Xs);
  Xs->set_cross_section(H.CrossSection, H.CrossSectionError);
}

/// The LHE <init> of these events as HepMC3 keeps it in a run info:
/// the beams, PDF ids, processes and weight lists.
std::shared_ptr<HepMC3::HEPRUPAttribute> runInit(const EventHeader &H,
                                                 const EventList &Events) {
  auto A = std::make_shared<HepMC3::HEPRUPAttribute>();
  fillInit(A->heprup, H, Events);
  A->heprup.dprec = std::numeric_limits<double>::max_digits10;
  initWeights(A->heprup, Events);
  return A;
}

bool writeHepMC3(std::ostream &OS, const EventHeader &H,
                 const EventList &Events) {
  auto Run = std::make_shared<HepMC3::GenRunInfo>();
  std::vector<std::string> Names = entryNames(Events.WeightLists);
  Names.insert(Names.begin(), "Default");
  Run->set_weight_names(Names);
  Run->tools().push_back({"vegasflow", "", H.Weighted ? "weighted events"
                                                      : "unweighted events"});
  if (H.Beams)
    Run->add_attribute("HEPRUP", runInit(H, Events));
  HepMC3::WriterAscii W(OS, Run);
  for (std::size_t K = 0; K < Events.size() && OS; ++K) {
    HepMC3::GenEvent G(Run, HepMC3::Units::GEV, HepMC3::Units::MM);
    G.set_event_number(int(K + 1));
    G.weights() = {Events.Weights[K]};
    G.weights().insert(G.weights().end(), Events.entryWeights(K),
                       Events.entryWeights(K) + Events.Entries);
    crossSection(H, G);
    addParticles(G, Events.particles(K), Events.ParticlesPerEvent);
    if (H.FullRecord)
      addEventInfo(G, Events.info(K));
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
