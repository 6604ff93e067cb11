//===- runtime/integrator/IncompleteGamma.h - chi2 to Q ---------*- C++ -*-===//
//
// The regularised upper incomplete gamma function, and through it the
// probability Q that chi2 with dof degrees of freedom exceeds an observed
// value: Q = Gamma(dof/2, chi2/2) / Gamma(dof/2). Stats reports it for the
// iterations' agreement (Stats.h); it is a special function, not a
// statistic, so it has its own file and its own tests.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_INCOMPLETEGAMMA_H
#define VF_RUNTIME_INTEGRATOR_INCOMPLETEGAMMA_H

namespace vf {

/// Q(a, x) = Gamma(a, x) / Gamma(a), the regularised upper incomplete gamma
/// function, for a > 0, x >= 0 (series for x < a + 1, continued fraction
/// otherwise). NaN for arguments outside that range.
double gammaQ(double a, double x);

/// The probability that chi2 with `dof` degrees of freedom exceeds `chi2`:
/// gammaQ(dof/2, chi2/2); 1 when dof = 0.
double chi2Q(double chi2, double dof);

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_INCOMPLETEGAMMA_H
