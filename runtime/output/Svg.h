//===- runtime/output/Svg.h - A small SVG plotter ---------------*- C++ -*-===//
//
// The report's drawing, kept apart from its numbers (Report.cpp): a plot
// area with linear axes (or a logarithmic y axis) and ticks, and marks in
// data coordinates - points with error bars, polylines, horizontal lines,
// rectangles (bars, bands and heat map cells, with a hover text). The
// result is an <svg> element with an id, self-contained.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_OUTPUT_SVG_H
#define VF_RUNTIME_OUTPUT_SVG_H

#include <string>
#include <vector>

namespace vf {

class SvgPlot {
public:
  /// A Width x Height plot of [X0, X1] x [Y0, Y1] (widened if empty).
  SvgPlot(std::string Id, double X0, double X1, double Y0, double Y1,
          int Width = 640, int Height = 300);
  /// A logarithmic y axis over [Y0, Y1] (both > 0), ticks at decades; set
  /// before anything is drawn. Marks at or below 0 are clipped at the
  /// bottom.
  void logY();
  void points(const std::vector<double> &X, const std::vector<double> &Y,
              const std::vector<double> &Err, const std::string &Colour,
              double Shift = 0);
  void line(const std::vector<double> &X, const std::vector<double> &Y,
            const std::string &Colour, bool Dashed = false);
  void hline(double Y, const std::string &Colour, const std::string &Label);
  /// \p Tip, if given, is shown on hover (an SVG <title>).
  void rect(double X0, double X1, double Y0, double Y1,
            const std::string &Colour, const std::string &Tip = "");
  void labels(const std::string &X, const std::string &Y);
  std::string str() const;

private:
  double px(double X) const;
  double py(double Y) const;
  /// The y coordinate on the axis' scale (log10 Y on a log axis).
  double scaleY(double Y) const;
  std::string Id, Body, XLabel, YLabel;
  double X0, X1, Y0, Y1;
  int W, H;
  bool LogY = false;
};

/// An sRGB colour from blue (0) to yellow (1), for heat maps.
std::string heatColour(double T);

} // namespace vf

#endif // VF_RUNTIME_OUTPUT_SVG_H
