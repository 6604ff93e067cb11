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
#include <vector>

namespace vf {

/// Where a message names an option: Size characters from Begin, saying
/// option Name (vf/Options.def) and, in "option 'x' to 'v'", a Value to
/// give it.
struct OptionMention {
  std::size_t Begin = 0, Size = 0;
  std::string Name, Value;
};

/// A message that keeps where it names options, so that each front end
/// says them its own way (a flag, a key, a keyword) without reading the
/// text back. Made by optionRef() and grown with +.
class ErrorText {
public:
  const std::string &str() const { return Text; }
  const std::vector<OptionMention> &mentions() const { return Mentions; }

  friend ErrorText operator+(ErrorText L, const std::string &R) {
    L.Text += R;
    return L;
  }
  friend ErrorText operator+(ErrorText L, const char *R) {
    return std::move(L) + std::string(R);
  }
  friend ErrorText operator+(const std::string &L, ErrorText R) {
    for (OptionMention &M : R.Mentions)
      M.Begin += L.size();
    R.Text.insert(0, L);
    return R;
  }
  friend ErrorText operator+(const char *L, ErrorText R) {
    return std::string(L) + std::move(R);
  }
  friend ErrorText operator+(ErrorText L, ErrorText R) {
    ErrorText Out = std::move(L) + R.Text;
    for (OptionMention &M : R.Mentions) {
      M.Begin += Out.Text.size() - R.Text.size();
      Out.Mentions.push_back(std::move(M));
    }
    return Out;
  }

private:
  friend ErrorText optionRef(const std::string &Name, const std::string &Value);
  std::string Text;
  std::vector<OptionMention> Mentions;
};

/// An error of a distributed run also has a scope, which decides which
/// ranks report it; the run's Cluster keeps it (vf/Cluster.h), so an
/// error is the same value with or without MPI.
struct Error {
  Error() = default;
  Error(std::string Message, std::string Option = {})
      : Message(std::move(Message)), Option(std::move(Option)) {}
  Error(ErrorText Message, std::string Option = {})
      : Message(Message.str()), Option(std::move(Option)),
        Mentions(Message.mentions()) {}

  std::string Message;
  /// The option whose value the error refuses, by its documented name (the
  /// IntegratorOptions/TOML spelling: "calls", "alpha", "schedule",
  /// "on_nonfinite", ...), or empty. A front end reports such an error as
  /// a usage error at its own flag or key. Errors about the integrand, the
  /// machine or the data leave it empty, even when their message suggests
  /// an option. The library speaks of options, never of command-line
  /// flags: a message refers to an option only as optionRef(Name), whose
  /// place Mentions keeps for a front end to say its flag or key there.
  std::string Option;
  std::vector<OptionMention> Mentions;
};

/// How a library message names option \p Name ("option 'on_nonfinite'"),
/// or a value to give it ("option 'on_nonfinite' to 'zero'"): the one
/// spelling a front end replaces with its flag or key.
inline ErrorText optionRef(const std::string &Name,
                           const std::string &Value = {}) {
  ErrorText T;
  T.Text =
      "option '" + Name + "'" + (Value.empty() ? "" : " to '" + Value + "'");
  T.Mentions.push_back({0, T.Text.size(), Name, Value});
  return T;
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
