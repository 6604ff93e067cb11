//===- runtime/integrator/WeightRatios.h - Ratios to the value -*- C++ -*-===//
//
// A weight list's entries as ratios I_k / I to the integrand's own value,
// with errors that use the entries' correlation with it: the Σw_k·w of
// LANGUAGE.md's weight lists, accumulated as one more cell per entry of
// g_k - g (docs/algorithm.md, "Weight lists"). A variation is known
// relative to the central value much better than alone, since both move
// together from sample to sample.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_WEIGHTRATIOS_H
#define VF_RUNTIME_INTEGRATOR_WEIGHTRATIOS_H

#include "vf/Integrand.h"
#include "vf/Result.h"

namespace vf {

class HistogramAverage;

/// Fills \p L's Ratios and RatioErrors from the cells of \p S in \p Avg.
void addWeightRatios(const HistogramAverage &Avg, const WeightListSpec &S,
                     WeightListResult &L);

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_WEIGHTRATIOS_H
