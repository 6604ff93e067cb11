//===- tests/unit/runtime/output/EventFilesTest.cpp - writeEventFile ------===//
//
// vf::writeEventFile through the C++ API (integration.events reads the
// files back with HepMC3): events need a trained, frozen integrator and an
// event record of the integrand's dimension returning 6 values per
// particle; a file of N events holds N <event> blocks (LHE) or N "E" lines
// (HepMC3); an unknown ending is refused naming the file.
//
//===----------------------------------------------------------------------===//
#include "vf/EventFiles.h"
#include "vf/Integrator.h"
#include "vf/Native.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

namespace {

using namespace vf;

/// f = 1 + x0 on [0,1]^2, or its record: a particle along x0 and its
/// recoil (Outputs 12), or a malformed record of 5 values.
IntegrandInfo native(const std::string &Name, unsigned Dim, unsigned Outputs) {
  auto I = nativeIntegrand(
      Name, Dim, Outputs, std::vector<double>(Dim, 0.0),
      std::vector<double>(Dim, 1.0), NativeParams{},
      [Outputs](std::span<const double> X, std::size_t N, std::size_t Dim,
                std::span<const double>, std::span<double> Out) {
        for (std::size_t K = 0; K < N; ++K) {
          double *O = &Out[K * Outputs];
          if (Outputs == 1) {
            O[0] = 1 + X[K * Dim];
            continue;
          }
          for (unsigned C = 0; C < Outputs; ++C)
            O[C] = 0;
          if (Outputs == 12) {
            const double P = X[K * Dim];
            double Rec[12] = {22, 1, P, P, 0, 0, 22, 1, P, -P, 0, 0};
            std::copy(Rec, Rec + 12, O);
          }
        }
      });
  EXPECT_TRUE(bool(I)) << (I ? "" : I.message());
  return *I;
}

std::string tempPath(const std::string &Tail) {
  return testing::TempDir() + "/vf_events_" + std::to_string(::getpid()) +
         Tail;
}

std::size_t count(const std::string &Text, const std::string &What) {
  std::size_t N = 0;
  for (std::size_t At = 0; (At = Text.find(What, At)) != std::string::npos;
       At += What.size())
    ++N;
  return N;
}

TEST(EventFiles, FormatsByName) {
  EXPECT_EQ(*eventFormatOf("a.lhe"), EventFormat::Lhe);
  EXPECT_EQ(*eventFormatOf("b.hepmc3"), EventFormat::HepMC3);
  auto Bad = eventFormatOf("c.txt");
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(Bad.message().find("'c.txt'"), std::string::npos);
}

TEST(EventFiles, NeedATrainedMapAndAGoodRecord) {
  if (!haveEventFiles())
    GTEST_SKIP() << "built without HepMC3";
  auto Int = Integrator::create(native("f", 2, 1));
  ASSERT_TRUE(bool(Int));
  EventFileOptions O;
  O.Path = tempPath(".lhe");
  O.Events = 10;
  auto Untrained = writeEventFile(**Int, native("f_event", 2, 12), O);
  ASSERT_FALSE(bool(Untrained));
  EXPECT_NE(Untrained.message().find("training"), std::string::npos);
  ASSERT_TRUE(bool((*Int)->run(2, 10000, 1)));
  (*Int)->freeze();
  auto OtherDim = writeEventFile(**Int, native("g", 3, 12), O);
  ASSERT_FALSE(bool(OtherDim));
  EXPECT_NE(OtherDim.message().find("3 dimensions"), std::string::npos);
  auto OddSize = writeEventFile(**Int, native("h", 2, 5), O);
  ASSERT_FALSE(bool(OddSize));
  EXPECT_NE(OddSize.message().find("6 per particle"), std::string::npos);
  std::ifstream In(O.Path);
  EXPECT_FALSE(In.good()) << "a refused request writes no file";
}

TEST(EventFiles, WritesEveryEvent) {
  if (!haveEventFiles())
    GTEST_SKIP() << "built without HepMC3";
  auto Int = Integrator::create(native("f", 2, 1));
  ASSERT_TRUE(bool(Int));
  auto R = (*Int)->run(3, 10000, 1);
  ASSERT_TRUE(bool(R));
  (*Int)->freeze();
  for (auto [Tail, Marker] : {std::pair{".lhe", "<event>"},
                              std::pair{".hepmc3", "\nE "}})
    for (bool Weighted : {false, true}) {
      EventFileOptions O;
      O.Path = tempPath(Tail);
      O.Events = 321;
      O.Weighted = Weighted;
      O.CrossSection = R->Mean[0];
      O.CrossSectionError = R->Error[0];
      auto Rep = writeEventFile(**Int, native("f_event", 2, 12), O);
      ASSERT_TRUE(bool(Rep)) << Rep.message();
      EXPECT_EQ(Rep->Written, 321u);
      std::ifstream In(O.Path);
      const std::string Text{std::istreambuf_iterator<char>(In), {}};
      EXPECT_EQ(count(Text, Marker), 321u) << Tail;
      if (!Weighted) {
        EXPECT_GT(Rep->Unweighting.Efficiency, 0.5);
        EXPECT_GT(Rep->MaxWeight, 0);
      }
      std::remove(O.Path.c_str());
    }
}

} // namespace
