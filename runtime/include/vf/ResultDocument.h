//===- vf/ResultDocument.h - A result's JSON document -----------*- C++ -*-===//
//
// The document of vf::resultToJson (docs/json.md) as a value, for callers
// that hold their settings as JSON already (vegasc, batches, reports): they
// build on it without writing the settings as text and reading them back.
//
// The one public header that needs nlohmann-json (Debian
// nlohmann-json3-dev) to be included; vf.h leaves it out, so a program that
// does not include it needs nothing beyond the library. The value crosses
// into libvegasflow.so, so the program must use the nlohmann-json version
// the library was built with: nlohmann's versioned inline namespace
// (json_abi_v3_11_2 for 3.11.2) turns a mismatch into a link error.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RESULTDOCUMENT_H
#define VF_RESULTDOCUMENT_H

#include "vf/Result.h"

#include <nlohmann/json.hpp>

#include <string>

namespace vf {

/// {vegasflow, integrand, settings, result, iterations, devices}: what
/// resultToJson writes, with \p Settings as the `settings` object.
nlohmann::ordered_json resultDocument(const Result &R,
                                      const std::string &IntegrandName,
                                      nlohmann::ordered_json Settings);

} // namespace vf

#endif // VF_RESULTDOCUMENT_H
