//===- runtime/HistogramAxis.cpp - A histogram axis's bin edges -----------===//
//
// Out of line, and built without contraction (CMakeLists.txt), so that an
// embedding program's compiler flags cannot fuse the edge formula into an
// fma and report edges the compiled binning does not use.
//
//===----------------------------------------------------------------------===//

#include "vf/Result.h"

#include "HistogramCells.h"

namespace vf {

std::vector<double> HistogramAxis::edges() const {
  const double P = vf_hist_decimal_scale(Lo, Hi, Bins);
  std::vector<double> E;
  for (unsigned I = 0; I <= Bins; ++I)
    E.push_back(vf_hist_edge_at(Lo, Hi, I, Bins, P));
  return E;
}

} // namespace vf
