//===- bench/compile/GenerateMatrixElement.h - A large C++ integrand -*- C++ -*-===//
//
// Writes a C++ integrand of about 1000 lines shaped like generated matrix
// element code: a small complex type, \p Diagrams functions of about 20
// lines of complex arithmetic and math calls each (a propagator, couplings,
// a spinor-like product), summed coherently and squared. Used by
// cxx_compile_latency (docs/benchmarks.md, "Compile latency of C++").
//
//===----------------------------------------------------------------------===//
#ifndef VF_BENCH_COMPILE_GENERATEMATRIXELEMENT_H
#define VF_BENCH_COMPILE_GENERATEMATRIXELEMENT_H

#include <string>

namespace vf {

inline std::string generateMatrixElement(int Diagrams) {
  std::string S = "#include \"vf/integrand.h\"\n\nnamespace {\n\n"
                  "struct Cx {\n  double Re, Im;\n};\n\n"
                  "Cx add(Cx A, Cx B) { return {A.Re + B.Re, A.Im + B.Im}; }\n"
                  "Cx mul(Cx A, Cx B) {\n"
                  "  return {A.Re * B.Re - A.Im * B.Im, A.Re * B.Im + A.Im * B.Re};\n"
                  "}\n"
                  "Cx scale(double S, Cx A) { return {S * A.Re, S * A.Im}; }\n"
                  "Cx inv(Cx A) {\n  double D = A.Re * A.Re + A.Im * A.Im;\n"
                  "  return {A.Re / D, -A.Im / D};\n}\n\n";
  for (int K = 0; K < Diagrams; ++K) {
    const std::string N = std::to_string(K), M = std::to_string(K % 7 + 1);
    S += "/// Diagram " + N + ".\n";
    S += "Cx diagram" + N + "(const double *x, double s) {\n";
    S += "  const double m2 = 0.01 * " + M + " * s;\n";
    S += "  const double w = 0.002 * " + M + " * s;\n";
    S += "  const double t = -s * x[" + std::to_string(K % 4) + "];\n";
    S += "  const double u = -s - t;\n";
    S += "  Cx prop = inv(Cx{t - m2, w});\n";
    S += "  Cx coupling{cos(0.1 * " + M + " * x[1]), sin(0.2 * x[2])};\n";
    S += "  double phase = 2 * M_PI * x[3] + " + N + " * 0.01;\n";
    S += "  Cx spinor{sqrt(-t) * cos(phase), sqrt(-u) * sin(phase)};\n";
    S += "  Cx current = mul(spinor, coupling);\n";
    S += "  current = scale(exp(-0.1 * x[0] * " + M + "), current);\n";
    S += "  Cx vertex = add(current, Cx{log1p(x[1] * " + M + "), 0});\n";
    S += "  Cx amp = mul(mul(vertex, prop), coupling);\n";
    S += "  double damp = 1 / (1 + pow(x[2], " + M + ".5));\n";
    S += "  amp = scale(damp, amp);\n";
    S += "  if (x[0] > 0.999)\n";
    S += "    amp = scale(0.5, amp);\n";
    S += "  return amp;\n";
    S += "}\n\n";
  }
  S += "} // namespace\n\n";
  S += "VF_INTEGRAND(me, 4, 1, \"s = 100\") {\n  Cx sum{0, 0};\n";
  for (int K = 0; K < Diagrams; ++K)
    S += "  sum = add(sum, diagram" + std::to_string(K) + "(x, params[0]));\n";
  S += "  out[0] = sum.Re * sum.Re + sum.Im * sum.Im;\n}\n";
  return S;
}

} // namespace vf

#endif // VF_BENCH_COMPILE_GENERATEMATRIXELEMENT_H
