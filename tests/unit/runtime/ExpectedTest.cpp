//===- tests/unit/runtime/ExpectedTest.cpp - Errors keep what they say ----===//
//
// A front end reports an error that names an option at its own flag or
// key (tools/vegasc/RunOptions.cpp, flagMessage), so the message and
// the option have to survive every hop from Status to Expected and back
// that the integrator makes. (Which MPI ranks report an error is the
// cluster's to say, vf/Cluster.h, not the error's: PartForgeryTest.)
//
//===----------------------------------------------------------------------===//

#include "vf/Expected.h"

#include <gtest/gtest.h>

using namespace vf;

namespace {

Expected<int> passOn(const Status &S) {
  if (!S)
    return S.error();
  return 1;
}

TEST(ExpectedTest, ErrorsNameNoOptionByDefault) {
  Status S = Error{"bad option"};
  ASSERT_FALSE(S);
  EXPECT_EQ(S.message(), "bad option");
  EXPECT_TRUE(S.error().Option.empty());
}

TEST(ExpectedTest, MessageAndOptionSurviveStatusAndExpected) {
  for (const char *Option : {"", "calls", "on_nonfinite"}) {
    Expected<int> E = passOn(Error{"what went wrong", Option});
    ASSERT_FALSE(E);
    EXPECT_EQ(E.message(), "what went wrong");
    EXPECT_EQ(E.error().Option, Option);
    Status Back = E.error();
    EXPECT_EQ(Back.message(), "what went wrong");
    EXPECT_EQ(Back.error().Option, Option);
  }
}

TEST(ExpectedTest, SuccessCarriesTheValue) {
  Status Ok = Status::ok();
  EXPECT_TRUE(Ok);
  Expected<int> E = passOn(Ok);
  ASSERT_TRUE(E);
  EXPECT_EQ(*E, 1);
}

} // namespace
