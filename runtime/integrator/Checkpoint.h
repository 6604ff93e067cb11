//===- runtime/integrator/Checkpoint.h - Saved states and grids -*- C++ -*-===//
//
// The files behind Integrator::saveState/loadState and saveGrid/loadGrid.
// A checkpoint holds everything the iteration loop needs to continue as if
// it had never stopped, so a resumed run is bitwise the uninterrupted one:
//   - the integrand's identity: name, dim, outputs, module hash;
//   - the options that shape the result: seed, alpha, beta, ninc cap,
//     hypercube cap, non-finite policy; the parameter names and values;
//   - the run plan (iterations, calls, warm-up, iterations done), the
//     Philox iteration word (the random stream's position; it counts every
//     iteration, warm-up too), the frozen flag, the event stream's
//     position (Integrator::sample continues from it);
//   - the map's edges, the allocation (prefix sums of n_h) for the next
//     iteration and the neval it was made for (the per-hypercube moments
//     are not saved: each iteration clears them before use);
//   - every iteration's row and covariance: Stats is rebuilt by adding the
//     same inputs again, so the combined mean, error, chi2 and Q come out
//     identical;
//   - evaluations, wall time and per-device statistics (informational);
//   - the histograms' accumulators (HistogramAverage::state) and their
//     ranges in the last iteration (version 2);
//   - the channel sampled (kernels/Channel.h; version 4);
//   - a multi-channel run's channel options, weights, the other channels'
//     grids and each row's channel rows (version 5).
//
// Format, version 5 (CheckpointVersion; 2 added each row's largest-weight
// share and point, 3 the histograms' state, 4 the channel, 5 the
// channels). Versions 3 and 4 are still read: version 3 files end before
// the channel, which is then 0, the one channel their runs sampled;
// version 4 files before the channels, which they did not have. Little-endian
// binary: the 8-byte magic "VFSTATE\0", a u32 version, the fields in the order
// of CheckpointState (integers as u8/u32/u64, doubles as their IEEE-754 bits in
// a u64, so they round-trip exactly; strings and arrays as a u64 count then the
// items), and a final u64 FNV-1a hash of every byte before it, so a truncated
// or damaged file is refused, never half-read. A grid file is the same framing
// with magic "VFGRID\0\0" (GridVersion 2): integrand name, dim, ninc, edges
// (dim x (ninc + 1), axis-major), then (version 2) a multi-channel run's
// weights and its channels 1 .. m-1's maps (ninc, edges; both empty without
// channels), hash. Version 1 files, which end before the weights, still
// load.
//
// Both are written atomically (files/SafeFiles.h: a temporary beside the
// target, fsync'ed, renamed over it, the folder fsync'ed; only a regular
// file or a new path is replaced, and temporaries of killed writers are
// removed): a reader sees the old file or the new one, never a mixture,
// even after kill -9 or a power cut. Both are read as regular files of a
// bounded size only, and a checkpoint's contents must keep the state's
// invariants (stateProblem), whatever its checksum says.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_CHECKPOINT_H
#define VF_RUNTIME_INTEGRATOR_CHECKPOINT_H

#include "vf/Expected.h"
#include "vf/Integrator.h"
#include "vf/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vf {

inline constexpr std::uint32_t CheckpointVersion = 5;
/// The oldest checkpoint format read (Checkpoint.h: "Format").
inline constexpr std::uint32_t OldestCheckpointVersion = 3;
inline constexpr std::uint32_t GridVersion = 2;
/// The oldest grid format read (version 1: no channels).
inline constexpr std::uint32_t OldestGridVersion = 1;

/// An integrator's whole state, as plain data.
struct CheckpointState {
  // The integrand.
  std::string Name;
  unsigned Dim = 0;
  unsigned Outputs = 1;
  std::string ModuleHash;
  // What shapes the result (Threads is not saved: it cannot change it).
  IntegratorOptions Options;
  std::vector<std::string> ParamNames;
  std::vector<double> Params;
  // Where the loop stands.
  RunPlan Plan;
  unsigned Iteration = 0;
  bool Frozen = false;
  std::uint64_t NextEvent = 0; ///< position of the event stream (sample())
  std::uint64_t Evaluations = 0;
  double Wall = 0;
  // The map: Ninc 0 and no edges before the first iteration.
  unsigned Ninc = 0;
  std::vector<double> Edges;
  // The allocation: no offsets before the first iteration.
  std::uint64_t StrataNeval = 0;
  std::vector<std::uint64_t> Offsets;
  // Every iteration, and its covariance (Outputs x Outputs).
  std::vector<IterationRow> Rows;
  std::vector<std::vector<double>> Covs;
  std::vector<DeviceStats> Devices;
  // Histograms of observables: the combined cells' accumulators and the
  // ranges (lo, hi per axis) they were binned with.
  std::vector<double> Histograms, HistRanges;
  // The channel sampled (kernels/Channel.h): 0 between iterations.
  unsigned Channel = 0;
  // A multi-channel run (version 5; empty without channels): the
  // channels' weights for the next iteration and the grids of channels
  // 1 .. m-1 (channel 0's are the fields above), and the calls each
  // channel's strata were sized for (Strata::sizedFor; 0 before the
  // channel's first iteration). Each row's channel rows are in Rows; the
  // channel options in Options.
  struct ChannelGrid {
    unsigned Ninc = 0;
    std::vector<double> Edges;
    std::uint64_t StrataNeval = 0;
    std::vector<std::uint64_t> Offsets;
  };
  std::vector<double> ChannelAlpha;
  std::vector<ChannelGrid> ChannelGrids;
  std::vector<std::uint64_t> ChannelSizing;
};

/// `S` as the bytes of a checkpoint file.
std::string encodeCheckpoint(const CheckpointState &S);
/// Writes `S` to `Path` atomically.
Status writeCheckpoint(const std::string &Path, const CheckpointState &S);
/// A checkpoint from the bytes of one (a task engine's state in memory),
/// checked as readCheckpoint checks a file; \p Name names them in errors.
Expected<CheckpointState> decodeCheckpoint(std::string Bytes,
                                           const std::string &Name);
/// Reads a checkpoint; errors say whether the file is missing, not a
/// checkpoint, of another version, or damaged.
Expected<CheckpointState> readCheckpoint(const std::string &Path);
/// The first invariant of a state that \p S breaks (StateChecks.cpp), as
/// "FIELD ... (what it should be)", or empty: a checkpoint whose checksum
/// was recomputed over forged contents is refused by what it contradicts.
std::string stateProblem(const CheckpointState &S);

/// Whether a checkpoint `Saved` read from `Path` may be restored into an
/// integrator whose state is `Current`: same integrand, options and
/// parameter values. The error lists every difference, "saved vs this run".
Status checkCompatible(const CheckpointState &Saved,
                       const CheckpointState &Current, const std::string &Path);

/// A trained map on its own, for another run.
struct GridFile {
  std::string Integrand; ///< whose run trained it (informational)
  unsigned Dim = 0;
  unsigned Ninc = 0;
  std::vector<double> Edges; ///< Dim x (Ninc + 1), axis-major
  /// A multi-channel run's (version 2; empty without channels): the
  /// channels' weights, and the maps of channels 1 .. m-1 (channel 0's is
  /// above).
  struct ChannelMap {
    unsigned Ninc = 0;
    std::vector<double> Edges;
  };
  std::vector<double> Alpha;
  std::vector<ChannelMap> OtherMaps;
};

Status writeGrid(const std::string &Path, const GridFile &G);
/// Reads a grid and checks that its edges form a map.
Expected<GridFile> readGrid(const std::string &Path);

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_CHECKPOINT_H
