//===- runtime/kernels/NativeSampler.c - Sampler.c for native callbacks -*- C -*-===//
//
// The one fused kernel, Sampler.c, compiled natively into vfruntime with its
// integrand hole replaced by a batch callback (NativeSampler.h). Keeping a
// single source means a native integrand draws exactly the points, weights
// and sums a compiled one would. Built with -ffp-contract=off like the
// bitcode, so no a*b+c is fused here that is not fused there.
//
//===----------------------------------------------------------------------===//

#define VF_SAMPLER_NATIVE 1
#include "Sampler.c"
