//===- vegasc/ProgressBar.cpp - vegasc's progress line --------------------===//
//
// Drawing and throttling. The worker threads call update() after every
// tile; only one of them draws at a time (try_lock: the others return at
// once rather than wait), and only every 100 ms, so the bar costs the
// sampling loop next to nothing. Output goes through write(2) on file
// descriptor 2 in one call per redraw, unbuffered.
//
//===----------------------------------------------------------------------===//
#include "vegasc/ProgressBar.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unistd.h>

namespace vf {

namespace {

/// 12345678 -> "12.3M": three significant digits and an SI suffix.
std::string compact(double V) {
  const char *Suffix[] = {"", "k", "M", "G", "T", "P"};
  int K = 0;
  while (V >= 999.5 && K < 5) {
    V /= 1000;
    ++K;
  }
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf),
                V < 9.995 && K   ? "%.2f%s"
                : V < 99.95 && K ? "%.1f%s"
                                 : "%.0f%s",
                V, Suffix[K]);
  return Buf;
}

std::string duration(double S) {
  char Buf[32];
  if (!std::isfinite(S) || S < 0)
    return "?";
  auto T = static_cast<long long>(S + 0.5);
  if (T >= 3600)
    std::snprintf(Buf, sizeof(Buf), "%lldh%02lldm", T / 3600, T / 60 % 60);
  else if (T >= 60)
    std::snprintf(Buf, sizeof(Buf), "%lldm%02llds", T / 60, T % 60);
  else
    std::snprintf(Buf, sizeof(Buf), "%llds", T);
  return Buf;
}

void writeErr(const std::string &S) {
  std::size_t Done = 0;
  while (Done < S.size()) {
    ssize_t N = ::write(2, S.data() + Done, S.size() - Done);
    if (N <= 0)
      return; // A broken terminal is not worth failing the run for.
    Done += std::size_t(N);
  }
}

} // namespace

ProgressBar::ProgressBar(bool Wanted, unsigned Total, std::uint64_t Calls,
                         unsigned Done)
    : Active(Wanted && ::isatty(2)), Total(Total), Calls(Calls),
      ItnsDone(Done) {}

ProgressBar::~ProgressBar() { clear(); }

std::string ProgressBar::line(const IterationProgress &P,
                              double Elapsed) const {
  constexpr int Width = 20;
  double RunSamples = double(Total) * double(Calls);
  // Counted in iterations of `Calls` (an iteration draws about as many).
  double Done =
      (double(ItnsDone) +
       (P.Samples ? double(P.SamplesDone) / double(P.Samples) : 0.0)) *
      double(Calls);
  double Frac = RunSamples > 0 ? std::min(1.0, Done / RunSamples) : 0;
  int Fill = int(Frac * Width);
  double Mine = double(SamplesBefore + P.SamplesDone); // this process
  double Rate = Elapsed > 0 ? Mine / Elapsed : 0;
  std::string S =
      "itn " + std::to_string(P.Iteration) + (P.Warmup ? "w" : "") + " (" +
      std::to_string(ItnsDone + 1) + "/" + std::to_string(Total) + ") [" +
      std::string(Fill, '#') + std::string(Width - Fill, '-') + "] " +
      compact(Done) + "/" + compact(RunSamples) + " samples  " + compact(Rate) +
      "/s  ETA " + (Rate > 0 ? duration((RunSamples - Done) / Rate) : "?");
  return S;
}

void ProgressBar::update(const IterationProgress &P) {
  if (!Active)
    return;
  std::unique_lock<std::mutex> L(M, std::try_to_lock);
  if (!L.owns_lock())
    return;
  Clock::time_point Now = Clock::now();
  if (Drawn && Now - LastDraw < std::chrono::milliseconds(100))
    return;
  LastDraw = Now;
  Drawn = true;
  writeErr("\r" + line(P, std::chrono::duration<double>(Now - Start).count()) +
           "\033[K");
}

void ProgressBar::iterationDone(std::uint64_t Samples) {
  std::lock_guard<std::mutex> L(M);
  SamplesBefore += Samples;
  ++ItnsDone;
  if (Drawn)
    writeErr("\r\033[K");
  Drawn = false;
}

void ProgressBar::clear() {
  std::lock_guard<std::mutex> L(M);
  if (Drawn)
    writeErr("\r\033[K");
  Drawn = false;
}

} // namespace vf
