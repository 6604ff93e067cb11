//===- vf/ResultJson.h - Results as JSON ------------------------*- C++ -*-===//
//
// The stable JSON schema of docs/json.md. The run's settings are passed in
// as a JSON text so that callers (vegasc, batch runs, the library) can add
// what they know (file, devices, versions).
//
//===----------------------------------------------------------------------===//
#ifndef VF_RESULTJSON_H
#define VF_RESULTJSON_H

#include "vf/Result.h"

#include <string>

namespace vf {

/// The document {vegasflow, integrand, settings, result, iterations,
/// devices}, indented by \p Indent spaces (-1: one line).
std::string resultToJson(const Result &R, const std::string &IntegrandName,
                         const std::string &SettingsJson, int Indent = 2);

} // namespace vf

#endif // VF_RESULTJSON_H
