//===- tests/unit/runtime/kernels/MappedArgs.h - Stage inputs ---*- C++ -*-===//
//
// The kernel arguments the sampling stages read (SamplerABI.h): a seed and
// iteration for the uniform source, and a map over a box for the channel,
// set up once for the kernel tests that drive the stages directly.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TESTS_UNIT_RUNTIME_KERNELS_MAPPEDARGS_H
#define VF_TESTS_UNIT_RUNTIME_KERNELS_MAPPEDARGS_H

#include "SamplerABI.h"

#include <vector>

/// Arguments for \p Edges (Dim x (Ninc + 1), axis-major) over the box
/// \p Lo + \p Width, with Nstrat strata per axis; they point into the
/// vectors, which must outlive them.
inline vf_sampler_args mappedArgs(vf_u64 Seed, vf_u32 Iteration, unsigned Dim,
                                  vf_u32 Ninc, vf_u32 Nstrat,
                                  const std::vector<double> &Edges,
                                  const std::vector<double> &Lo,
                                  const std::vector<double> &Width) {
  vf_sampler_args A{};
  A.seed = Seed;
  A.iteration = Iteration;
  A.dim = Dim;
  A.nout = 1;
  A.ninc = Ninc;
  A.nstrat = Nstrat;
  A.edges = Edges.data();
  A.box_lo = Lo.data();
  A.box_width = Width.data();
  A.box_volume = 1;
  for (double W : Width)
    A.box_volume *= W;
  return A;
}

/// \p A's inputs for the single-precision kernels: \p Edges, \p Lo and
/// \p Width, A's rounded to float, which must outlive it.
inline void singleInputs(vf_sampler_args &A, const std::vector<float> &Edges,
                         const std::vector<float> &Lo,
                         const std::vector<float> &Width) {
  A.single_edges = Edges.data();
  A.single_lo = Lo.data();
  A.single_width = Width.data();
  A.single_volume = float(A.box_volume);
}

#endif // VF_TESTS_UNIT_RUNTIME_KERNELS_MAPPEDARGS_H
