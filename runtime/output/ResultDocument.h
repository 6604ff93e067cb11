//===- output/ResultDocument.h - A result's JSON document -------*- C++ -*-===//
//
// The document of vf::resultToJson (docs/json.md) as a value, for callers
// that hold their settings as JSON already (vegasc, batches, reports): they
// build on it without writing the settings as text and reading them back.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_OUTPUT_RESULTDOCUMENT_H
#define VF_RUNTIME_OUTPUT_RESULTDOCUMENT_H

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

#endif // VF_RUNTIME_OUTPUT_RESULTDOCUMENT_H
