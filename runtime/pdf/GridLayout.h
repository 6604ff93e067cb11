//===- runtime/pdf/GridLayout.h - A member's grid, flat -------*- C++ -*-===//
//
// One member of a set, laid out for any device: a few flat arrays of
// doubles and one small table, with no pointers inside, so a device
// uploads each array once and interpolates through a GridView of device
// pointers. The arrays are LHAPDF 6.5's KnotArray:
//
//   X, LogX        nx x knots and their logs
//   Q2, LogQ2      nq Q^2 knots of every subgrid, in order (a Q shared by
//                  two subgrids twice) and their logs
//   Values         xf at [ix][iq][f]
//   XCoeffs        the cubic in t = (log x - log x_i) / (log x_{i+1} - log x_i)
//                  on each x interval, [ix][iq][f][a, b, c, d] for
//                  a t^3 + b t^2 + c t + d, precomputed from the values and
//                  their finite-difference slopes in log x, as LHAPDF 6.5
//                  precomputes them: interpolation in x costs one cubic
//   Slot           the flavour index f of each slot (pidSlot), or -1
//   ForcePositive  the set's ForcePositive (0: as is, 1: negative values
//                  become 0, 2: values below 1e-10 become 1e-10)
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_PDF_GRIDLAYOUT_H
#define VF_RUNTIME_PDF_GRIDLAYOUT_H

#include "pdf/GridFile.h"
#include "pdf/GridView.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace vf::pdf {

/// Slots of the flavour table (GridView.h).
inline constexpr int NumSlots = VF_PDF_NUM_SLOTS;

inline int pidSlot(int Pid) { return vf_pdf_pid_slot(Pid); }

/// What a device's interpolation reads: pointers into one GridLayout (or
/// its device copy) and the sizes.
using GridView = vf_pdf_grid;

struct GridLayout {
  std::vector<double> X, LogX, Q2, LogQ2, Values, XCoeffs;
  std::array<std::int32_t, NumSlots> Slot{};
  std::uint32_t NumX = 0, NumQ2 = 0, NumFlavours = 0;
  std::int32_t ForcePositive = 0;

  /// The layout of \p Grid, its coefficients computed.
  static GridLayout fromGrid(const MemberGrid &Grid, int ForcePositive);

  /// Bytes of the arrays (what a device holds for this member).
  std::size_t bytes() const;

  GridView view() const;
};

} // namespace vf::pdf

#endif // VF_RUNTIME_PDF_GRIDLAYOUT_H
