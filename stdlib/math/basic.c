//===- stdlib/math/basic.c - sqrt, floor, ceil, fabs ----------------------===//
//
// The functions both targets implement exactly in hardware: each builtin
// lowers to an LLVM intrinsic (llvm.sqrt, llvm.floor, llvm.ceil, llvm.fabs),
// which x86-64 (SSE2/SSE4.1/AVX) and NVPTX (sqrt.rn, cvt.rmi, cvt.rpi, abs)
// lower without a libcall. sqrt is correctly rounded on both.
//
//===----------------------------------------------------------------------===//

#include "internal.h"

double vf_sqrt(double X) { return __builtin_sqrt(X); }

double vf_floor(double X) { return __builtin_floor(X); }

double vf_ceil(double X) { return __builtin_ceil(X); }

double vf_fabs(double X) { return __builtin_fabs(X); }
