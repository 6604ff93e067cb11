//===- runtime/output/ReportReference.cpp - References from CSV -----------===//
//
// A reference for the report's histograms, read from the CSV table vegasc
// --hist-csv writes (another run's histograms, or a prediction written in
// that form). Columns are found by their header's names, so a table of
// only histogram,x_lo,x_hi,value (and error) reads as well; rows of 2-D
// histograms (a y_lo) and the flow rows (no edges) are skipped. A 1-D
// histogram's rows must be in order and contiguous: each bin starts where
// the previous one ended.
//
//===----------------------------------------------------------------------===//

#include "vf/Report.h"

#include <cstdlib>
#include <sstream>

namespace vf {

namespace {

/// The fields of a CSV line; a quoted field may hold commas.
std::vector<std::string> fields(const std::string &Line) {
  std::vector<std::string> F(1);
  bool Quoted = false;
  for (char C : Line) {
    if (C == '"')
      Quoted = !Quoted;
    else if (C == ',' && !Quoted)
      F.emplace_back();
    else if (C != '\r')
      F.back() += C;
  }
  return F;
}

bool number(const std::string &S, double &V) {
  char *End = nullptr;
  V = std::strtod(S.c_str(), &End);
  return !S.empty() && End == S.c_str() + S.size();
}

struct Columns {
  int Name = -1, XLo = -1, XHi = -1, YLo = -1, Value = -1, Error = -1;
};

Columns columns(const std::vector<std::string> &Header) {
  Columns C;
  for (int I = 0; I < int(Header.size()); ++I) {
    const std::string &H = Header[I];
    int *Slot = H == "histogram" ? &C.Name
                : H == "x_lo"    ? &C.XLo
                : H == "x_hi"    ? &C.XHi
                : H == "y_lo"    ? &C.YLo
                : H == "value"   ? &C.Value
                : H == "error"   ? &C.Error
                                 : nullptr;
    if (Slot)
      *Slot = I;
  }
  return C;
}

std::string at(const std::vector<std::string> &F, int I) {
  return I >= 0 && I < int(F.size()) ? F[I] : "";
}

} // namespace

Expected<std::map<std::string, ReferenceCurve>>
readReferenceCsv(const std::string &Text) {
  std::istringstream In(Text);
  std::string Line;
  std::getline(In, Line);
  const Columns C = columns(fields(Line));
  if (C.Name < 0 || C.XLo < 0 || C.XHi < 0 || C.Value < 0)
    return Error("reference CSV: line 1 must name the columns histogram, "
                 "x_lo, x_hi and value (and error), as --hist-csv writes");
  std::map<std::string, ReferenceCurve> Refs;
  for (unsigned N = 2; std::getline(In, Line); ++N) {
    const std::vector<std::string> F = fields(Line);
    if (Line.empty() || !at(F, C.YLo).empty() ||
        (at(F, C.XLo).empty() && at(F, C.XHi).empty()))
      continue;
    double Lo, Hi, V, E = 0;
    const std::string Err = at(F, C.Error);
    if (!number(at(F, C.XLo), Lo) || !number(at(F, C.XHi), Hi) ||
        !number(at(F, C.Value), V) || (!Err.empty() && !number(Err, E)) ||
        !(Hi > Lo))
      return Error("reference CSV: line " + std::to_string(N) +
                   ": expected numbers x_lo < x_hi, a value and an error");
    ReferenceCurve &R = Refs[at(F, C.Name)];
    if (R.Edges.empty())
      R.Edges.push_back(Lo);
    else if (Lo != R.Edges.back())
      return Error("reference CSV: line " + std::to_string(N) + ": bin of '" +
                   at(F, C.Name) + "' starts at " + at(F, C.XLo) +
                   ", not where the previous one ended");
    R.Edges.push_back(Hi);
    R.Values.push_back(V);
    R.Errors.push_back(E);
  }
  return Refs;
}

} // namespace vf
