//===- runtime/scheduler/TileScheduler.h - Chunks of tiles for workers -*- C++
//-*-===//
//
// Hands an iteration's tiles to heterogeneous workers (CPU threads, GPUs,
// simulated devices) in chunks of consecutive tiles (ALGORITHM.md section
// 6). Pure logic over abstract workers with measured throughput, so every
// policy is testable without devices:
//
//   static      N/P contiguous tiles per worker, decided up front
//   dynamic:c   c tiles per request
//   guided      max(c_min(w), ceil(R / 2P)): shrinking chunks
//   adaptive    guided weighted by throughput (default):
//               clamp(r_w R / (k sum r), c_min(w), c_max(w)), k = 2,
//               r_w an exponential moving average of the worker's samples/s
//               carried across iterations (WorkerRates); while another
//               worker has no rate yet, at most twice the worker's last
//               chunk (the first to report must not take half of
//               everything before a GPU's first chunk has come back)
//
// Which worker runs which tile never changes the result (tiles are reduced
// in tile order); the policy only decides how evenly workers finish.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_SCHEDULER_TILESCHEDULER_H
#define VF_RUNTIME_SCHEDULER_TILESCHEDULER_H

#include "vf/Expected.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace vf {

enum class SchedulePolicy { Static, Dynamic, Guided, Adaptive };

struct ScheduleSpec {
  SchedulePolicy Policy = SchedulePolicy::Adaptive;
  std::uint64_t DynamicChunk = 1; ///< tiles per chunk for dynamic:c
  /// "static", "dynamic:c", "guided" or "adaptive".
  static Expected<ScheduleSpec> parse(const std::string &Text);
  std::string str() const;
};

/// What the scheduler knows of a worker.
struct WorkerLimits {
  std::uint64_t MinChunkSamples = 1;   ///< e.g. what saturates a GPU
  std::uint64_t MaxChunkSamples = ~0ull;
};

/// Per-worker throughput estimates, kept across iterations.
class WorkerRates {
public:
  explicit WorkerRates(std::size_t Workers = 0, double Smoothing = 0.5)
      : Rates(Workers, 0.0), Smoothing(Smoothing) {}
  std::size_t size() const { return Rates.size(); }
  /// Samples/s of worker W (0 until it reported).
  double rate(std::size_t W) const { return Rates[W]; }
  /// Folds a finished chunk into W's moving average.
  void report(std::size_t W, std::uint64_t Samples, double Seconds);

private:
  std::vector<double> Rates;
  double Smoothing; ///< weight of the newest measurement
};

/// The adaptive policy's rule, for one of several workers (or MPI ranks)
/// sharing \p Remaining units: a chunk of half its share of the rest by
/// rate (\p Rate of \p Sum, the rates of all still taking work), within
/// [Min, Max]; or 0 (stop) when a faster one (\p FastestOther) is still
/// taking work and this one's chunk would end after all of them together
/// could have finished everything left.
std::uint64_t adaptiveChunk(double Rate, double Sum, double FastestOther,
                            std::uint64_t Remaining, std::uint64_t Min,
                            std::uint64_t Max);

class TileScheduler {
public:
  TileScheduler(ScheduleSpec Spec, std::uint64_t Ntiles,
                std::uint64_t TileSamples, std::vector<WorkerLimits> Limits,
                WorkerRates &Rates);

  /// The next chunk [Begin, End) of tiles for worker W; Begin == End when
  /// no tile is left for it. Thread-safe.
  struct Chunk {
    std::uint64_t Begin = 0, End = 0;
    bool empty() const { return Begin == End; }
  };
  Chunk next(unsigned W);
  /// Gives back tiles a failed worker could not finish; other workers get
  /// them from next().
  void requeue(Chunk C);
  /// Worker W failed and asks for nothing more: it no longer counts as a
  /// faster worker that slower ones may leave the rest to.
  void retire(unsigned W);
  /// From when *\p Flag is true (checked by every next() and hasWork();
  /// null: never), no tile is handed out any more: the iteration is being
  /// dropped (Integrator::cancel), and its caller knows it by the flag.
  void stopWhen(const std::atomic<bool> *Flag) { Stop = Flag; }
  /// Tiles not yet handed out (requeued ones included); none once stopped.
  bool hasWork();
  /// Folds a finished chunk into worker W's rate (under the scheduler's
  /// lock, so next() never sees a rate half-written).
  void report(unsigned W, std::uint64_t Samples, double Seconds);

private:
  std::uint64_t chunkTiles(unsigned W, std::uint64_t Remaining) const;
  std::uint64_t adaptiveTiles(unsigned W, std::uint64_t Remaining,
                              std::uint64_t Min, std::uint64_t Max) const;
  bool stopped() const;

  ScheduleSpec Spec;
  std::uint64_t Ntiles, TileSamples;
  std::vector<WorkerLimits> Limits;
  WorkerRates &Rates;
  const std::atomic<bool> *Stop = nullptr;
  std::mutex Mutex;
  std::uint64_t NextTile = 0;
  /// Workers still asking for chunks in this iteration: a slow worker may
  /// stop early only while a faster one is still active.
  std::vector<bool> Active;
  /// Each worker's last chunk, in tiles (adaptive: the growth cap).
  std::vector<std::uint64_t> Last;
  std::vector<Chunk> Static;   ///< static: each worker's one range
  std::vector<Chunk> Requeued; ///< tiles of failed workers
};

} // namespace vf

#endif // VF_RUNTIME_SCHEDULER_TILESCHEDULER_H
