//===- tests/unit/runtime/output/ReportChannelsTest.cpp - Channels drawn --===//
//
// The report's channels (ReportChannels.cpp) on a hand-made multi-channel
// Result: a plot of the weights with one line per channel over the
// iterations, the warm-up shaded, a table row per channel with its
// weight, samples, last integral and error share; nothing of the kind
// for a result without channels.
//
//===----------------------------------------------------------------------===//

#include "vf/Report.h"

#include <gtest/gtest.h>

#include <string>

using namespace vf;

namespace {

/// Two channels over a warm-up and two measured iterations, their weights
/// moving from 1/2 towards 0.2 and 0.8.
Result twoChannels() {
  Result R;
  R.Outputs = 1;
  R.Mean = {1.0};
  R.Error = {0.01};
  const double Alpha[3][2] = {{0.5, 0.5}, {0.3, 0.7}, {0.2, 0.8}};
  for (unsigned I = 0; I < 3; ++I) {
    IterationRow Row;
    Row.Index = I + 1;
    Row.Warmup = I == 0;
    Row.Mean = {1.0};
    Row.Error = {0.02};
    Row.CumMean = {1.0};
    Row.CumError = {0.02};
    Row.Samples = 1000;
    for (unsigned C = 0; C < 2; ++C)
      Row.Channels.push_back(
          {Alpha[I][C], std::uint64_t(1000 * Alpha[I][C]), 0.5, 0.01});
    R.Iterations.push_back(Row);
  }
  R.Channels = {{"z<peak>", 0.2, 1000, R.Iterations.back().Channels[0], 0.25},
                {"photon", 0.8, 2000, R.Iterations.back().Channels[1], 0.75}};
  return R;
}

std::size_t count(const std::string &S, const std::string &What) {
  std::size_t N = 0;
  for (std::size_t At = S.find(What); At != std::string::npos;
       At = S.find(What, At + 1))
    ++N;
  return N;
}

/// The element with id \p Id, up to its closing \p Tag.
std::string element(const std::string &Page, const std::string &Id,
                    const std::string &Tag) {
  const std::size_t Begin = Page.find("id='" + Id + "'");
  if (Begin == std::string::npos)
    return "";
  return Page.substr(Begin, Page.find("</" + Tag + ">", Begin) - Begin);
}

} // namespace

TEST(ReportChannels, WeightsArePlottedOneLinePerChannel) {
  const std::string Page =
      reportHtml("channels", {ReportRun{"two", {}, twoChannels(), {}, {}}});
  const std::string Plot = element(Page, "channels-0", "svg");
  ASSERT_FALSE(Plot.empty());
  EXPECT_EQ(count(Plot, "<polyline"), 2u);
  EXPECT_NE(Plot.find("warm-up"), std::string::npos);
  EXPECT_NE(Plot.find("iteration"), std::string::npos);
  EXPECT_NE(Page.find("data-channels='2'"), std::string::npos);
  EXPECT_NE(Page.find("z&lt;peak&gt;"), std::string::npos);
}

TEST(ReportChannels, TableHasARowPerChannel) {
  const std::string Page =
      reportHtml("channels", {ReportRun{"two", {}, twoChannels(), {}, {}}});
  const std::string Table = element(Page, "channeltable-0", "table");
  ASSERT_FALSE(Table.empty());
  EXPECT_EQ(count(Table, "<tr>"), 3u); // the header and two channels
  EXPECT_NE(Table.find("photon"), std::string::npos);
  EXPECT_NE(Table.find("<td>0.8000</td><td>2000</td>"), std::string::npos);
  EXPECT_NE(Table.find("75.0%"), std::string::npos);
}

TEST(ReportChannels, APlainResultHasNone) {
  Result R = twoChannels();
  R.Channels.clear();
  for (IterationRow &Row : R.Iterations)
    Row.Channels.clear();
  const std::string Page = reportHtml("plain", {ReportRun{"f", {}, R, {}, {}}});
  EXPECT_EQ(Page.find("id='channels-0'"), std::string::npos);
  EXPECT_EQ(Page.find("id='channeltable-0'"), std::string::npos);
  EXPECT_NE(Page.find("data-channels='0'"), std::string::npos);
}
