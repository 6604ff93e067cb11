//===- tests/unit/runtime/integrator/VarianceCheckTest.cpp - Instability --===//
//
// checkVariance: the median share against UnstableShare, warm-up rows left
// out, and a message naming the coordinates near an end of the domain.
//
//===----------------------------------------------------------------------===//
#include "integrator/VarianceCheck.h"

#include <gtest/gtest.h>

using namespace vf;

namespace {

IterationRow row(double Share, std::vector<double> Point, bool Warmup = false) {
  IterationRow R;
  R.Warmup = Warmup;
  R.MaxShare = Share;
  R.MaxPoint = std::move(Point);
  return R;
}

} // namespace

/// Shares around 1e-3 (a well-behaved integrand): stable, no message; the
/// median, not the largest, decides (one 0.5 among five does not fire).
TEST(VarianceCheckTest, StableBelowTheThreshold) {
  std::vector<IterationRow> Rows = {row(1e-3, {0.5}), row(2e-3, {0.4}),
                                    row(0.5, {0.3}), row(1e-3, {0.5}),
                                    row(3e-3, {0.6})};
  VarianceCheck C = checkVariance(Rows, {0}, {1});
  EXPECT_FALSE(C.Unstable);
  EXPECT_DOUBLE_EQ(C.Share, 2e-3);
  EXPECT_TRUE(C.Message.empty());
  // The largest share's point, even when stable.
  EXPECT_EQ(C.Point, std::vector<double>{0.3});
}

/// A median share above 4.5%: unstable; the message gives the share, the
/// coordinate near its lower end and a change of variables there; the
/// warm-up row (share 0.9) is not counted.
TEST(VarianceCheckTest, UnstableNamesTheEnd) {
  std::vector<IterationRow> Rows = {row(0.9, {0.5, 0.5}, true),
                                    row(0.2, {1e-9, 0.7}),
                                    row(0.1, {0.3, 0.6}),
                                    row(0.3, {0.5, 0.5})};
  VarianceCheck C = checkVariance(Rows, {0, 0}, {1, 1});
  EXPECT_TRUE(C.Unstable);
  EXPECT_DOUBLE_EQ(C.Share, 0.2);
  EXPECT_EQ(C.Point, (std::vector<double>{0.5, 0.5}));
  EXPECT_NE(C.Message.find("20% of it"), std::string::npos) << C.Message;
  EXPECT_NE(C.Message.find("unreliable"), std::string::npos);
  // The largest share's point (0.5, 0.5) is near no end.
  EXPECT_EQ(C.Message.find("near x["), std::string::npos) << C.Message;
  EXPECT_NE(C.Message.find("x = [0.5, 0.5]"), std::string::npos);

  Rows.back() = row(0.3, {1e-9, 0.995});
  C = checkVariance(Rows, {0, -1}, {1, 1});
  EXPECT_NE(C.Message.find("near x[0] = 0, x[1] = 1"), std::string::npos)
      << C.Message;
  EXPECT_NE(C.Message.find("x[0] = u^2"), std::string::npos) << C.Message;
}

/// No measured iteration: nothing to say.
TEST(VarianceCheckTest, NoMeasuredIteration) {
  VarianceCheck C = checkVariance({row(0.9, {0.1}, true)}, {0}, {1});
  EXPECT_FALSE(C.Unstable);
  EXPECT_EQ(C.Share, 0.0);
  EXPECT_TRUE(C.Point.empty());
}
