//===- runtime/kernels/IntegrandHooks.h - The kernels' holes ------*- C -*-===//
//
// The fused kernels (Sampler.c, GpuSampler.c) are compiled to bitcode once
// for every integrand, so what depends on the integrand is left as holes:
// external functions the compiler replaces, per integrand, by its code and
// constants (compiler/bitcode/SamplerKernel.cpp, cloneKernel). Both
// kernels declare the holes from this one table, and the compiler finds
// them by the names the same table gives, so a hole cannot be renamed,
// added or retyped on one side only.
//
// The holes (a kernel uses those it needs; a hole it never calls leaves
// nothing in its bitcode):
//   integrand_fast          the integrand on its math functions' fast paths
//                           (compiler/bitcode/FastIntegrand.h): *slow
//                           becomes 1 where any call needed its slow path,
//                           and out is then meaningless. Slow paths called
//                           from the host's batch loop were calls in the
//                           loop, and every vector register is
//                           caller-saved, so each value live across one of
//                           them was kept on the stack, on the fast path
//                           too (docs/sampling-engine.md, "Sixth round");
//                           on the GPU their branches held registers across
//                           the whole kernel.
//   integrand_exact         the integrand itself, out of line, which
//                           recomputes the samples whose flag was raised.
//   integrand_strided_fast  (host) the fast integrand reading coordinate d
//                           at x + d * x_stride() (StridedIntegrand.h).
//   dim, nout, nhist        the dimension, outputs and histograms.
//   nweights                the weight-list entries the integrand writes
//                           after its histograms' cells.
//   nparams                 (host) how many run-time parameters the
//                           integrand reads, when the tile may copy them to
//                           its stack (0: it reads them where they are).
//   x_stride                (host) the stride of integrand_strided_fast; 0
//                           where the compiler could not make one, and x
//                           stays sample-major.
//   wide_vectors            (host) the block step's form (BlockSums.h):
//                           lane-parallel (1) or run by run (0), as the
//                           compiler's calibration chose for the CPU; the
//                           same results either way.
//   map_gathers             (host) whether the map's edges are gathered
//                           (ChannelX8.h, vf_map_edges_x8), as the
//                           compiler chose for the CPU; the same results
//                           either way.
//   unit_box                (host) whether the box is the unit cube for
//                           every parameter value (each interval [0, 1] in
//                           constants, or infinite): the map's points are
//                           then x as they are (ChannelX8.h,
//                           vf_map_axis_x8); the same results either way.
//   channel                 the channel the instance samples (0 without
//                           channels; a multi-channel integrand's kernel is
//                           cloned per channel): where its uniforms start
//                           (UniformSource.h), a constant there.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_INTEGRANDHOOKS_H
#define VF_RUNTIME_KERNELS_INTEGRANDHOOKS_H

// X(Enum, symbol, return type, parenthesised parameters)
#define VF_FOR_EACH_INTEGRAND_HOOK(X)                                          \
  X(IntegrandFast, vf_user_integrand_fast, void,                               \
    (const double *x, const double *params, double *out, int *slow))           \
  X(IntegrandExact, vf_user_integrand_exact, void,                             \
    (const double *x, const double *params, double *out))                      \
  X(IntegrandStridedFast, vf_user_integrand_strided_fast, void,                \
    (const double *x, const double *params, double *out, int *slow))           \
  X(Dim, vf_user_dim, unsigned, (void))                                        \
  X(Nout, vf_user_nout, unsigned, (void))                                      \
  X(Nhist, vf_user_nhist, unsigned, (void))                                    \
  X(Nweights, vf_user_nweights, unsigned, (void))                              \
  X(Nparams, vf_user_nparams, unsigned, (void))                                \
  X(XStride, vf_user_x_stride, unsigned, (void))                               \
  X(WideVectors, vf_user_wide_vectors, unsigned, (void))                       \
  X(MapGathers, vf_user_map_gathers, unsigned, (void))                         \
  X(UnitBox, vf_user_unit_box, unsigned, (void))                               \
  X(Channel, vf_user_channel, unsigned, (void))

// The compiler (C++) reads only the table; the kernels declare the holes.
#ifndef __cplusplus
#define VF_INTEGRAND_HOOK_DECL(E, Sym, Ret, Params) extern Ret Sym Params;
VF_FOR_EACH_INTEGRAND_HOOK(VF_INTEGRAND_HOOK_DECL)
#undef VF_INTEGRAND_HOOK_DECL
#endif

#endif // VF_RUNTIME_KERNELS_INTEGRANDHOOKS_H
