//===- tests/unit/runtime/integrator/OptionTableTest.cpp - vf/Options.def -===//
//
// The option table every door reads: one row per option, found by name,
// its range checked and said as the library's messages say it. That every
// door has every option is tests/integration/option_doors.py.
//
//===----------------------------------------------------------------------===//

#include "vf/Integrator.h"
#include "vf/Options.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

using namespace vf;

// Each option once, found by its name, with a description; the doors'
// spellings follow from the name (flag: --name with '-' for '_').
TEST(OptionTable, OneRowPerOption) {
  std::set<std::string_view> Names;
  for (const OptionInfo &I : optionTable()) {
    EXPECT_TRUE(Names.insert(I.Name).second) << I.Name;
    EXPECT_EQ(findOption(I.Name), &I);
    EXPECT_FALSE(I.Description.empty()) << I.Name;
    std::string Flag = "--" + std::string(I.Name);
    std::replace(Flag.begin(), Flag.end(), '_', '-');
    EXPECT_TRUE(I.Flag.empty() || I.Flag == Flag) << I.Name;
    EXPECT_TRUE(I.Toml.empty() || I.Toml == I.Name) << I.Name;
  }
  EXPECT_EQ(findOption("no_such_option"), nullptr);
  EXPECT_EQ(&optionInfo(OptionId::MaxHcube), findOption("max_hcube"));
}

// Ranges: both ends included, NaN never; said in the messages' words.
TEST(OptionTable, Ranges) {
  EXPECT_TRUE(inRange(OptionId::Alpha, 0));
  EXPECT_TRUE(inRange(OptionId::Alpha, MaxAlpha));
  EXPECT_FALSE(inRange(OptionId::Alpha, 1.6));
  EXPECT_FALSE(inRange(OptionId::Beta, NAN));
  EXPECT_TRUE(inRange(OptionId::Rtol, 1e300));
  EXPECT_FALSE(inRange(OptionId::Calls, 1));
  EXPECT_TRUE(inRange(OptionId::Calls, double(MaxRunCalls)));
  EXPECT_EQ(rangeText(OptionId::Alpha), "0 to 1.5");
  EXPECT_EQ(rangeText(OptionId::Calls), "2 to 1e18");
  EXPECT_EQ(rangeText(OptionId::Ninc), "2 to 100000");
  EXPECT_EQ(rangeText(OptionId::Iterations), "1 to 1000000");
  EXPECT_EQ(rangeText(OptionId::MaxIterations), "1 to 4294967295");
  EXPECT_EQ(rangeText(OptionId::Atol), ">= 0");
  EXPECT_EQ(rangeText(OptionId::Devices), "");
}

// The library's defaults are the table's.
TEST(OptionTable, DefaultsAreTheLibrarys) {
  const IntegratorOptions O;
  auto Default = [](OptionId Id) {
    return std::stod(std::string(optionInfo(Id).Default));
  };
  EXPECT_EQ(double(O.Seed), Default(OptionId::Seed));
  EXPECT_EQ(O.Alpha, Default(OptionId::Alpha));
  EXPECT_EQ(O.Beta, Default(OptionId::Beta));
  EXPECT_EQ(double(O.MaxNinc), Default(OptionId::Ninc));
  EXPECT_EQ(double(O.MaxHcube), Default(OptionId::MaxHcube));
  EXPECT_EQ(O.Schedule, optionInfo(OptionId::Schedule).Default);
  EXPECT_EQ(O.ChannelFloor, Default(OptionId::ChannelFloor));
  EXPECT_TRUE(O.ChannelWeights.empty());
  EXPECT_EQ(optionInfo(OptionId::ChannelWeights).Default, "adapt");
}
