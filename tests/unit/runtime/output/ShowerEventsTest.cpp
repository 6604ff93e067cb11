//===- tests/unit/runtime/output/ShowerEventsTest.cpp - Showerable events -===//
//
// Events in the lhe layout (vf/EventFiles.h, EventLayout::Lhe) read back by
// HepMC3's own readers, LHEF::Reader and ReaderAscii: <init>'s beams and
// PDF ids from the options, one process line per process id with the
// cross section shared out, each event's IDPRUP, SCALUP, AQEDUP, AQCDUP,
// mothers and colour lines as the record gave them, and in HepMC3 one
// vertex per set of mothers with the colours as "flow1"/"flow2". Then the
// refusals: records of the wrong size or with a value LHE needs whole that
// is not, and the beam options' bad spellings, each with its message.
//
//===----------------------------------------------------------------------===//
#include "vf/EventFiles.h"
#include "vf/Integrator.h"
#include "vf/Native.h"

#include "HepMC3/GenEvent.h"
#include "HepMC3/GenParticle.h"
#include "HepMC3/GenVertex.h"
#include "HepMC3/LHEF.h"
#include "HepMC3/ReaderAscii.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <map>
#include <unistd.h>

namespace {

using namespace vf;

constexpr double Rs = 91.19, AlphaQed = 1.0 / 128, AlphaQcd = 0.118;

/// A record of \p Outputs values per point from \p Fill(x0, values). A
/// native integrand integrates at most 16 values; a record, like a .vf
/// one, returns more and is only evaluated: its Evaluate is set here.
IntegrandInfo record(const std::string &Name, unsigned Outputs,
                     std::function<void(double, double *)> Fill) {
  auto I = nativeIntegrand(Name, 2, 1, {0, 0}, {1, 1},
                           [](std::span<const double>, std::size_t, std::size_t,
                              std::span<double>) {});
  EXPECT_TRUE(bool(I)) << (I ? "" : I.message());
  IntegrandInfo R = *I;
  R.Outputs = Outputs;
  R.Evaluate = [Outputs, Fill](const double *Xs, std::int64_t N, const double *,
                               double *Out) {
    for (std::int64_t K = 0; K < N; ++K)
      Fill(Xs[K * 2], Out + K * Outputs);
  };
  return R;
}

/// u ubar -> Z -> mu- mu+ in the lhe layout: the u's colour 501 is the
/// ubar's anticolour, the Z comes from both (mothers 1 to 2), the muons
/// from the Z (mothers 3 to 3); the process id is 2 above x0 = 0.5, else
/// 1, and the scale Rs + x0, so that each event says which it is.
void uubarZ(double X0, double *V) {
  const double E = Rs / 2, C = 2 * X0 - 1, S = std::sqrt(1 - C * C);
  // The record, one particle a line.
  // clang-format off
  const double Rec[4 + 5 * 13] = {
      X0 > 0.5 ? 2.0 : 1.0, Rs + X0, AlphaQed, AlphaQcd,
      2, -1, 0, 0, 501, 0, E, 0, 0, E, 0, 0, 9,
      -2, -1, 0, 0, 0, 501, E, 0, 0, -E, 0, 0, 9,
      23, 2, 1, 2, 0, 0, Rs, 0, 0, 0, Rs, 0, 9,
      13, 1, 3, 3, 0, 0, E, E * S, 0, E * C, 0, 0, -1,
      -13, 1, 3, 3, 0, 0, E, -E * S, 0, -E * C, 0, 0, 1};
  // clang-format on
  std::copy(std::begin(Rec), std::end(Rec), V);
}

std::string tempPath(const std::string &Tail) {
  return testing::TempDir() + "/vf_shower_" + std::to_string(::getpid()) + Tail;
}

/// A trained, frozen integrator of f = 1 + x0 and its result.
struct Trained {
  std::unique_ptr<Integrator> Int;
  double Xs = 0, Err = 0;
};
Trained trained() {
  auto F = nativeIntegrand("f", 2, 1, {0, 0}, {1, 1},
                           [](std::span<const double> X, std::size_t N,
                              std::size_t Dim, std::span<double> Out) {
                             for (std::size_t K = 0; K < N; ++K)
                               Out[K] = 1 + X[K * Dim];
                           });
  auto Int = Integrator::create(*F);
  EXPECT_TRUE(bool(Int));
  auto R = (*Int)->run(3, 10000, 1);
  EXPECT_TRUE(bool(R));
  (*Int)->freeze();
  return {std::move(*Int), R->Mean[0], R->Error[0]};
}

EventFileOptions showerOptions(const std::string &Path, const Trained &T) {
  EventFileOptions O;
  O.Path = Path;
  O.Events = 200;
  O.CrossSection = T.Xs;
  O.CrossSectionError = T.Err;
  O.Layout = EventLayout::Lhe;
  O.Beams = EventBeams{{2212, 2212}, {6500, 6500}};
  O.PdfSetId = 247000;
  return O;
}

/// The accord's colour flow, checked on the incoming (status -1) and
/// outgoing (status 1) particles: an incoming particle's colour is an
/// anticolour of the crossed, all-outgoing process and its anticolour a
/// colour, so every colour line tag must appear exactly once among the
/// outgoing colours and incoming anticolours, and exactly once among the
/// outgoing anticolours and incoming colours. Returns what is wrong, or "".
std::string colourFlowError(const LHEF::HEPEUP &E) {
  std::map<int, std::pair<int, int>> Ends; // tag: (colour ends, anticolour)
  for (int K = 0; K < E.NUP; ++K) {
    if (E.ISTUP[K] != 1 && E.ISTUP[K] != -1)
      continue;
    const bool In = E.ISTUP[K] == -1;
    const auto [Col, Acol] = E.ICOLUP[K];
    if (Col)
      ++(In ? Ends[Col].second : Ends[Col].first);
    if (Acol)
      ++(In ? Ends[Acol].first : Ends[Acol].second);
  }
  for (const auto &[Tag, N] : Ends)
    if (N.first != 1 || N.second != 1)
      return "colour line " + std::to_string(Tag) + " has " +
             std::to_string(N.first) + " colour and " +
             std::to_string(N.second) + " anticolour ends";
  return "";
}

TEST(ShowerEvents, LheReadsBackWithBeamsScalesMothersAndColours) {
  Trained T = trained();
  const EventFileOptions O = showerOptions(tempPath(".lhe"), T);
  auto Rep = writeEventFile(*T.Int, record("f_event", 69, uubarZ), O);
  ASSERT_TRUE(bool(Rep)) << Rep.message();
  LHEF::Reader R(O.Path);
  const LHEF::HEPRUP &H = R.heprup;
  EXPECT_EQ(H.IDBMUP, std::make_pair(2212L, 2212L));
  EXPECT_EQ(H.EBMUP, std::make_pair(6500.0, 6500.0));
  EXPECT_EQ(H.PDFGUP, std::make_pair(0, 0));
  EXPECT_EQ(H.PDFSUP, std::make_pair(247000, 247000));
  EXPECT_EQ(H.IDWTUP, 3);
  ASSERT_EQ(H.NPRUP, 2);
  EXPECT_EQ(H.LPRUP, (std::vector<int>{1, 2}));
  EXPECT_NEAR(H.XSECUP[0] + H.XSECUP[1], T.Xs, 1e-12 * T.Xs)
      << "the processes share the cross section";
  std::map<int, int> PerProcess;
  while (R.readEvent()) {
    const LHEF::HEPEUP &E = R.hepeup;
    ASSERT_EQ(E.NUP, 5);
    EXPECT_EQ(E.IDPRUP, E.SCALUP - Rs > 0.5 ? 2 : 1);
    ++PerProcess[E.IDPRUP];
    EXPECT_EQ(E.AQEDUP, AlphaQed);
    EXPECT_EQ(E.AQCDUP, AlphaQcd);
    EXPECT_EQ(E.MOTHUP[2], std::make_pair(1, 2));
    EXPECT_EQ(E.MOTHUP[3], std::make_pair(3, 3));
    EXPECT_EQ(E.ISTUP[2], 2);
    EXPECT_EQ(E.PUP[2][4], Rs) << "the mass as the record gave it";
    EXPECT_EQ(E.SPINUP[3], -1);
    EXPECT_EQ(E.ICOLUP[0], std::make_pair(501, 0));
    EXPECT_EQ(colourFlowError(E), "");
  }
  EXPECT_EQ(PerProcess[1] + PerProcess[2], 200);
  EXPECT_GT(PerProcess[1], 0);
  EXPECT_GT(PerProcess[2], 0);
  std::remove(O.Path.c_str());
}

TEST(ShowerEvents, ColourFlowCheckFindsABrokenLine) {
  LHEF::HEPEUP E;
  E.resize(2);
  E.ISTUP = {-1, 1};
  E.ICOLUP = {{501, 0}, {502, 0}};
  EXPECT_NE(colourFlowError(E), "");
  E.ICOLUP = {{501, 0}, {501, 0}};
  EXPECT_EQ(colourFlowError(E), "") << "a quark line through the event";
}

TEST(ShowerEvents, HepMC3HasVerticesFromMothersAndColourFlow) {
  Trained T = trained();
  const EventFileOptions O = showerOptions(tempPath(".hepmc3"), T);
  auto Rep = writeEventFile(*T.Int, record("f_event", 69, uubarZ), O);
  ASSERT_TRUE(bool(Rep)) << Rep.message();
  HepMC3::ReaderAscii R(O.Path);
  HepMC3::GenEvent G;
  ASSERT_TRUE(R.read_event(G) && !R.failed());
  ASSERT_EQ(G.particles().size(), 5u);
  ASSERT_EQ(G.vertices().size(), 2u);
  const auto &Ps = G.particles();
  EXPECT_EQ(Ps[0]->status(), 4);
  EXPECT_EQ(Ps[0]->attribute_as_string("flow1"), "501");
  EXPECT_EQ(Ps[1]->attribute_as_string("flow2"), "501");
  auto Z = Ps[2];
  EXPECT_EQ(Z->pid(), 23);
  ASSERT_TRUE(Z->production_vertex() && Z->end_vertex());
  EXPECT_EQ(Z->production_vertex()->particles_in().size(), 2u);
  EXPECT_EQ(Z->end_vertex()->particles_out().size(), 2u);
  const double Scale = std::stod(G.attribute_as_string("event_scale"));
  EXPECT_EQ(std::stoi(G.attribute_as_string("signal_process_id")),
            Scale - Rs > 0.5 ? 2 : 1);
  EXPECT_EQ(std::stod(G.attribute_as_string("alphaQCD")), AlphaQcd);
  R.close();
  std::remove(O.Path.c_str());
}

TEST(ShowerEvents, BeamsComeFromTheFirstEventWithoutTheOptions) {
  Trained T = trained();
  EventFileOptions O = showerOptions(tempPath(".lhe"), T);
  O.Beams.reset();
  O.PdfSetId = -1;
  ASSERT_TRUE(bool(writeEventFile(*T.Int, record("f_event", 69, uubarZ), O)));
  LHEF::Reader R(O.Path);
  EXPECT_EQ(R.heprup.IDBMUP, std::make_pair(2L, -2L));
  EXPECT_EQ(R.heprup.EBMUP, std::make_pair(Rs / 2, Rs / 2));
  EXPECT_EQ(R.heprup.PDFSUP, std::make_pair(0, 0));
  std::remove(O.Path.c_str());
}

/// The message of writing \p Rec's events in \p Layout ("" if written).
std::string refusal(const IntegrandInfo &Rec, EventLayout Layout) {
  static Trained T = trained();
  EventFileOptions O = showerOptions(tempPath(".lhe"), T);
  O.Layout = Layout;
  O.Events = 5;
  auto Rep = writeEventFile(*T.Int, Rec, O);
  std::remove(O.Path.c_str());
  return Rep ? "" : Rep.message();
}

/// uubarZ with value \p At set to \p V.
IntegrandInfo spoilt(unsigned At, double V) {
  return record("bad", 69, [At, V](double X0, double *Out) {
    uubarZ(X0, Out);
    Out[At] = V;
  });
}

TEST(ShowerEvents, RefusesRecordsOfTheWrongSizeNamingTheSizes) {
  const std::string Lhe = refusal(
      record("six", 24, [](double, double *V) { std::fill_n(V, 24, 1); }),
      EventLayout::Lhe);
  EXPECT_NE(Lhe.find("returns 24 values"), std::string::npos) << Lhe;
  EXPECT_NE(Lhe.find("(17 or 30)"), std::string::npos) << Lhe;
  const std::string Basic =
      refusal(record("full", 69, uubarZ), EventLayout::Basic);
  EXPECT_NE(Basic.find("6 per particle"), std::string::npos) << Basic;
}

TEST(ShowerEvents, RefusesValuesThatLheNeedsWholeNamingEventAndParticle) {
  const std::string Colour = refusal(spoilt(4 + 4, 501.5), EventLayout::Lhe);
  EXPECT_NE(Colour.find("at event 1 of the file, particle 1: the colour"),
            std::string::npos)
      << Colour;
  EXPECT_NE(Colour.find("501.5"), std::string::npos) << Colour;
  const std::string Pdg = refusal(spoilt(4 + 13, -2.5), EventLayout::Lhe);
  EXPECT_NE(Pdg.find("particle 2: the pdg id"), std::string::npos) << Pdg;
  const std::string Status = refusal(spoilt(4 + 1, 5), EventLayout::Lhe);
  EXPECT_NE(Status.find("the status must be -1"), std::string::npos) << Status;
  const std::string Self = refusal(spoilt(4 + 26 + 2, 3), EventLayout::Lhe);
  EXPECT_NE(Self.find("particle 3: a particle cannot be its own mother"),
            std::string::npos)
      << Self;
  // The mu+ from the u alone while the mu- comes from the Z: fine; the
  // Z from (1, 2) and the mu+ from (1, 1) share the u: refused.
  const std::string Shared = refusal(record("shared", 69,
                                            [](double X0, double *V) {
                                              uubarZ(X0, V);
                                              V[4 + 4 * 13 + 2] = 1;
                                              V[4 + 4 * 13 + 3] = 0;
                                            }),
                                     EventLayout::Lhe);
  EXPECT_NE(Shared.find("share particle 1"), std::string::npos) << Shared;
  const std::string Process = refusal(spoilt(0, 1.5), EventLayout::Lhe);
  EXPECT_NE(Process.find("at event 1 of the file: idprup"), std::string::npos)
      << Process;
  const std::string BasicPdg = refusal(
      record("basic", 12,
             [](double, double *V) {
               const double R[12] = {22.5, 1, 1, 1, 0, 0, 22, 1, 1, -1, 0, 0};
               std::copy(R, R + 12, V);
             }),
      EventLayout::Basic);
  EXPECT_NE(BasicPdg.find("particle 1: the pdg id must be a whole number"),
            std::string::npos)
      << BasicPdg;
}

TEST(ShowerEvents, BeamOptionSpellings) {
  EXPECT_EQ(*parseBeamIds("2212, 2212"), (std::array<int, 2>{2212, 2212}));
  EXPECT_EQ(*parseBeamIds("11,-11"), (std::array<int, 2>{11, -11}));
  for (const char *Bad :
       {"p,p", "2212", "2212,2212,1", "0,2212", "2212;2212", "2.5,1", ""}) {
    auto B = parseBeamIds(Bad);
    ASSERT_FALSE(bool(B)) << Bad;
    EXPECT_EQ(B.error().Option, "beams");
    EXPECT_NE(B.message().find("PDG1,PDG2"), std::string::npos);
  }
  EXPECT_EQ(*parseBeamEnergies("6500,6500.5"),
            (std::array<double, 2>{6500, 6500.5}));
  for (const char *Bad : {"-1,6500", "0,1", "inf,1", "nan,1", "6500"}) {
    auto E = parseBeamEnergies(Bad);
    ASSERT_FALSE(bool(E)) << Bad;
    EXPECT_EQ(E.error().Option, "beam_energies");
  }
  auto Alone = parseBeams("2212,2212", "");
  ASSERT_FALSE(bool(Alone));
  EXPECT_NE(Alone.message().find("go together"), std::string::npos);
  EXPECT_FALSE(parseBeams("", "")->has_value());
  EXPECT_EQ(*parseEventLayout("lhe"), EventLayout::Lhe);
  auto Layout = parseEventLayout("full");
  ASSERT_FALSE(bool(Layout));
  EXPECT_EQ(Layout.error().Option, "event_layout");
}

} // namespace
