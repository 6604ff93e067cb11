//===- vf/HistogramCsv.h - Histograms as CSV --------------------*- C++ -*-===//
//
// A run's histograms as one CSV table (docs/json.md, "Histograms as CSV"):
//   histogram,cell,x_lo,x_hi,y_lo,y_hi,value,error
// one row per bin (cell "3" in 1-D, "3,1" quoted in 2-D; y columns empty
// in 1-D), then the flow cells ("underflow", "overflow"; in 2-D
// "outside", with empty edges). Numbers have 17 significant digits.
//
//===----------------------------------------------------------------------===//
#ifndef VF_HISTOGRAMCSV_H
#define VF_HISTOGRAMCSV_H

#include "vf/Result.h"

#include <string>

namespace vf {

std::string histogramsToCsv(const Result &R);

} // namespace vf

#endif // VF_HISTOGRAMCSV_H
