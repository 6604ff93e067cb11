//===- vf/Version.h - vegasflow version -------------------------*- C++ -*-===//
//
// The version string reported by `vegasc --version`, the JSON output and the
// compile cache key.
//
//===----------------------------------------------------------------------===//
#ifndef VF_VERSION_H
#define VF_VERSION_H

namespace vf {
/// The project's version, e.g. "0.1.0".
const char *versionString();
} // namespace vf

#endif // VF_VERSION_H
