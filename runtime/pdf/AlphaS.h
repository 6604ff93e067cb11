//===- runtime/pdf/AlphaS.h - A set's alpha_s(Q), as LHAPDF 6.5 -*- C++ -*-===//
//
// The strong coupling a set declares with AlphaS_Type, as LHAPDF 6.5
// computes it:
//
//   ipol      AlphaS_Qs / AlphaS_Vals: a cubic Hermite in log Q^2 with
//             finite-difference slopes, one piece per subgrid (a repeated
//             Q starts one, at a flavour threshold); below the first knot a
//             power law through the first two distinct knots, above the
//             last the last value; a result of magnitude >= 2 is
//             DBL_MAX, as LHAPDF marks a divergence. One difference: in a
//             subgrid of two knots LHAPDF reads past the subgrid for the
//             upper slope; here that slope is the interval's own.
//   analytic  the PDG expansion in 1/ln(Q^2/Lambda^2) up to AlphaS_OrderQCD
//             (1: one loop ... 4: four loops; 0: AlphaS_MZ), with
//             AlphaS_Lambda3/4/5 (the nearest one at or below the active
//             flavour number), flavour thresholds at the quark masses
//             (or the AlphaS_Threshold*/Threshold* keys), AlphaS_FlavorScheme
//             and AlphaS_NumFlavors.
//
// Every other type ("ode", ...) is an error naming the type and the line.
// The tables are flat arrays, so a device can take them as the grids; the
// evaluation is AlphaSCoupling.c's, the same source on every device.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_PDF_ALPHAS_H
#define VF_RUNTIME_PDF_ALPHAS_H

#include "pdf/AlphaSCoupling.h"
#include "pdf/InfoFile.h"
#include "vf/Expected.h"

#include <array>
#include <vector>

namespace vf::pdf {

struct AlphaS {
  enum class Kind { Ipol, Analytic } Type = Kind::Ipol;

  /// ipol: the knots (Q^2) and values; a knot repeated starts a subgrid.
  std::vector<double> Q2, LogQ2, Values;

  /// analytic: per active flavour number 0..6, Lambda (0 where unset) and
  /// the threshold (GeV) at which that flavour becomes active.
  std::array<double, 7> Lambda{}, Threshold{};
  int Order = 4;
  int NfMin = 0, NfMax = 0;
  int FixedFlavours = -1; ///< the flavour number's cap (both schemes)
  bool FixedScheme = false;
  double AlphaSMZ = 0;

  /// Reads the AlphaS_* keys of \p Info (a member's metadata over its set's).
  static Expected<AlphaS> fromInfo(const InfoFile &Info);

  double alphasQ2(double Q2Value) const;

  /// What a kernel reads: pointers into this object's tables.
  vf_pdf_alphas view() const;
};

} // namespace vf::pdf

#endif // VF_RUNTIME_PDF_ALPHAS_H
