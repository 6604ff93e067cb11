//===- vf/Integrand.h - What the runtime needs of an integrand --*- C++ -*-===//
//
// The runtime sees a compiled integrand only through this struct: its shape,
// its parameters, its domain (which may depend on parameters), its values
// at given points, and, as an opaque pointer, the code the devices run. No
// compiler, LLVM or kernel type appears here.
//
//===----------------------------------------------------------------------===//
#ifndef VF_INTEGRAND_H
#define VF_INTEGRAND_H

#include "vf/Derived.h"
#include "vf/Expected.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace vf {

/// What the devices run for an integrand (the runtime's and the
/// compiler's, runtime/kernels/IntegrandCode.h).
struct IntegrandCode;

/// A histogram the integrand fills (a `hist` statement): its bins per
/// axis (one or two axes) and its first cell among the integrand's cells
/// (the layout of kernels/HistogramCells.h).
struct HistogramSpec {
  std::string Name;
  std::vector<unsigned> Bins;
  unsigned Base = 0;
};

/// How a weight list's entries make its band: their envelope, or the error
/// band of the PDF set whose members they are, by its ErrorType
/// (docs/user-guide.md, "Hadron colliders").
enum class WeightBand { Envelope, Replicas, Hessian, SymmHessian };

/// "envelope", "replicas", "hessian" or "symmhessian" (the JSON's and the
/// event files' spelling).
inline const char *weightBandName(WeightBand B) {
  switch (B) {
  case WeightBand::Replicas:
    return "replicas";
  case WeightBand::Hessian:
    return "hessian";
  case WeightBand::SymmHessian:
    return "symmhessian";
  default:
    return "envelope";
  }
}

/// A `weights` list (docs/language.md, "Weight lists"), its index running
/// over First .. First + Entries - 1 (the list's `lo..hi`): its entries
/// are the cells Base .. Base + Entries - 1, after the histograms' cells;
/// the entries' differences from the integrand's value (g_k - g) the cells
/// Differences .. Differences + Entries - 1, and the integrand's value
/// on the same estimator the cell Central (kernels/HistSums.h).
struct WeightListSpec {
  std::string Name;
  unsigned Entries = 0;
  unsigned Base = 0;
  std::int64_t First = 0;
  WeightBand Band = WeightBand::Envelope;
  /// Of a PDF band: entry e is member First + e of the set, whose members
  /// 1 .. ErrorMembers make the band (member 0 is the integrand's own
  /// value), and Scale takes the set's confidence level to 68.27 %.
  unsigned ErrorMembers = 0;
  double Scale = 1;
  unsigned Differences = 0;
  unsigned Central = 0;
};

struct IntegrandInfo {
  std::string Name;
  unsigned Dim = 0;
  unsigned Outputs = 1;
  std::vector<std::string> ParamNames;
  std::vector<double> ParamDefaults;

  /// The box [lo, hi] per dimension for the given parameter values; an
  /// error names the empty or inverted interval.
  std::function<Status(std::span<const double> Params, std::vector<double> &Lo,
                       std::vector<double> &Hi)>
      Domain;

  /// The program's `derived` items that use this integrand, in source
  /// order: results report them (vf/Derived.h).
  std::vector<DerivedSpec> Derived;

  /// The histograms, in the order of their cells, and the cells in all.
  std::vector<HistogramSpec> Histograms;
  unsigned HistCells = 0;
  /// The weight lists in source order; HistCells counts their cells too
  /// (VF_WEIGHT_CELLS of all their entries), which the sampler sums as
  /// histogram cells.
  std::vector<WeightListSpec> WeightLists;
  /// Each histogram's ranges for the given parameter values: lo and hi of
  /// each axis, histogram after histogram; an error names the statement
  /// whose range is empty.
  std::function<Status(std::span<const double> Params,
                       std::vector<double> &Ranges)>
      HistRanges;

  /// A multi-channel integrand's channels in source order (empty for an
  /// ordinary one): the kernels' vf_sampler_args::channel indexes them,
  /// and their weights alpha_0 .. alpha_m-1 follow the user's parameters
  /// in the block every kernel launch passes.
  std::vector<std::string> Channels;
  /// Some channel reads alpha(): the weights then adapt by Kleiss and
  /// Pittau's update (runtime/integrator/ChannelWeights.h).
  bool ChannelWeightsUsed = false;
  /// Some channel calls density(): the parameter block then also carries
  /// every channel's map (RunState::kernelParams).
  bool ChannelDensityUsed = false;

  /// f at Npoints points (x stride Dim, out stride Outputs), the values
  /// the sampler computes there; of a multi-channel integrand, the sum of
  /// its channels at alpha = 1/m. Params: the user's parameters alone.
  /// Called concurrently from worker threads.
  std::function<void(const double *Xs, std::int64_t Npoints,
                     const double *Params, double *Out)>
      Evaluate;
  /// The entries of every weight list at Npoints points (out stride: the
  /// lists' entries in all; list after list, the index rising), as the
  /// sampler's values are computed there (times the maps' Jacobian on an
  /// infinite domain); for events. Null without lists. Called
  /// concurrently from worker threads.
  std::function<void(const double *Xs, std::int64_t Npoints,
                     const double *Params, double *Out)>
      EvaluateWeights;
  /// Of a multi-channel integrand: channel Channel's term at Npoints
  /// points, the values its kernel computes there, from the kernels'
  /// parameter block (the user's parameters, then alpha_0 .. alpha_m-1);
  /// for the events and a non-finite sample's report. Null without
  /// channels. Called concurrently from worker threads.
  std::function<void(unsigned Channel, const double *Xs, std::int64_t Npoints,
                     const double *Params, double *Out)>
      EvaluateChannel;
  /// The same integrand with its arithmetic in single precision
  /// (IntegratorOptions::Arithmetic), compiled on the first call, once per
  /// module, from what its module kept: what an integrator set up for F32
  /// runs in place of this one. Null where there is none (a native
  /// integrand; the single-precision one itself).
  std::function<Expected<IntegrandInfo>()> Single;
  /// This integrand's code is the single-precision one (compiled so, or
  /// made by Single).
  bool SingleCode = false;
  /// The code the devices run: for a compiled integrand, bound by the
  /// module; for a native one (vf/Native.h), the native sampler with its
  /// callback. Null: the integrand cannot be integrated.
  std::shared_ptr<const IntegrandCode> Code;
  /// Identifies the compiled code (source, options, compiler): checkpoints
  /// refuse a state from another integrand.
  std::string ModuleHash;
  /// The files the integrand was compiled from (vf::Module::inputFiles):
  /// the integrator's own outputs (checkpoints, grids, event files) never
  /// replace one of them.
  std::vector<std::string> SourceFiles;
  /// Keeps whatever owns the entry points (the compiled module) alive.
  std::shared_ptr<const void> Owner;
};

/// The entries of \p I's weight lists in all (EvaluateWeights' stride).
inline unsigned weightEntries(const IntegrandInfo &I) {
  unsigned N = 0;
  for (const WeightListSpec &W : I.WeightLists)
    N += W.Entries;
  return N;
}

/// Whether \p I has code for GPUs (a compiled integrand does; a native
/// one does not, and runs on the CPU only).
bool hasGpuCode(const IntegrandInfo &I);

} // namespace vf

#endif // VF_INTEGRAND_H
