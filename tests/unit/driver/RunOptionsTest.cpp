//===- tests/unit/driver/RunOptionsTest.cpp - Run settings, both doors ----===//
//
// integratorOptions() is the one check of a run's settings for vegasc's
// flags and a batch's keys; spellOptions() says the library's option names
// in a door's terms. The messages below are worded as the library words
// them (optionRef, Error::Option), so a rewording there that a door could
// not follow fails here.
//
//===----------------------------------------------------------------------===//

#include "vegasc/RunOptions.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

using namespace vf;

namespace {

std::string asKey(const Error &E) {
  return spellOptions(E, [](const OptionInfo &I, std::string_view Value) {
    const std::string Key(I.Toml);
    return Value.empty() ? "'" + Key + "'"
                         : Key + " = \"" + std::string(Value) + "\"";
  });
}

} // namespace

// vegasc's defaults are a valid run, converted field by field.
TEST(RunOptions, DefaultsConvert) {
  RunSettings S;
  S.Seed = 7;
  S.OnNonFinite = "zero";
  S.Devices = "cpu:3";
  Expected<IntegratorOptions> IO = integratorOptions(S);
  ASSERT_TRUE(bool(IO)) << IO.message();
  EXPECT_EQ(IO->Seed, 7u);
  EXPECT_EQ(IO->Threads, 3u);
  EXPECT_EQ(IO->OnNonFinite, NonFinitePolicy::Zero);
  EXPECT_EQ(IO->MaxNinc, S.Ninc);
}

// vegasc's defaults are those of the option table (vf/Options.def).
TEST(RunOptions, DefaultsAreTheTables) {
  const RunSettings S;
  auto Default = [](OptionId Id) {
    return std::string(optionInfo(Id).Default);
  };
  EXPECT_EQ(std::to_string(S.Calls), Default(OptionId::Calls));
  EXPECT_EQ(std::to_string(S.Iterations), Default(OptionId::Iterations));
  EXPECT_EQ(std::to_string(S.Warmup), Default(OptionId::Warmup));
  EXPECT_EQ(std::to_string(S.Seed), Default(OptionId::Seed));
  EXPECT_EQ(std::to_string(S.Ninc), Default(OptionId::Ninc));
  EXPECT_EQ(S.Devices, Default(OptionId::Devices));
  EXPECT_EQ(S.Schedule, Default(OptionId::Schedule));
  EXPECT_EQ(S.OnNonFinite, Default(OptionId::OnNonFinite));
  EXPECT_EQ(S.ChannelWeights, Default(OptionId::ChannelWeights));
  EXPECT_EQ(S.ChannelFloor, std::stod(Default(OptionId::ChannelFloor)));
}

// Each refusal names its option, for the door to find its flag or key.
TEST(RunOptions, RefusalsNameTheOption) {
  auto OptionOf = [](auto Change) {
    RunSettings S;
    Change(S);
    Expected<IntegratorOptions> IO = integratorOptions(S);
    return IO ? std::string("(accepted)") : IO.error().Option;
  };
  EXPECT_EQ(OptionOf([](RunSettings &S) { S.Calls = 1; }), "calls");
  EXPECT_EQ(OptionOf([](RunSettings &S) { S.Iterations = 0; }), "iterations");
  EXPECT_EQ(OptionOf([](RunSettings &S) { S.Alpha = -1; }), "alpha");
  EXPECT_EQ(OptionOf([](RunSettings &S) { S.Beta = 2; }), "beta");
  EXPECT_EQ(OptionOf([](RunSettings &S) { S.Ninc = 1; }), "ninc");
  EXPECT_EQ(OptionOf([](RunSettings &S) { S.Schedule = "x"; }), "schedule");
  EXPECT_EQ(OptionOf([](RunSettings &S) { S.Devices = "tpu"; }), "devices");
  EXPECT_EQ(OptionOf([](RunSettings &S) { S.OnNonFinite = "skip"; }),
            "on_nonfinite");
  EXPECT_EQ(OptionOf([](RunSettings &S) { S.ChannelWeights = "1,x"; }),
            "channel_weights");
  EXPECT_EQ(OptionOf([](RunSettings &S) { S.ChannelFloor = -0.1; }),
            "channel_floor");
  EXPECT_EQ(OptionOf([](RunSettings &S) { S.ChannelFloor = 1.5; }),
            "channel_floor");
}

// The channel options become IntegratorOptions' (the weights parsed, the
// floor as given); their count against the integrand is the library's.
TEST(RunOptions, ChannelOptionsConvert) {
  RunSettings S;
  EXPECT_TRUE(integratorOptions(S)->ChannelWeights.empty());
  S.ChannelWeights = "1, 3";
  S.ChannelFloor = 0.05;
  Expected<IntegratorOptions> IO = integratorOptions(S);
  ASSERT_TRUE(IO);
  EXPECT_EQ(IO->ChannelWeights, (std::vector<double>{1, 3}));
  EXPECT_EQ(IO->ChannelFloor, 0.05);
  S.ChannelWeights = "1,-3";
  EXPECT_EQ(
      flagMessage(integratorOptions(S).error())
          .rfind("--channel-weights must be adapt or one positive number", 0),
      0u);
}

// Every option the library names becomes a flag; one to set to a value
// becomes --flag=value, or key = "value" in TOML.
TEST(RunOptions, OptionsBecomeFlagsAndKeys) {
  Error E{"the map needs at least 2 increments per axis (" +
              optionRef("ninc") + "); " + optionRef("on_nonfinite") +
              " is fine", "ninc"};
  EXPECT_EQ(flagMessage(E), "the map needs at least 2 increments per axis "
                            "(--ninc); --on-nonfinite is fine");
  EXPECT_EQ(asKey(E), "the map needs at least 2 increments per axis "
                      "('ninc'); 'on_nonfinite' is fine");
  Error Hint{"Fix the integrand there, or set " +
                 optionRef("on_nonfinite", "zero") +
                 " to count such samples as 0",
             "on_nonfinite"};
  EXPECT_EQ(flagMessage(Hint), "Fix the integrand there, or set "
                               "--on-nonfinite=zero to count such samples "
                               "as 0");
  EXPECT_EQ(asKey(Hint), "Fix the integrand there, or set on_nonfinite = "
                         "\"zero\" to count such samples as 0");
}

// The options a message names are kept as it is built, not read back from
// its text: a message that merely quotes the words is left as it is.
TEST(RunOptions, MentionsAreStructured) {
  const Error E = Error{"a (" + optionRef("calls") + ") b " +
                            (optionRef("seed") + " c") + " d",
                        "calls"};
  EXPECT_EQ(E.Message, "a (option 'calls') b option 'seed' c d");
  ASSERT_EQ(E.Mentions.size(), 2u);
  EXPECT_EQ(E.Mentions[1].Name, "seed");
  EXPECT_EQ(E.Message.substr(E.Mentions[1].Begin, E.Mentions[1].Size),
            "option 'seed'");
  EXPECT_EQ(flagMessage(E), "a (--calls) b --seed c d");
  EXPECT_EQ(flagMessage(Error{"write option 'calls' here"}),
            "write option 'calls' here");
}

// A message without the option's name gets the flag in front; options
// that are no setting (no flag) are left alone.
TEST(RunOptions, UnnamedOptionsArePrefixed) {
  EXPECT_EQ(flagMessage(Error{"unknown schedule 'x'", "schedule"}),
            "--schedule: unknown schedule 'x'");
  EXPECT_EQ(flagMessage(Error{"the cap (" + optionRef("max_hcube") + ")",
                              "max_hcube"}),
            "the cap ('max_hcube')");
  EXPECT_EQ(flagMessage(Error{"no option here"}), "no option here");
}

// The events after a run: none by default; the count and the file go
// together, the file's ending is checked, each refusal names its option
// (a flag for vegasc, a key for a batch).
TEST(RunOptions, EventSettings) {
  RunSettings S;
  Expected<EventFileOptions> None = eventFileOptions(S);
  ASSERT_TRUE(bool(None)) << None.message();
  EXPECT_EQ(None->Events, 0u);

  S.Events.Count = 10;
  Expected<EventFileOptions> NoFile = eventFileOptions(S);
  ASSERT_FALSE(bool(NoFile));
  EXPECT_EQ(NoFile.error().Option, "events_out");
  EXPECT_EQ(flagMessage(NoFile.error()).rfind("--events N and --events-out "
                                              "FILE go together", 0),
            0u);

  S.Events.Out = "e.txt";
  Expected<EventFileOptions> Ending = eventFileOptions(S);
  ASSERT_FALSE(bool(Ending));
  EXPECT_EQ(Ending.error().Option, "events_out");
  EXPECT_NE(asKey(Ending.error()).find("'events_out': "), std::string::npos);

  S.Events = {};
  S.Events.Weighted = true;
  Expected<EventFileOptions> Alone = eventFileOptions(S);
  ASSERT_FALSE(bool(Alone));
  EXPECT_EQ(Alone.error().Option, "events");

  if (!haveEventFiles())
    return;
  S.Events = {};
  S.Events.Count = 5;
  S.Events.Out = "e.hepmc3";
  S.Events.Weighted = true;
  S.Events.Record = "rec";
  Expected<EventFileOptions> Ok = eventFileOptions(S);
  ASSERT_TRUE(bool(Ok)) << Ok.message();
  EXPECT_EQ(Ok->Events, 5u);
  EXPECT_EQ(Ok->Path, "e.hepmc3");
  EXPECT_TRUE(Ok->Weighted);
  EXPECT_EQ(Ok->Layout, EventLayout::Basic);
  EXPECT_FALSE(Ok->Beams.has_value()) << "no beams: the first event's";
  EXPECT_EQ(Ok->PdfSetId, -1);
}

// The shower's options: the layout, the beams (both or neither) and the
// PDF set's id, each refusal naming its flag or key.
TEST(RunOptions, ShowerEventSettings) {
  if (!haveEventFiles())
    GTEST_SKIP() << "built without HepMC3";
  RunSettings S;
  S.Events.Count = 5;
  S.Events.Out = "e.lhe";
  S.Events.Layout = "lhe";
  S.Events.Beams = "2212,2212";
  S.Events.BeamEnergies = "6500, 6500";
  S.Events.PdfId = 247000;
  Expected<EventFileOptions> Ok = eventFileOptions(S);
  ASSERT_TRUE(bool(Ok)) << Ok.message();
  EXPECT_EQ(Ok->Layout, EventLayout::Lhe);
  ASSERT_TRUE(Ok->Beams.has_value());
  EXPECT_EQ(Ok->Beams->Pdg, (std::array<int, 2>{2212, 2212}));
  EXPECT_EQ(Ok->Beams->Energy, (std::array<double, 2>{6500, 6500}));
  EXPECT_EQ(Ok->PdfSetId, 247000);

  S.Events.BeamEnergies.clear();
  Expected<EventFileOptions> Alone = eventFileOptions(S);
  ASSERT_FALSE(bool(Alone));
  EXPECT_EQ(flagMessage(Alone.error())
                .rfind("--beams and --beam-energies go "
                       "together",
                       0),
            0u);
  S.Events.BeamEnergies = "6500,6500";
  S.Events.Beams = "p+,p+";
  Expected<EventFileOptions> Spelling = eventFileOptions(S);
  ASSERT_FALSE(bool(Spelling));
  EXPECT_NE(asKey(Spelling.error())
                .find("'beams' must be the two beams' PDG "
                      "ids, PDG1,PDG2"),
            std::string::npos);
  S.Events.Beams = "2212,2212";
  S.Events.Layout = "full";
  Expected<EventFileOptions> Layout = eventFileOptions(S);
  ASSERT_FALSE(bool(Layout));
  EXPECT_EQ(
      flagMessage(Layout.error()).rfind("--event-layout must be basic", 0), 0u);
}

// vegasc cannot set an option the library's messages name unless it is a
// setting: every optionRef in the library's sources is an option with a
// TOML key (vf/Options.def), or max_hcube (set only through the C++, C and
// Python APIs) in the one message that refuses its own value, which no vegasc
// run can reach.
TEST(RunOptions, LibraryMessagesNameSettings) {
  std::map<std::string, unsigned> ApiOnly;
  const std::regex Ref(R"re(optionRef\("([A-Za-z_]+)"[,)])re");
  unsigned Files = 0;
  for (const auto &E : std::filesystem::recursive_directory_iterator(
           std::string(VF_SOURCE_DIR) + "/runtime")) {
    if (E.path().extension() != ".cpp" && E.path().extension() != ".h")
      continue;
    ++Files;
    std::ifstream In(E.path());
    std::stringstream Text;
    Text << In.rdbuf();
    const std::string S = Text.str();
    for (std::sregex_iterator M(S.begin(), S.end(), Ref), End; M != End; ++M)
      if (const OptionInfo *I = findOption((*M)[1].str());
          !I || I->Toml.empty())
        ++ApiOnly[(*M)[1].str() + " in " + E.path().filename().string()];
  }
  EXPECT_GT(Files, 20u);
  const std::map<std::string, unsigned> Expected{
      {"max_hcube in Integrator.cpp", 1}};
  EXPECT_EQ(ApiOnly, Expected);
}
