//===- vegasc/PathNames.h - A batch's paths, taken apart --------*- C++ -*-===//
//
// The batch file names files relative to its own folder and names a run
// after its file's stem. These are the POSIX rules LLVM's sys::path
// applies, which the tool used before and its messages keep: a file name
// ".vf" has an empty stem (std::filesystem says ".vf"), "a/" names "."
// in "a", and the folder of "runs.toml" is "" (the current one).
//
//===----------------------------------------------------------------------===//
#ifndef VF_TOOLS_VEGASC_PATHNAMES_H
#define VF_TOOLS_VEGASC_PATHNAMES_H

#include <string>
#include <string_view>

namespace vf {

/// The last component of \p P: "/" for the root, "." after a trailing
/// slash.
inline std::string_view fileName(std::string_view P) {
  if (P.empty())
    return P;
  if (P.find_first_not_of('/') == std::string_view::npos)
    return "/";
  if (P.back() == '/')
    return ".";
  const std::size_t Slash = P.rfind('/');
  return Slash == std::string_view::npos ? P : P.substr(Slash + 1);
}

/// fileName(P) from its last dot (".toml"), "" without one; "." and ".."
/// have none.
inline std::string_view fileExtension(std::string_view P) {
  const std::string_view F = fileName(P);
  const std::size_t Dot = F.rfind('.');
  if (F == "." || F == ".." || Dot == std::string_view::npos)
    return {};
  return F.substr(Dot);
}

/// fileName(P) without its extension (from its last dot); "." and ".."
/// as they are.
inline std::string_view fileStem(std::string_view P) {
  const std::string_view F = fileName(P);
  if (F == "." || F == "..")
    return F;
  return F.substr(0, F.rfind('.'));
}

/// The folder \p P is in: "" for a bare name, "/" for one in the root.
inline std::string_view parentPath(std::string_view P) {
  std::size_t End = P.rfind('/');
  if (End == std::string_view::npos)
    return {};
  while (End > 0 && P[End - 1] == '/')
    --End;
  return End == 0 ? P.substr(0, 1) : P.substr(0, End);
}

/// \p P below \p Dir (\p P relative; "" names \p Dir with a slash).
inline std::string joinPath(const std::string &Dir, std::string_view P) {
  if (Dir.empty())
    return std::string(P);
  return Dir + (Dir.back() == '/' ? "" : "/") + std::string(P);
}

} // namespace vf

#endif // VF_TOOLS_VEGASC_PATHNAMES_H
