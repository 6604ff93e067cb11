//===- vegasc/ProgressBar.h - vegasc's progress line ------------*- C++ -*-===//
//
// A one-line progress display on standard error while an integration runs:
// the iteration, samples done of the run's total, the rate and an ETA,
// redrawn in place ("\r", erase to end of line) at most ten times a second
// as tiles finish, and erased before each iteration's table row is printed.
// It draws only when standard error is a terminal and --quiet is not given,
// so logs and pipes never see it.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TOOLS_VEGASC_PROGRESSBAR_H
#define VF_TOOLS_VEGASC_PROGRESSBAR_H

#include "vf/Integrator.h"

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace vf {

class ProgressBar {
public:
  /// A bar for a run of `Total` iterations of about `Calls` samples, of
  /// which `Done` (resumed from a checkpoint) are already complete. It
  /// draws only if `Wanted` and standard error is a terminal.
  ProgressBar(bool Wanted, unsigned Total, std::uint64_t Calls, unsigned Done);
  ~ProgressBar();

  bool active() const { return Active; }
  /// From the integrator's worker threads: redraws, throttled.
  void update(const IterationProgress &P);
  /// After an iteration, before its row is printed: erases the line.
  void iterationDone(std::uint64_t Samples);
  /// Erases the line if it is drawn.
  void clear();

private:
  using Clock = std::chrono::steady_clock;
  std::string line(const IterationProgress &P, double Elapsed) const;

  bool Active;
  unsigned Total;
  std::uint64_t Calls;
  unsigned ItnsDone;
  std::uint64_t SamplesBefore = 0; ///< this process's completed iterations
  Clock::time_point Start = Clock::now();
  Clock::time_point LastDraw{};
  bool Drawn = false;
  std::mutex M;
};

} // namespace vf

#endif // VF_TOOLS_VEGASC_PROGRESSBAR_H
