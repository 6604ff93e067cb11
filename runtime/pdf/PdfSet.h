//===- runtime/pdf/PdfSet.h - An LHAPDF 6 set and its members -*- C++ -*-===//
//
// The host's entry to a set: PdfSet::open finds and reads the .info file
// and checks what this reader supports (Format lhagrid1, the logcubic
// interpolator, the continuation extrapolator); loadMember reads one
// member's grid into its device layout with its alpha_s. A member's own
// metadata (the .dat header) overrides the set's, as in LHAPDF, so an
// alpha_s-variation member gets its own coupling.
//
// PdfMember::Grid and PdfMember::Alpha are what kernels read (GridView.h,
// through a run's block of members, PdfTable.h).
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_PDF_PDFSET_H
#define VF_RUNTIME_PDF_PDFSET_H

#include "pdf/AlphaS.h"
#include "pdf/GridLayout.h"
#include "pdf/InfoFile.h"
#include "pdf/SetPath.h"
#include "vf/Expected.h"

#include <string>
#include <vector>

namespace vf::pdf {

/// One member, ready to evaluate or to upload.
struct PdfMember {
  unsigned Index = 0;
  GridLayout Grid;
  AlphaS Alpha;

  /// x f(x, Q) of PDG id \p Pid (21 or 0: the gluon); Continuation.h says
  /// what happens off the grid.
  double xfx(int Pid, double X, double Q) const;
  double xfxQ2(int Pid, double X, double Q2) const;
  double alphasQ(double Q) const { return Alpha.alphasQ2(Q * Q); }

  /// Bytes a device holds for this member: the grid's arrays and the
  /// alpha_s table.
  std::size_t bytes() const;
};

class PdfSet {
public:
  /// Opens set \p NameOrPath, searched in \p Path (SetPath.h).
  static Expected<PdfSet>
  open(const std::string &NameOrPath,
       const std::vector<std::string> &Path = searchPathFromEnvironment());

  const SetLocation &location() const { return Where; }
  const InfoFile &info() const { return Info; }
  unsigned numMembers() const { return NumMembers; }
  /// The Flavors list, 0 read as 21.
  const std::vector<int> &flavours() const { return Flavours; }

  /// Reads member \p Index; a member past NumMembers, a missing file or a
  /// malformed one is an error naming the file (and line).
  Expected<PdfMember> loadMember(unsigned Index) const;

private:
  SetLocation Where;
  InfoFile Info;
  unsigned NumMembers = 0;
  std::vector<int> Flavours;
};

} // namespace vf::pdf

#endif // VF_RUNTIME_PDF_PDFSET_H
