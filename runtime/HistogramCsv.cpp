//===- runtime/HistogramCsv.cpp - Histograms as CSV -----------------------===//

#include "vf/HistogramCsv.h"

#include <charconv>
#include <cmath>

namespace vf {

namespace {

/// The shortest text that reads back as V (an edge of 0.1 is "0.1", not
/// %.17g's 0.10000000000000001); empty for NaN.
std::string num(double V) {
  if (std::isnan(V))
    return "";
  char Buf[40];
  const std::to_chars_result R = std::to_chars(Buf, Buf + sizeof(Buf), V);
  return std::string(Buf, R.ptr);
}

std::string row(const std::string &Name, const std::string &Cell,
                const std::string &Edges, double Value, double Error) {
  return Name + "," + Cell + "," + Edges + "," + num(Value) + "," +
         num(Error) + "\n";
}

} // namespace

std::string histogramsToCsv(const Result &R) {
  std::string Text = "histogram,cell,x_lo,x_hi,y_lo,y_hi,value,error\n";
  for (const Histogram &H : R.Histograms) {
    // Names are identifiers: no quoting needed.
    const HistogramAxis &X = H.Axes[0];
    const std::vector<double> Ex = X.edges();
    const bool TwoD = H.Axes.size() == 2;
    const std::vector<double> Ey = TwoD ? H.Axes[1].edges()
                                        : std::vector<double>{};
    const unsigned Ny = TwoD ? H.Axes[1].Bins : 1;
    for (std::size_t B = 0; B < H.Values.size(); ++B) {
      const std::size_t I = B / Ny, J = B % Ny;
      std::string Cell = TwoD ? "\"" + std::to_string(I) + "," +
                                    std::to_string(J) + "\""
                              : std::to_string(I);
      std::string Edges = num(Ex[I]) + "," + num(Ex[I + 1]) + "," +
                          (TwoD ? num(Ey[J]) + "," + num(Ey[J + 1]) : ",");
      Text += row(H.Name, Cell, Edges, H.Values[B], H.Errors[B]);
    }
    const char *Flows1[] = {"underflow", "overflow"};
    for (std::size_t F = 0; F < H.Flow.size(); ++F)
      Text += row(H.Name, TwoD ? "outside" : Flows1[F], ",,,", H.Flow[F],
                  H.FlowErrors[F]);
  }
  return Text;
}

} // namespace vf
