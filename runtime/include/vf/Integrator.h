//===- vf/Integrator.h - Adaptive VEGAS+ integration ------------*- C++ -*-===//
//
// Integrator owns the iteration loop of VEGAS+ (Lepage, J. Comput. Phys.
// 439 (2021) 110386): each iteration draws `calls` samples through the
// adaptive map and stratification, runs them on the devices in tiles, and
// combines the per-tile sums in tile order, so the result does not depend on
// how many threads ran. Between iterations the map (AdaptiveMap) and the
// per-hypercube allocation (Strata) adapt, unless frozen.
//
//===----------------------------------------------------------------------===//
#ifndef VF_INTEGRATOR_H
#define VF_INTEGRATOR_H

#include "vf/Cluster.h"
#include "vf/Events.h"
#include "vf/Expected.h"
#include "vf/Integrand.h"
#include "vf/Options.h"
#include "vf/Result.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace vf {

enum class NonFinitePolicy {
  Stop, ///< stop the run, naming the first bad sample's point (default)
  Zero, ///< count such samples as 0 and report how many
};

struct IntegratorOptions {
  /// Seed of the Philox stream; same seed, same result, whatever devices.
  std::uint64_t Seed = 1;
  /// Map damping alpha, 0 to MaxAlpha (0: no adaptation; 0.5 default;
  /// classic codes 1.5; above, the map chases single iterations' noise).
  double Alpha = 0.5;
  /// Stratification exponent beta (0: classic VEGAS; 0.75 default).
  double Beta = 0.75;
  /// Most increments per axis of the map (N_g).
  unsigned MaxNinc = 1000;
  /// Most hypercubes (lower M, the strata per axis, to stay below).
  std::uint64_t MaxHcube = 1000000;
  /// CPU worker threads, at most MaxThreads; 0: every hardware thread.
  unsigned Threads = 0;
  NonFinitePolicy OnNonFinite = NonFinitePolicy::Stop;
  /// A multi-channel integrand's channel weights (LANGUAGE.md v3,
  /// "Channels"): empty, they adapt after every iteration
  /// (docs/algorithm.md, "Multi-channel integration"); otherwise one
  /// positive number per channel, normalised and held for the whole run.
  std::vector<double> ChannelWeights;
  /// The smallest weight adaptation may give a channel, so that none
  /// starves: 0 means 0.1 / channels; otherwise below 1 / channels.
  double ChannelFloor = 0;
  /// How tiles are handed to workers: "adaptive" (default: chunks weighted
  /// by each worker's measured samples/s), "guided", "static",
  /// "dynamic:c" (c tiles at a time). The result never depends on it.
  std::string Schedule = "adaptive";
  /// Simulated devices, each a worker that runs the CPU kernel on one
  /// thread and throttles itself to the given samples/s (for testing the
  /// scheduler with heterogeneous speeds on any machine).
  std::vector<double> SimulatedDevices;
  /// No CPU worker threads (only simulated devices or GPUs).
  bool NoCpu = false;
  /// GPUs by index (`--devices gpu:0,2`); each must set up or create()
  /// fails. With AllGpus, every GPU the driver finds: none, or one that
  /// cannot be set up, is a note (notes()), not an error, unless
  /// GpusRequired (`--devices gpu`). A GPU takes a CPU thread of its own:
  /// with Threads = 0 the CPU workers are one fewer per GPU (at least one).
  std::vector<int> Gpus;
  bool AllGpus = false;
  bool GpusRequired = false;
  /// Processes sharing this machine (MPI ranks on one node), and which of
  /// them this is: with Threads = 0, each takes 1/MachineShare of the
  /// hardware threads, and each takes every MachineShare-th of the GPUs
  /// (named or found), starting at its MachineRank; with fewer GPUs than
  /// processes, some share one.
  unsigned MachineShare = 1;
  unsigned MachineRank = 0;
  /// The processes of a distributed run (vf/Cluster.h), or null. Every
  /// rank runs the same integrator; each iteration's tiles are shared
  /// among them and the result is bitwise that of one process.
  std::shared_ptr<Cluster> Ranks;
  /// Accuracy target (0: none). With either set, run()'s `iterations` is
  /// a cap: after each measured iteration from the second on, the run
  /// stops once every component's cumulative error is at most
  /// max(Atol, Rtol |cumulative mean|) (as vegas's rtol/atol, Cuba's
  /// epsrel/epsabs). Warm-up iterations never stop it. The decision uses
  /// only the combined estimate, which every device mix and rank count
  /// computes bitwise alike, so the iterations run are the same too. Not
  /// part of a checkpoint's identity: a resumed run may set another.
  double Rtol = 0;
  double Atol = 0;
  bool hasTarget() const { return Rtol > 0 || Atol > 0; }
  /// The per-sample arithmetic (docs/user-guide.md, "Precision"): with
  /// F32, create() runs the integrand's single-precision code
  /// (IntegrandInfo::Single), and the round-off floor is single
  /// precision's.
  Precision Arithmetic = Precision::F64;
};

/// What run() was asked for and how far it got. A run that stops early
/// (a non-finite value, a failed checkpoint) is abandoned; one restored by
/// loadState() is unfinished, and the next run() continues it.
struct RunPlan {
  unsigned Iterations = 0; ///< measured iterations
  std::uint64_t Calls = 0; ///< samples per iteration
  unsigned Warmup = 0;     ///< warm-up iterations, run first
  unsigned Done = 0;       ///< iterations completed, warm-up included
  unsigned total() const { return Warmup + Iterations; }
  bool unfinished() const { return Done < total(); }
  /// Measured iterations done.
  unsigned measured() const { return Done > Warmup ? Done - Warmup : 0; }
};

/// Where the current iteration stands, for progress displays.
struct IterationProgress {
  unsigned Iteration = 0; ///< as IterationRow::Index
  bool Warmup = false;
  std::uint64_t TilesDone = 0; ///< of Tiles
  std::uint64_t Tiles = 0;
  std::uint64_t SamplesDone = 0; ///< of Samples
  std::uint64_t Samples = 0;
};

/// One worker of an iteration.
struct WorkerInfo {
  std::string Name;        ///< "cpu:0", "gpu:0", "sim:1"
  std::string Kind;        ///< "cpu", "gpu" or "sim" (DeviceStats::Kind)
  std::string Description; ///< "NVIDIA H200, sm_90, 132 multiprocessors"
};

/// Something create() noticed but did not refuse, with AllGpus.
struct IntegratorNote {
  enum class Kind {
    NoGpu,      ///< no usable driver or device: routine on a CPU machine
    GpuSkipped, ///< a GPU is there but could not be set up: worth telling
    /// The accuracy target asks for less than single precision's
    /// round-off floor: a warning.
    Precision
  };
  Kind What;
  std::string Text;
};

/// The most CPU threads (IntegratorOptions::Threads) checkOptions accepts.
constexpr unsigned MaxThreads = 1024;

/// The precision every door spells "f64" or "f32"; an error names the
/// option and the value.
Expected<Precision> parsePrecision(const std::string &Name);
/// Whether \p Schedule is a valid IntegratorOptions::Schedule; the error
/// lists the policies.
Status checkSchedule(const std::string &Schedule);
/// Whether \p O is valid by itself (alpha 0 to 1.5, beta, threads 0 to
/// 1024, schedule, device list):
/// what create() refuses besides that is the integrand or the machine (a
/// GPU that is missing or cannot be set up).
Status checkOptions(const IntegratorOptions &O);
/// Sets \p O's devices (Threads, NoCpu, Gpus, AllGpus, GpusRequired,
/// SimulatedDevices) from a device list as every door spells it: `all`,
/// `cpu`, `cpu:N`, `gpu` (insisting on the GPUs), `gpu:N[,M...]`, `sim:R`
/// (a simulated device of R million samples/s), comma-separated, e.g.
/// "cpu:4,gpu:1". An error naming option 'devices' otherwise. The one
/// parser of this grammar: vegasc's --devices, TOML's `devices` and
/// Python's `devices=` all call it.
Status parseDevices(const std::string &Spec, IntegratorOptions &O);

/// Whether run(\p Iterations, \p Calls, \p Warmup) is a valid plan: 2 to
/// 1e18 calls, 1 to 1000000 iterations, 0 to 1000000 warm-up iterations.
/// run() refuses what this refuses; the error's Option names the argument.
Status checkRunPlan(unsigned Iterations, std::uint64_t Calls,
                    unsigned Warmup);
/// Whether a run of that plan can continue the run \p Saved (a restored
/// state's plan, finished or not): the same calls and warm-up, and at
/// least the measured iterations it has done (more extend it, bitwise as
/// one run of that many). run() refuses what this refuses for an
/// unfinished restored run; the error says why (Option: what differs).
Status checkResume(const RunPlan &Saved, unsigned Iterations,
                   std::uint64_t Calls, unsigned Warmup);
/// Whether \p O's accuracy target is valid: Rtol and Atol finite and >= 0.
Status checkTarget(const IntegratorOptions &O);

class Integrator {
public:
  /// Checks the options and the integrand; errors say what to change.
  static Expected<std::unique_ptr<Integrator>>
  create(IntegrandInfo Integrand, IntegratorOptions Options = {});
  ~Integrator();

  /// Runs `warmup` iterations (adapting, excluded from the estimate) and
  /// then `iterations` measured ones of `calls` samples each. Returns the
  /// combined result over every measured iteration since creation. On a
  /// non-finite value (policy Stop) the error names the point; the
  /// iterations completed so far stay in result().
  ///
  /// Resuming and extending: after loadState(), run() with the saved
  /// calls and warm-up and at least the measured iterations done
  /// continues the saved run, finished or not, up to \p iterations (a run
  /// of 5 warm-up + 10 saved after 7 runs the last 8; a finished one of
  /// 10 asked for 20 runs 10 more), and the result is bitwise what one
  /// uninterrupted run of that plan gives. A restored unfinished run
  /// refuses other arguments, naming what differs. Otherwise (a fresh
  /// integrator, a finished or abandoned run) run() starts a new run that
  /// adds to the statistics (restartStatistics() first: vegas's per call).
  ///
  /// With an accuracy target (IntegratorOptions::Rtol/Atol, setTarget)
  /// \p iterations is the most measured iterations; Result::Stopped says
  /// why the run ended.
  Expected<Result> run(unsigned iterations, std::uint64_t calls,
                       unsigned warmup = 0);
  /// Continues the current (or restored) run to \p Iterations measured
  /// iterations with its calls and warm-up: bitwise the run that had asked
  /// for that many from the start. An error if nothing has run, or if it
  /// has already done more.
  Expected<Result> extend(unsigned Iterations);
  /// Starts the statistics afresh for the following runs, as each call of
  /// vegas's integrator returns its own: result() then combines only the
  /// iterations run after it. The map, the allocation and the random stream
  /// go on, so the following runs draw the samples they would have drawn
  /// otherwise; the last iteration stays in result(), marked warm-up,
  /// because its variance weights the next one as before (RAvg), also when
  /// a checkpoint of the new run is resumed. Refused while a run is
  /// unfinished.
  Status restartStatistics();
  /// Sets the accuracy target for the following runs (0, 0: none).
  Status setTarget(double Rtol, double Atol);
  /// The current (or last) run's plan and progress.
  const RunPlan &plan() const;

  /// Checkpoints and grids (runtime/integrator/Checkpoint.h has the file
  /// formats). saveState writes the whole state: map, allocation,
  /// statistics, iteration rows, the random stream's position, the frozen
  /// flag, parameters, options and the integrand's identity (name, shape,
  /// module hash), atomically (temporary file, fsync, rename).
  Status saveState(const std::string &Path) const;
  /// Restores a state saved by an integrator of the same integrand (same
  /// module hash) with the same seed, alpha, beta, ninc cap, hypercube cap,
  /// non-finite policy and parameter values; the error names every
  /// difference. The thread count may differ.
  Status loadState(const std::string &Path);
  /// saveState's file as bytes, for states kept in memory (task engines,
  /// vf/Tasks.h); callable from an onIteration observer.
  Expected<std::string> stateBytes() const;
  /// loadState from the bytes stateBytes (or a state file) holds;
  /// \p Name names them in errors, as loadState's path does.
  Status loadStateBytes(std::string Bytes, const std::string &Name);
  /// After every iteration, run() saves the state to `Path` (empty: off);
  /// a failed save stops the run with an error. Fails at once when the
  /// folder of `Path` cannot be written, rather than after an iteration.
  Status checkpointTo(std::string Path);
  /// Writes the current map (dim, ninc, edges); an error if no iteration
  /// has run yet.
  Status saveGrid(const std::string &Path) const;
  /// Starts the following iterations from a saved map instead of a uniform
  /// one. Its dimension must be the integrand's; its ninc is kept.
  Status loadGrid(const std::string &Path);

  /// Stops adapting the map and the stratification.
  void freeze();
  bool frozen() const;
  /// Sets a parameter by name (a finite value) for the following
  /// iterations. A new value is a new integral, so it starts fresh
  /// statistics: result() then combines only the iterations run after it
  /// (the earlier ones are dropped, not averaged in), while the adapted map
  /// and allocation are kept, as vegas users expect, so that the next run
  /// starts from a trained map (add warm-up iterations if the integrand
  /// changes much). Setting the current value changes nothing. Refused
  /// while a run restored by loadState() is unfinished.
  Status setParam(const std::string &Name, double Value);
  const std::vector<double> &params() const;

  /// The adapted map and allocation, for reports: Edges is Dim x (Ninc +
  /// 1), axis-major; Samples the n_h of each hypercube (axis 0 varying
  /// fastest, Nstrat per axis). Empty before the first iteration.
  struct Grid {
    unsigned Dim = 0, Ninc = 0, Nstrat = 0;
    std::vector<double> Edges;
    std::vector<std::uint64_t> Samples;
  };
  Grid grid() const;

  /// The integrand's values at the point \p X of its box as the run
  /// stands (vegasc --eval with --load-grid or --resume): without channels
  /// its value; with channels the sum of the channels' terms with the
  /// run's weights and maps (alpha() and density()), or alpha = 1/m and
  /// identity maps before any iteration or loaded grid.
  Expected<std::vector<double>> evaluate(std::span<const double> X) const;

  /// The result so far (also after a failed run).
  Result result() const;
  /// The per-iteration table, the way vegas prints its summary(): each
  /// iteration's estimate and the cumulative estimate, chi2/dof and Q
  /// after it (warm-up rows marked), then the result line.
  std::string summary() const;
  /// Asks the run in progress to stop soon; thread-safe (call it from
  /// another thread, or from a callback). Workers take no further tile,
  /// the iteration under way is dropped (a partial iteration would bias
  /// the map and the estimate), and run() returns the result of the
  /// iterations completed with Result::Stopped = Cancelled. The run stays
  /// unfinished: run() with the same arguments continues it, bitwise as
  /// if it had never stopped. A cancel() while no run is in progress
  /// stops the next run() before its first iteration. In a run of several
  /// MPI ranks (IntegratorOptions::Ranks) it takes effect only between
  /// iterations and every rank must be cancelled alike (the ranks would
  /// otherwise wait for one another): stop mpirun instead.
  void cancel();
  /// Whether a call is under way. An integrator does one thing at a time:
  /// run, extend, sample, unweight, setParam, setTarget and the state and
  /// grid files called from another thread while another of them runs
  /// return an error saying so, never wait and never race. An observer of
  /// a run (on its thread) may call checkpointTo, setTarget, saveState and
  /// saveGrid, which take effect between iterations, but not the others.
  /// The accessors (result(), grid(), ...) are for the thread that calls
  /// run() and its observers; cancel() is for any thread.
  bool busy() const;
  /// Called after every iteration (progress, tables), after its checkpoint
  /// is written. An exception it throws leaves run() as it is (the run
  /// stays unfinished, and resumable with the same arguments); every other
  /// failure inside run(), out of memory included, is an error value.
  void onIteration(std::function<void(const IterationRow &)> Observer);
  /// Called by the worker threads as tiles finish, concurrently, so it must
  /// be thread-safe and cheap (throttle any drawing). It cannot change the
  /// result. Not called in a run of several MPI ranks (a rank sees only
  /// its own tiles); onIteration still is.
  void onProgress(std::function<void(const IterationProgress &)> Observer);

  const IntegrandInfo &integrand() const;
  const IntegratorOptions &options() const;
  /// The workers an iteration runs on.
  std::vector<WorkerInfo> devices() const;
  /// What create() noticed but did not refuse (IntegratorNote).
  const std::vector<IntegratorNote> &notes() const;

  /// Event generation (ALGORITHM.md section 7; vf/Events.h). Both need a
  /// trained integrator: run() at least once, then freeze(). Events come
  /// from the frozen map and allocation, each from Philox with its own
  /// counter, so they are the same for any thread count; successive calls
  /// continue the stream (same seed and calls, same events).
  ///
  /// Draws N weighted events and hands them to Callback in batches, in
  /// order, on this thread. The mean of their Weight is the integral.
  Status sample(std::uint64_t N,
                const std::function<void(const EventBatch &)> &Callback);
  /// Draws weighted events until N are accepted with probability
  /// |w| / w_max (w_max from a pass of O.WmaxEvents events of a separate
  /// stream) and hands the accepted ones to Callback, in order. The
  /// statistics report w_max, the efficiency and the overshoot fraction.
  Expected<UnweightStats>
  unweight(std::uint64_t N,
           const std::function<void(const EventBatch &)> &Callback,
           const UnweightOptions &O = {});

private:
  struct Impl;
  explicit Integrator(std::unique_ptr<Impl> I);
  static Expected<std::unique_ptr<Integrator>>
  createUnguarded(IntegrandInfo Integrand, IntegratorOptions Options);
  std::unique_ptr<Impl> P;
};

} // namespace vf

#endif // VF_INTEGRATOR_H
