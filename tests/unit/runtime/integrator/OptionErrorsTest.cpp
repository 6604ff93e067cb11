//===- tests/unit/runtime/integrator/OptionErrorsTest.cpp - Option errors -===//
//
// An error about an option carries the option's name (Error::Option) and
// names it as optionRef(name), never as a command-line flag, so each front
// end can report it as its own flag or key.
//
//===----------------------------------------------------------------------===//

#include "vf/Integrator.h"

#include <gtest/gtest.h>

#include <functional>

using namespace vf;

namespace {

void expectAbout(const std::string &Option,
                 const std::function<void(IntegratorOptions &)> &Spoil) {
  IntegratorOptions O;
  Spoil(O);
  Status S = checkOptions(O);
  ASSERT_FALSE(S) << Option;
  EXPECT_EQ(S.error().Option, Option);
  EXPECT_NE(S.message().find(optionRef(Option).str()), std::string::npos)
      << S.message();
  EXPECT_EQ(S.message().find("--"), std::string::npos) << S.message();
}

} // namespace

TEST(OptionErrorsTest, CheckOptionsNamesTheOption) {
  expectAbout("alpha", [](IntegratorOptions &O) { O.Alpha = -1; });
  expectAbout("beta", [](IntegratorOptions &O) { O.Beta = 2; });
  expectAbout("ninc", [](IntegratorOptions &O) { O.MaxNinc = 1; });
  expectAbout("max_hcube", [](IntegratorOptions &O) { O.MaxHcube = 0; });
  expectAbout("schedule", [](IntegratorOptions &O) { O.Schedule = "dynamic:0"; });
  expectAbout("devices",
              [](IntegratorOptions &O) { O.SimulatedDevices = {-5}; });
}

TEST(OptionErrorsTest, UnknownScheduleAndNoDeviceCarryTheOption) {
  Status S = checkSchedule("fastest");
  ASSERT_FALSE(S);
  EXPECT_EQ(S.error().Option, "schedule");
  IntegratorOptions O;
  O.NoCpu = true;
  S = checkOptions(O);
  ASSERT_FALSE(S);
  EXPECT_EQ(S.error().Option, "devices");
}
