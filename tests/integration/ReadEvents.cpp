//===- tests/integration/ReadEvents.cpp - Event files read by HepMC3 ------===//
//
// vf_read_events FILE: reads an LHE file with HepMC3's LHEF::Reader or a
// HepMC3 ASCII file with HepMC3::ReaderAscii (by the name's ending) and
// prints what events.py checks, as one JSON object: the event count, the
// sum and maximum of the weights, the header's cross section and error
// (and IDWTUP, XMAXUP for LHE), the particles per event, and the outgoing
// PDG 13's cos(theta) per event, for the distribution test, and each
// event's "channel" attribute (a multi-channel integrand's; "" if none).
// For LHE also what a shower reads (events_shower.py): <init>'s beams,
// PDF ids and process ids, each event's IDPRUP, SCALUP, AQEDUP and
// AQCDUP, and the first event's mothers and colours. The weights beyond the
// central one (events_weights.py): their names (LHE: <init>'s weight infos
// and groups, as HepMC3 reads them; HepMC3: the run info's weight names,
// and the beams and weight names of its HEPRUP attribute, if any), and per
// event their values (LHE: HEPEUP::weights after XWGTUP, and the <rwgt>
// tags' ids and values; HepMC3: the weights after the first).
//
//===----------------------------------------------------------------------===//

#include "HepMC3/GenCrossSection.h"
#include "HepMC3/GenEvent.h"
#include "HepMC3/GenParticle.h"
#include "HepMC3/LHEF.h"
#include "HepMC3/LHEFAttributes.h"
#include "HepMC3/ReaderAscii.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

struct Summary {
  long Events = 0;
  double SumWeights = 0, MaxWeight = 0, Xsec = 0, XsecError = 0;
  double Xmax = 0;
  int Idwtup = 0;
  long Particles = -1; // per event; -2 if they differ
  std::vector<double> Cos, Weights;
  /// Each event's "channel" attribute (empty where it has none).
  std::vector<std::string> Channels;
  /// LHE: IDBMUP, EBMUP, PDFGUP, PDFSUP (two each) and LPRUP.
  std::vector<double> Beams, Energies, PdfGroups, PdfSets, Processes;
  /// LHE: each event's IDPRUP, SCALUP, AQEDUP, AQCDUP.
  std::vector<double> Idprup, Scales, Aqed, Aqcd;
  /// LHE: the first event's MOTHUP and ICOLUP, two per particle.
  std::vector<double> Mothers, Colours;
  /// The weights' names after the central one's (HepMC3: all of them) and
  /// LHE's weight groups; per event the values after the central one's
  /// and LHE's <rwgt> ids and values.
  std::vector<std::string> WeightNames, Groups, RwgtIds;
  std::vector<std::vector<double>> Entries, Rwgt;
  /// HepMC3: the run info's HEPRUP attribute's beams, energies and weight
  /// names (empty without it).
  std::vector<double> RunBeams, RunEnergies;
  std::vector<std::string> RunWeightNames;
};

double cosTheta(double Px, double Py, double Pz) {
  return Pz / std::sqrt(Px * Px + Py * Py + Pz * Pz);
}

void addEvent(Summary &S, double W, long Particles) {
  ++S.Events;
  S.SumWeights += W;
  S.MaxWeight = std::max(S.MaxWeight, std::fabs(W));
  S.Weights.push_back(W);
  S.Particles = S.Particles == -1 || S.Particles == Particles ? Particles : -2;
}

bool readLhe(const std::string &Path, Summary &S) {
  LHEF::Reader R(Path);
  S.Xsec = R.heprup.XSECUP.empty() ? 0 : R.heprup.XSECUP[0];
  S.XsecError = R.heprup.XERRUP.empty() ? 0 : R.heprup.XERRUP[0];
  S.Xmax = R.heprup.XMAXUP.empty() ? 0 : R.heprup.XMAXUP[0];
  S.Idwtup = R.heprup.IDWTUP;
  const LHEF::HEPRUP &H = R.heprup;
  S.Beams = {double(H.IDBMUP.first), double(H.IDBMUP.second)};
  S.Energies = {H.EBMUP.first, H.EBMUP.second};
  S.PdfGroups = {double(H.PDFGUP.first), double(H.PDFGUP.second)};
  S.PdfSets = {double(H.PDFSUP.first), double(H.PDFSUP.second)};
  S.Processes.assign(H.LPRUP.begin(), H.LPRUP.end());
  for (const LHEF::WeightInfo &W : H.weightinfo)
    S.WeightNames.push_back(W.name);
  for (const LHEF::WeightGroup &G : H.weightgroup)
    S.Groups.push_back(G.type);
  while (R.readEvent()) {
    const LHEF::HEPEUP &E = R.hepeup;
    addEvent(S, E.XWGTUP, E.NUP);
    S.Entries.emplace_back();
    for (std::size_t K = 1; K < E.weights.size(); ++K)
      S.Entries.back().push_back(E.weights[K].first);
    S.Rwgt.emplace_back();
    for (const LHEF::Weight &W : E.namedweights) {
      if (S.Events == 1)
        S.RwgtIds.push_back(W.name);
      S.Rwgt.back().push_back(W.weights.empty() ? 0 : W.weights[0]);
    }
    S.Idprup.push_back(E.IDPRUP);
    S.Scales.push_back(E.SCALUP);
    S.Aqed.push_back(E.AQEDUP);
    S.Aqcd.push_back(E.AQCDUP);
    for (int K = 0; S.Events == 1 && K < E.NUP; ++K) {
      S.Mothers.insert(S.Mothers.end(),
                       {double(E.MOTHUP[K].first), double(E.MOTHUP[K].second)});
      S.Colours.insert(S.Colours.end(),
                       {double(E.ICOLUP[K].first), double(E.ICOLUP[K].second)});
    }
    // LHEF::Reader drops <event>'s attributes; the comment line stays.
    const std::string Tag = "# channel ";
    const std::size_t At = E.junk.find(Tag);
    S.Channels.push_back(
        At == std::string::npos
            ? ""
            : E.junk.substr(At + Tag.size(),
                            E.junk.find('\n', At) - At - Tag.size()));
    for (int K = 0; K < E.NUP; ++K)
      if (E.IDUP[K] == 13 && E.ISTUP[K] == 1)
        S.Cos.push_back(cosTheta(E.PUP[K][0], E.PUP[K][1], E.PUP[K][2]));
  }
  return true;
}

bool readHepMC3(const std::string &Path, Summary &S) {
  HepMC3::ReaderAscii R(Path);
  if (R.failed())
    return false;
  while (true) {
    HepMC3::GenEvent E;
    if (!R.read_event(E) || R.failed())
      break;
    addEvent(S, E.weights().empty() ? 0 : E.weights()[0],
             long(E.particles().size()));
    S.Entries.emplace_back();
    for (std::size_t K = 1; K < E.weights().size(); ++K)
      S.Entries.back().push_back(E.weights()[K]);
    S.Channels.push_back(E.attribute_as_string("channel"));
    if (auto X = E.cross_section()) {
      S.Xsec = X->xsec();
      S.XsecError = X->xsec_err();
    }
    for (const auto &P : E.particles())
      if (P->pid() == 13 && P->status() == 1)
        S.Cos.push_back(cosTheta(P->momentum().px(), P->momentum().py(),
                                 P->momentum().pz()));
  }
  if (auto Run = R.run_info()) {
    S.WeightNames = Run->weight_names();
    if (auto Init = Run->attribute<HepMC3::HEPRUPAttribute>("HEPRUP")) {
      const LHEF::HEPRUP &H = Init->heprup;
      S.RunBeams = {double(H.IDBMUP.first), double(H.IDBMUP.second)};
      S.RunEnergies = {H.EBMUP.first, H.EBMUP.second};
      for (const LHEF::WeightInfo &W : H.weightinfo)
        S.RunWeightNames.push_back(W.name);
    }
  }
  R.close();
  return true;
}

void printList(const char *Name, const std::vector<double> &V) {
  std::printf(", \"%s\": [", Name);
  for (std::size_t K = 0; K < V.size(); ++K)
    std::printf("%s%.17g", K ? ", " : "", V[K]);
  std::printf("]");
}

void printStrings(const char *Name, const std::vector<std::string> &V) {
  std::printf(", \"%s\": [", Name);
  for (std::size_t K = 0; K < V.size(); ++K)
    std::printf("%s\"%s\"", K ? ", " : "", V[K].c_str());
  std::printf("]");
}

void printRows(const char *Name, const std::vector<std::vector<double>> &V) {
  std::printf(", \"%s\": [", Name);
  for (std::size_t K = 0; K < V.size(); ++K) {
    std::printf("%s[", K ? ", " : "");
    for (std::size_t J = 0; J < V[K].size(); ++J)
      std::printf("%s%.17g", J ? ", " : "", V[K][J]);
    std::printf("]");
  }
  std::printf("]");
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: vf_read_events FILE.lhe|FILE.hepmc3\n");
    return 2;
  }
  const std::string Path = argv[1];
  Summary S;
  const bool Lhe = Path.size() > 4 && Path.substr(Path.size() - 4) == ".lhe";
  if (!(Lhe ? readLhe(Path, S) : readHepMC3(Path, S))) {
    std::fprintf(stderr, "vf_read_events: cannot read '%s'\n", Path.c_str());
    return 1;
  }
  std::printf("{\"events\": %ld, \"sum_weights\": %.17g, \"max_weight\": "
              "%.17g, \"xsec\": %.17g, \"xsec_error\": %.17g, \"xmax\": "
              "%.17g, \"idwtup\": %d, \"particles\": %ld",
              S.Events, S.SumWeights, S.MaxWeight, S.Xsec, S.XsecError,
              S.Xmax, S.Idwtup, S.Particles);
  printList("cos_mu", S.Cos);
  printList("weights", S.Weights);
  printList("beams", S.Beams);
  printList("energies", S.Energies);
  printList("pdf_groups", S.PdfGroups);
  printList("pdf_sets", S.PdfSets);
  printList("processes", S.Processes);
  printList("idprup", S.Idprup);
  printList("scales", S.Scales);
  printList("aqed", S.Aqed);
  printList("aqcd", S.Aqcd);
  printList("mothers", S.Mothers);
  printList("colours", S.Colours);
  printStrings("weight_names", S.WeightNames);
  printStrings("weight_groups", S.Groups);
  printStrings("rwgt_ids", S.RwgtIds);
  printRows("entries", S.Entries);
  printRows("rwgt", S.Rwgt);
  printList("run_beams", S.RunBeams);
  printList("run_energies", S.RunEnergies);
  printStrings("run_weight_names", S.RunWeightNames);
  std::printf(", \"channels\": [");
  for (std::size_t K = 0; K < S.Channels.size(); ++K)
    std::printf("%s\"%s\"", K ? ", " : "", S.Channels[K].c_str());
  std::printf("]}\n");
  return 0;
}
