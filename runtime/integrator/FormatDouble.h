//===- runtime/integrator/FormatDouble.h - Doubles in messages --*- C++ -*-===//
//
// Every message of the integrator that quotes a value quotes it with all
// 17 significant digits: a user who pastes it back (a point, a width, a
// checkpoint's field) gets the very double the integrator saw.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_FORMATDOUBLE_H
#define VF_RUNTIME_INTEGRATOR_FORMATDOUBLE_H

#include <cstdio>
#include <string>

namespace vf {

/// V with 17 significant digits.
inline std::string formatDouble(double V) {
  char Buf[40];
  std::snprintf(Buf, sizeof(Buf), "%.17g", V);
  return Buf;
}

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_FORMATDOUBLE_H
