//===- runtime/pdf/ErrorType.h - A set's error members ----------*- C++ -*-===//
//
// What LHAPDF 6.5's PDFSet::uncertainty reads of a set: its ErrorType
// (`replicas`, `hessian` with pairs of members, `symmhessian`, each
// possibly followed by `+PAR` parts, every one a pair of parameter
// variations at the end of the set, as `+as` for alpha_s) and its
// ErrorConfLevel (68.27 % unless given; replicas are taken as one sigma).
// A weight list over a set's members gets its band from this
// (runtime/integrator/WeightListBand.h); the parameter variations are
// left out of the band.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_PDF_ERRORTYPE_H
#define VF_RUNTIME_PDF_ERRORTYPE_H

#include "pdf/PdfSet.h"
#include "vf/Integrand.h"

#include <string>

namespace vf::pdf {

struct ErrorMembers {
  WeightBand Band = WeightBand::Envelope;
  /// Members 1 .. Count are the band's (replicas or eigenvector
  /// directions); the parameter variations follow.
  unsigned Count = 0;
  /// Multiplies the band to give 68.27 % (one sigma): 1 / z where z is
  /// the set's level as a number of standard deviations.
  double Scale = 1;
  /// Why the set has no band this reader computes (Band is then
  /// Envelope): an ErrorType it does not know, too few members, an odd
  /// number of Hessian members, a level outside (0, 100).
  std::string Why;
};

/// \p Set's error members by its .info file.
ErrorMembers errorMembers(const PdfSet &Set);

/// The z with P(|N(0,1)| < z) = \p Level (a fraction in (0, 1)).
double standardNormalHalfWidth(double Level);

} // namespace vf::pdf

#endif // VF_RUNTIME_PDF_ERRORTYPE_H
