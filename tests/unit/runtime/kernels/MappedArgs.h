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

#endif // VF_TESTS_UNIT_RUNTIME_KERNELS_MAPPEDARGS_H
