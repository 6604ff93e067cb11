//===- vf/Integrand.h - What the runtime needs of an integrand --*- C++ -*-===//
//
// The runtime sees a compiled integrand only through this struct: its shape,
// its parameters, its domain (which may depend on parameters), and the entry
// points the compiler produced. No compiler or LLVM type appears here.
//
//===----------------------------------------------------------------------===//
#ifndef VF_INTEGRAND_H
#define VF_INTEGRAND_H

#include "vf/Expected.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

extern "C" {
struct vf_sampler_args;
struct vf_tile_outputs;
}

namespace vf {

/// A histogram the integrand fills (a `hist` statement): its bins per
/// axis (one or two axes) and its first cell among the integrand's cells
/// (the layout of kernels/HistogramCells.h).
struct HistogramSpec {
  std::string Name;
  std::vector<unsigned> Bins;
  unsigned Base = 0;
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

  /// The histograms, in the order of their cells, and the cells in all.
  std::vector<HistogramSpec> Histograms;
  unsigned HistCells = 0;
  /// Each histogram's ranges for the given parameter values: lo and hi of
  /// each axis, histogram after histogram; an error names the statement
  /// whose range is empty.
  std::function<Status(std::span<const double> Params,
                       std::vector<double> &Ranges)>
      HistRanges;

  /// f at Npoints points (x stride Dim, out stride Outputs), the values
  /// the sampler computes there. Called concurrently from worker threads.
  std::function<void(const double *Xs, std::int64_t Npoints,
                     const double *Params, double *Out)>
      Evaluate;
  /// The fused sampling kernel for one tile (host). Called concurrently
  /// from worker threads. A compiled integrand binds its JIT entry point;
  /// a native one (vf/Native.h) binds the native sampler and its callback.
  std::function<void(const vf_sampler_args *Args, unsigned long long Tile,
                     const vf_tile_outputs *Out)>
      SampleTile;
  /// The GPU kernel (runtime/kernels/GpuSampler.c instantiated for this
  /// integrand): its name in the PTX, and the PTX for a target such as
  /// "sm_90", compiled by the module (and cached) when an integrator is set
  /// up for GPUs: once per distinct target, before any GPU is set up.
  /// Empty when the integrand has no GPU code (a native integrand); GPUs
  /// then refuse it.
  std::string GpuKernel;
  std::function<Expected<std::string>(const std::string &Arch)> Ptx;
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

} // namespace vf

#endif // VF_INTEGRAND_H
