//===- stdlib/math/basicf.c - sqrtf, floorf, ceilf, fabsf -----------------===//
//
// As basic.c, in single precision: each builtin lowers to an LLVM intrinsic
// (llvm.sqrt.f32, llvm.floor.f32, ...) that x86-64 and NVPTX (sqrt.rn.f32,
// cvt.rmi.f32.f32, ...) implement exactly; sqrtf is correctly rounded on
// both, subnormals included (NVPTX's .rn without .ftz).
//
//===----------------------------------------------------------------------===//

#include "internalf.h"

float vf_sqrtf(float X) { return __builtin_sqrtf(X); }

float vf_floorf(float X) { return __builtin_floorf(X); }

float vf_ceilf(float X) { return __builtin_ceilf(X); }

float vf_fabsf(float X) { return __builtin_fabsf(X); }
