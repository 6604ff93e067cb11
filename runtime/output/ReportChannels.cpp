//===- runtime/output/ReportChannels.cpp - Channels in the report ---------===//
//
// A multi-channel integrand's channels for the report: their weights alpha
// per iteration, one line per channel over the iterations (warm-up
// shaded, as on the convergence plot), so that one sees whether the
// weights settled; and a table of each channel's weight now, samples over
// the run and last iteration's integral, error and share of the variance.
// A channel's integral moves with alpha, so the table gives the last
// iteration's and never an average (docs/json.md, "channels").
//
//===----------------------------------------------------------------------===//

#include "output/ReportParts.h"

#include "output/Svg.h"

#include <string>
#include <vector>

namespace vf {

namespace {

/// One colour per channel, cycled beyond eight.
const char *channelColour(std::size_t C) {
  static constexpr const char *Colours[] = {"#1f5fbf", "#c33",    "#2a2",
                                            "#e69500", "#8a3ab9", "#17a2b8",
                                            "#7f7f7f", "#b5651d"};
  return Colours[C % std::size(Colours)];
}

std::string alphaPlot(const Result &R, unsigned K) {
  const std::size_t M = R.Channels.size();
  std::vector<double> X;
  std::vector<std::vector<double>> Alpha(M);
  double LastWarmup = 0;
  for (const IterationRow &Row : R.Iterations) {
    if (Row.Channels.size() != M)
      continue;
    X.push_back(Row.Index);
    for (std::size_t C = 0; C < M; ++C)
      Alpha[C].push_back(Row.Channels[C].Alpha);
    if (Row.Warmup)
      LastWarmup = Row.Index;
  }
  SvgPlot P("channels-" + std::to_string(K), 0.5,
            X.empty() ? 1.5 : X.back() + 0.5, 0, 1);
  P.labels("iteration", "alpha (share of samples)");
  if (LastWarmup > 0)
    P.rect(0.5, LastWarmup + 0.5, 0, 1, "#e6e6e6", "warm-up");
  const std::vector<double> NoError(X.size(), 0.0);
  for (std::size_t C = 0; C < M; ++C) {
    P.line(X, Alpha[C], channelColour(C));
    P.points(X, Alpha[C], NoError, channelColour(C));
  }
  return P.str();
}

std::string channelTable(const Result &R, unsigned K) {
  std::string T = "<table id='channeltable-" + std::to_string(K) +
                  "'><tr><th>channel</th><th>alpha</th><th>samples</th>"
                  "<th>last integral</th><th>error</th><th>error share</th>"
                  "</tr>";
  for (std::size_t C = 0; C < R.Channels.size(); ++C) {
    const ChannelSummary &Ch = R.Channels[C];
    T += "<tr><td style='color:" + std::string(channelColour(C)) + "'>" +
         escapeHtml(Ch.Name) + "</td><td>" + formatNumber(Ch.Alpha, "%.4f") +
         "</td><td>" + std::to_string(Ch.Samples) + "</td><td>" +
         formatNumber(Ch.Last.Mean) + "</td><td>" +
         formatNumber(Ch.Last.Error, "%.3g") + "</td><td>" +
         formatNumber(100 * Ch.ErrorShare, "%.1f") + "%</td></tr>";
  }
  return T + "</table>";
}

} // namespace

std::string channelSection(const ReportRun &Run, unsigned K) {
  const Result &R = Run.R;
  if (R.Channels.empty())
    return "";
  std::string Legend = "<p class='legend'>";
  for (std::size_t C = 0; C < R.Channels.size(); ++C)
    Legend += "<span style='color:" + std::string(channelColour(C)) +
              "'>&#9679; " + escapeHtml(R.Channels[C].Name) + "</span> ";
  return "<h3>Channels: weights per iteration</h3><div class='row'>" +
         alphaPlot(R, K) + "</div>" + Legend +
         "<span style='background:#e6e6e6'>&nbsp;warm-up&nbsp;</span></p>" +
         channelTable(R, K) +
         "<p class='legend'>alpha: the channel's share of the next "
         "iteration's samples; a channel's integral moves with alpha, so "
         "the table gives the last iteration's (only the total is "
         "averaged).</p>";
}

} // namespace vf
