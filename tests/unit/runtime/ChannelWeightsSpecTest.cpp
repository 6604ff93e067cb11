//===- tests/unit/runtime/ChannelWeightsSpecTest.cpp - Weights as text ----===//
//
// vf/ChannelWeightsSpec.h, the grammar every door reads channel weights
// in: "adapt" or positive numbers separated by commas; each malformed
// form refused naming channel_weights and the weight at fault; the text
// written back reads back exactly.
//
//===----------------------------------------------------------------------===//

#include "vf/ChannelWeightsSpec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace vf;

TEST(ChannelWeightsSpec, AdaptAndListsRead) {
  EXPECT_EQ(*parseChannelWeights("adapt"), std::vector<double>{});
  EXPECT_EQ(*parseChannelWeights(" adapt "), std::vector<double>{});
  EXPECT_EQ(*parseChannelWeights("1,3"), (std::vector<double>{1, 3}));
  EXPECT_EQ(*parseChannelWeights(" 0.25 , 1e-2,7"),
            (std::vector<double>{0.25, 0.01, 7}));
  EXPECT_EQ(*parseChannelWeights("2"), std::vector<double>{2});
}

TEST(ChannelWeightsSpec, MalformedListsNameTheOptionAndTheWeight) {
  auto Why = [](const char *Spec) {
    Expected<std::vector<double>> W = parseChannelWeights(Spec);
    EXPECT_FALSE(W) << Spec;
    if (W)
      return std::string();
    EXPECT_EQ(W.error().Option, "channel_weights") << Spec;
    return W.error().Message;
  };
  EXPECT_NE(Why("").find("weight 1 is empty"), std::string::npos);
  EXPECT_NE(Why("1,").find("weight 2 is empty"), std::string::npos);
  EXPECT_NE(Why("1,,2").find("weight 2 is empty"), std::string::npos);
  EXPECT_NE(Why("1;2").find("weight 1 '1;2' is not a number"),
            std::string::npos);
  EXPECT_NE(Why("adaptive").find("is not a number"), std::string::npos);
  EXPECT_NE(Why("1,+2").find("weight 2 '+2' is not a number"),
            std::string::npos);
  EXPECT_NE(Why("1,-2").find("weight 2 '-2' is not positive and finite"),
            std::string::npos);
  EXPECT_NE(Why("0").find("is not positive"), std::string::npos);
  EXPECT_NE(Why("inf,1").find("is not positive and finite"), std::string::npos);
  EXPECT_NE(Why("nan").find("is not positive and finite"), std::string::npos);
  const std::string M = Why("1,x");
  EXPECT_EQ(M.rfind("option 'channel_weights' must be adapt or", 0), 0u) << M;
}

TEST(ChannelWeightsSpec, TextReadsBackExactly) {
  EXPECT_EQ(channelWeightsText({}), "adapt");
  EXPECT_EQ(channelWeightsText(std::vector<double>{1, 3}), "1,3");
  const std::vector<double> W = {0.1, 1.0 / 3, 2e-300, 12345.678};
  EXPECT_EQ(*parseChannelWeights(channelWeightsText(W)), W);
}
