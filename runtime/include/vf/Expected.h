//===- vf/Expected.h - Errors as values in the public API -------*- C++ -*-===//
//
// The runtime and the public API return errors as values: Expected<T> holds
// either a T or an Error with a message that says what went wrong, where,
// and what to do. It is the "small Result type" of the project's
// conventions; vf::Result itself is an integration's result (vf/Result.h).
//
//===----------------------------------------------------------------------===//
#ifndef VF_EXPECTED_H
#define VF_EXPECTED_H

#include <string>
#include <utility>
#include <variant>

namespace vf {

/// An error of a distributed run also has a scope, which decides which
/// ranks report it; the run's Cluster keeps it (vf/Cluster.h), so an
/// error is the same value with or without MPI.
struct Error {
  std::string Message;
  /// The option whose value the error refuses, by its documented name (the
  /// IntegratorOptions/TOML spelling: "calls", "alpha", "schedule",
  /// "on_nonfinite", ...), or empty. A front end reports such an error as
  /// a usage error at its own flag or key. Errors about the integrand, the
  /// machine or the data leave it empty, even when their message suggests
  /// an option. The library speaks of options, never of command-line
  /// flags: a message refers to an option only as optionRef(Name), the one
  /// spelling a front end rewrites into its flag or key.
  std::string Option = {};
};

/// How a library message names option \p Name ("option 'on_nonfinite'"):
/// the one spelling a front end may rewrite into its flag or key.
inline std::string optionRef(const std::string &Name) {
  return "option '" + Name + "'";
}

template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T Value) : V(std::move(Value)) {}
  Expected(Error E) : V(std::move(E)) {}

  explicit operator bool() const { return V.index() == 0; }
  T &operator*() { return std::get<0>(V); }
  const T &operator*() const { return std::get<0>(V); }
  T *operator->() { return &std::get<0>(V); }
  const T *operator->() const { return &std::get<0>(V); }
  const Error &error() const { return std::get<1>(V); }
  const std::string &message() const { return error().Message; }

private:
  std::variant<T, Error> V;
};

/// Success or an Error, for operations without a value.
class [[nodiscard]] Status {
public:
  Status() = default;
  Status(Error E) : Err(std::move(E)), Failed(true) {}
  static Status ok() { return Status(); }
  explicit operator bool() const { return !Failed; }
  const Error &error() const { return Err; }
  const std::string &message() const { return Err.Message; }

private:
  Error Err;
  bool Failed = false;
};

} // namespace vf

#endif // VF_EXPECTED_H
