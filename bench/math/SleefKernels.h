//===- bench/math/SleefKernels.h - SLEEF loops for the benchmark -*- C++ -*-===//
//
// Array loops over SLEEF's vectorised 1-ulp functions, in translation units
// compiled for AVX2 and AVX-512 respectively (sleef.h declares the vector
// functions only when the ISA is enabled); the benchmark picks the widest
// the CPU supports.
//
//===----------------------------------------------------------------------===//

#ifndef VF_BENCH_MATH_SLEEFKERNELS_H
#define VF_BENCH_MATH_SLEEFKERNELS_H

#include <cstddef>

namespace vf::bench {

/// Out[i] = f(In[i]) (pow: f(In[i], In2[i])) for N a multiple of 8.
using SleefLoop = void (*)(double *Out, const double *In, const double *In2,
                           size_t N);

struct SleefKernels {
  SleefLoop Exp, Log, Sin, Cos, Pow;
};

SleefKernels sleefAVX2();    ///< Sleef_*d4_u10
SleefKernels sleefAVX512();  ///< Sleef_*d8_u10

} // namespace vf::bench

#endif // VF_BENCH_MATH_SLEEFKERNELS_H
