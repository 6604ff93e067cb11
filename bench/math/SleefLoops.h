//===- bench/math/SleefLoops.h - out[i] = f(in[i]) over SLEEF vectors -*- C++ -*-===//
//
// The loops of the SLEEF kernels, for one vector width: each including file
// is compiled with its ISA's flags and names its load, store and width.
// sleef.h declares the functions with a const-qualified return type, so
// they are taken as `auto` template arguments.
//
//===----------------------------------------------------------------------===//
#ifndef VF_BENCH_MATH_SLEEFLOOPS_H
#define VF_BENCH_MATH_SLEEFLOOPS_H

#include <cstddef>

namespace vf::bench {

template <auto Load, auto Store, std::size_t Width> struct SleefLoops {
  template <auto F>
  static void unary(double *Out, const double *In, const double *,
                    std::size_t N) {
    for (std::size_t I = 0; I < N; I += Width)
      Store(Out + I, F(Load(In + I)));
  }
  template <auto F>
  static void binary(double *Out, const double *In, const double *In2,
                     std::size_t N) {
    for (std::size_t I = 0; I < N; I += Width)
      Store(Out + I, F(Load(In + I), Load(In2 + I)));
  }
};

} // namespace vf::bench

#endif // VF_BENCH_MATH_SLEEFLOOPS_H
