//===- runtime/pdf/GridFile.h - One member's lhagrid1 file -*- C++ -*-===//
//
// A member file (SET_NNNN.dat) in LHAPDF 6's "lhagrid1" format: a header
// block of metadata, then one block per subgrid, each ended by a line
// "---":
//
//   x knots (increasing)          the same in every subgrid
//   Q knots (increasing)          a subgrid's first knot >= the last one's
//   flavour ids                   the same in every subgrid; 0 is 21
//   nx * nq lines of xf values    x outer, Q inner, one value per flavour
//
// readMemberGrid checks all of it and keeps the subgrids' Q knots one after
// the other (a knot shared by two subgrids appears twice, each with its own
// values), which is how LHAPDF 6.5 stores them and how its interpolator
// finds the subgrid edges. Every error names the file and line.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_PDF_GRIDFILE_H
#define VF_RUNTIME_PDF_GRIDFILE_H

#include "pdf/InfoFile.h"
#include "vf/Expected.h"

#include <string>
#include <string_view>
#include <vector>

namespace vf::pdf {

struct MemberGrid {
  std::vector<double> X;      ///< x knots
  std::vector<double> Q;      ///< Q knots of every subgrid, in order
  std::vector<int> Flavours;  ///< PDG ids as in the file, 0 read as 21
  std::vector<double> Values; ///< xf at [ix][iq][flavour]
  InfoFile Header;            ///< the member's own metadata
};

/// Reads \p Text, the contents of \p File; every flavour must be one of
/// \p SetFlavours (the .info file's Flavors, 0 read as 21).
Expected<MemberGrid> parseMemberGrid(std::string_view Text,
                                     const std::string &File,
                                     const std::vector<int> &SetFlavours);

} // namespace vf::pdf

#endif // VF_RUNTIME_PDF_GRIDFILE_H
