//===- runtime/scheduler/TileScheduler.cpp - Chunks of tiles for workers --===//
//
// Chunk sizes follow OpenMP's schedule(guided) (ceil(R/2P)) and, for the
// adaptive policy, weight it by the worker's share of the total measured
// throughput, so a GPU 100x faster than a CPU thread takes 100x larger
// chunks and all finish together.
//
//===----------------------------------------------------------------------===//

#include "scheduler/TileScheduler.h"

#include <algorithm>
#include <cerrno>
#include <cmath>

namespace vf {

Expected<ScheduleSpec> ScheduleSpec::parse(const std::string &Text) {
  ScheduleSpec S;
  if (Text == "static")
    S.Policy = SchedulePolicy::Static;
  else if (Text == "guided")
    S.Policy = SchedulePolicy::Guided;
  else if (Text == "adaptive")
    S.Policy = SchedulePolicy::Adaptive;
  else if (Text.rfind("dynamic", 0) == 0) {
    S.Policy = SchedulePolicy::Dynamic;
    std::string C = Text.size() > 8 && Text[7] == ':' ? Text.substr(8) : "";
    if (Text != "dynamic") {
      // Digits only: strtoull alone would take "-1" as 2^64-1 and "+3".
      char *End = nullptr;
      errno = 0;
      unsigned long long V = std::strtoull(C.c_str(), &End, 10);
      if (C.empty() || C.find_first_not_of("0123456789") != std::string::npos ||
          errno == ERANGE || V == 0)
        return Error{optionRef("schedule") + " '" + Text +
                         "': dynamic:c needs a positive number of tiles c",
                     "schedule"};
      S.DynamicChunk = V;
    }
  } else {
    return Error{"unknown schedule '" + Text +
                     "'; use static, dynamic:c, guided or adaptive",
                 "schedule"};
  }
  return S;
}

std::string ScheduleSpec::str() const {
  switch (Policy) {
  case SchedulePolicy::Static:
    return "static";
  case SchedulePolicy::Dynamic:
    return "dynamic:" + std::to_string(DynamicChunk);
  case SchedulePolicy::Guided:
    return "guided";
  case SchedulePolicy::Adaptive:
    return "adaptive";
  }
  return "adaptive";
}

void WorkerRates::report(std::size_t W, std::uint64_t Samples,
                         double Seconds) {
  if (!(Seconds > 0) || Samples == 0)
    return;
  double R = double(Samples) / Seconds;
  Rates[W] = Rates[W] > 0 ? (1 - Smoothing) * Rates[W] + Smoothing * R : R;
}

TileScheduler::TileScheduler(ScheduleSpec S, std::uint64_t N, std::uint64_t TS,
                             std::vector<WorkerLimits> L, WorkerRates &R)
    : Spec(S), Ntiles(N), TileSamples(std::max<std::uint64_t>(1, TS)),
      Limits(std::move(L)), Rates(R), Active(Limits.size(), true),
      Last(Limits.size(), 0) {
  if (Spec.Policy == SchedulePolicy::Static) {
    std::uint64_t P = Limits.size();
    for (std::uint64_t W = 0; W < P; ++W)
      Static.push_back({W * Ntiles / P, (W + 1) * Ntiles / P});
  }
}

std::uint64_t adaptiveChunk(double Rate, double Sum, double FastestOther,
                            std::uint64_t Remaining, std::uint64_t Min,
                            std::uint64_t Max) {
  auto C = std::clamp(
      std::uint64_t(std::ceil(Rate / Sum * double(Remaining) / 2.0)), Min, Max);
  // A slow one whose chunk would end after all together could finish
  // everything left would only make the others wait: it stops, but only
  // while a faster one is still there to run what is left.
  if (FastestOther > Rate && double(C) / Rate > double(Remaining) / Sum)
    return 0;
  return C;
}

std::uint64_t TileScheduler::chunkTiles(unsigned W,
                                        std::uint64_t Remaining) const {
  const WorkerLimits &L = Limits[W];
  auto Tiles = [&](std::uint64_t Samples) {
    return std::max<std::uint64_t>(1, (Samples + TileSamples - 1) /
                                          TileSamples);
  };
  std::uint64_t Min = Tiles(L.MinChunkSamples);
  std::uint64_t Max = std::max(Min, L.MaxChunkSamples / TileSamples);
  std::uint64_t P = Limits.size();
  switch (Spec.Policy) {
  case SchedulePolicy::Dynamic:
    return Spec.DynamicChunk;
  case SchedulePolicy::Guided:
    return std::max(Min, (Remaining + 2 * P - 1) / (2 * P));
  case SchedulePolicy::Adaptive:
    return adaptiveTiles(W, Remaining, Min, Max);
  case SchedulePolicy::Static:
    break;
  }
  return 1;
}

std::uint64_t TileScheduler::adaptiveTiles(unsigned W, std::uint64_t Remaining,
                                           std::uint64_t Min,
                                           std::uint64_t Max) const {
  // A worker without a measured rate gets its minimum chunk: a probe
  // that measures it quickly without holding a large share hostage.
  if (W >= Rates.size() || !(Rates.rate(W) > 0))
    return Min;
  double Sum = 0, FastestOther = 0;
  bool OtherUnmeasured = false;
  // Workers that stopped (or failed) take no more: only the active ones
  // share what is left.
  for (std::size_t I = 0; I < Rates.size(); ++I) {
    bool Counts = I == W || (I < Active.size() && Active[I]);
    if (Counts)
      Sum += Rates.rate(I);
    if (I != W && Counts) {
      FastestOther = std::max(FastestOther, Rates.rate(I));
      OtherUnmeasured |= !(Rates.rate(I) > 0);
    }
  }
  std::uint64_t C =
      adaptiveChunk(Rates.rate(W), Sum, FastestOther, Remaining, Min, Max);
  // Until every active worker has reported, the rates say nothing of the
  // silent ones (a GPU's first chunk may take a CPU thread's hundred
  // chunks): doubling keeps each chunk about as long as the iteration has
  // run so far, so none commits to much more than it could undo.
  if (OtherUnmeasured && W < Last.size())
    C = std::min(C, std::max(Min, 2 * Last[W]));
  return C;
}

bool TileScheduler::stopped() const {
  return Stop && Stop->load(std::memory_order_relaxed);
}

TileScheduler::Chunk TileScheduler::next(unsigned W) {
  if (stopped())
    return {};
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Requeued.empty()) {
    Chunk C = Requeued.back();
    Requeued.pop_back();
    return C;
  }
  if (Spec.Policy == SchedulePolicy::Static) {
    // A worker's own range, then the range of a worker that retired
    // before taking it.
    for (std::size_t I = 0; I < Static.size(); ++I) {
      std::size_t Owner = I == 0 ? W : (I <= W ? I - 1 : I);
      if (Owner >= Static.size() || Static[Owner].empty() ||
          (Owner != W && Active[Owner]))
        continue;
      Chunk C = Static[Owner];
      Static[Owner] = {C.End, C.End};
      return C;
    }
    return {};
  }
  std::uint64_t Remaining = Ntiles - NextTile;
  if (Remaining == 0)
    return {};
  std::uint64_t N = std::min(Remaining, chunkTiles(W, Remaining));
  if (N == 0) {
    if (W < Active.size())
      Active[W] = false;
    return {};
  }
  Chunk C{NextTile, NextTile + N};
  NextTile += N;
  if (W < Last.size())
    Last[W] = N;
  return C;
}

void TileScheduler::report(unsigned W, std::uint64_t Samples,
                           double Seconds) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Rates.report(W, Samples, Seconds);
}

void TileScheduler::requeue(Chunk C) {
  if (C.empty())
    return;
  std::lock_guard<std::mutex> Lock(Mutex);
  Requeued.push_back(C);
}

void TileScheduler::retire(unsigned W) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (W < Active.size())
    Active[W] = false;
}

bool TileScheduler::hasWork() {
  if (stopped())
    return false;
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Requeued.empty())
    return true;
  if (Spec.Policy == SchedulePolicy::Static) {
    for (const Chunk &C : Static)
      if (!C.empty())
        return true;
    return false;
  }
  return NextTile < Ntiles;
}

} // namespace vf
