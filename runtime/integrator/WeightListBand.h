//===- runtime/integrator/WeightListBand.h - A list's band ------*- C++ -*-===//
//
// The band a weight list reports (docs/user-guide.md, "Hadron colliders"):
// the envelope of its entries, or, for a list over a PDF set's members
// (vf::WeightListSpec::Band), the set's uncertainty as LHAPDF 6.5's
// PDFSet::uncertainty computes it at 68.27 % (G. Watt, arXiv:1106.5788,
// eqs. 2.1-2.4), member 0 being the integrand's own value:
//
//   replicas      the replicas' mean +- their standard deviation (N - 1);
//   hessian       central + sqrt(sum_i max(v_2i-1 - v0, v_2i - v0, 0)^2),
//                 central - sqrt(sum_i max(v0 - v_2i-1, v0 - v_2i, 0)^2);
//   symmhessian   central +- sqrt(sum_i (v_i - v0)^2);
//
// Hessian widths times the set's Scale (its ErrorConfLevel to 68.27 %).
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_WEIGHTLISTBAND_H
#define VF_RUNTIME_INTEGRATOR_WEIGHTLISTBAND_H

#include "vf/Integrand.h"

#include <span>

namespace vf {

struct BandRange {
  double Central = 0, Low = 0, High = 0;
};

/// \p S's band from its entries' \p Values and the integrand's \p Central.
BandRange weightListBand(const WeightListSpec &S, double Central,
                         std::span<const double> Values);

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_WEIGHTLISTBAND_H
