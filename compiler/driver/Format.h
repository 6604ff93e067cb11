//===- driver/Format.h - Numbers in vegasc's tables -------------*- C++ -*-===//
//
// The tables of a single run and of a batch print numbers with printf
// formats ("%-22.15g" for an estimate, "%.3g" for Q), one column at a time.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_DRIVER_FORMAT_H
#define VF_COMPILER_DRIVER_FORMAT_H

#include <cstdio>
#include <string>

namespace vf {

/// \p V printed with the printf \p Format (one double conversion).
inline std::string printfDouble(const char *Format, double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), Format, V);
  return Buf;
}

} // namespace vf

#endif // VF_COMPILER_DRIVER_FORMAT_H
