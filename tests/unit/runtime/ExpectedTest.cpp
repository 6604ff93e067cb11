//===- tests/unit/runtime/ExpectedTest.cpp - Errors keep their scope -------===//
//
// vegasc decides from an error's scope which MPI rank prints it and whether
// the others must be aborted (compiler/driver/Integrate.cpp), so the scope
// has to survive every hop from Status to Expected and back that the
// integrator makes.
//
//===----------------------------------------------------------------------===//

#include "vf/Expected.h"

#include <gtest/gtest.h>

using namespace vf;

namespace {

Status failWith(ErrorScope Scope) { return Error{"what went wrong", Scope}; }

Expected<int> passOn(const Status &S) {
  if (!S)
    return S.error();
  return 1;
}

TEST(ExpectedTest, ErrorsAreSharedByDefault) {
  Status S = Error{"bad option"};
  ASSERT_FALSE(S);
  EXPECT_EQ(S.error().Scope, ErrorScope::Shared);
  EXPECT_EQ(S.message(), "bad option");
}

TEST(ExpectedTest, ScopeSurvivesStatusAndExpected) {
  for (ErrorScope Scope :
       {ErrorScope::Shared, ErrorScope::Rank, ErrorScope::Transport}) {
    Expected<int> E = passOn(failWith(Scope));
    ASSERT_FALSE(E);
    EXPECT_EQ(E.error().Scope, Scope);
    EXPECT_EQ(E.message(), "what went wrong");
    Status Back = E.error();
    EXPECT_EQ(Back.error().Scope, Scope);
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
