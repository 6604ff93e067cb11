//===- runtime/files/OutputGuard.cpp - Outputs that never clobber inputs
//---===//

#include "vf/OutputGuard.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>

namespace vf {

namespace {

std::string currentFolder() {
  char Buf[PATH_MAX];
  return ::getcwd(Buf, sizeof(Buf)) ? std::string(Buf) : std::string(".");
}

/// "a/./b/../c" as "a/c": for paths whose folder does not exist (yet).
std::string lexicallyNormal(const std::string &Absolute) {
  std::vector<std::string> Parts;
  std::size_t At = 0;
  while (At <= Absolute.size()) {
    std::size_t Slash = Absolute.find('/', At);
    if (Slash == std::string::npos)
      Slash = Absolute.size();
    const std::string P = Absolute.substr(At, Slash - At);
    if (P == "..") {
      if (!Parts.empty())
        Parts.pop_back();
    } else if (!P.empty() && P != ".") {
      Parts.push_back(P);
    }
    At = Slash + 1;
  }
  std::string Out;
  for (const std::string &P : Parts)
    Out += "/" + P;
  return Out.empty() ? "/" : Out;
}

/// The path made absolute, its folder resolved through links where it
/// exists: "./a.lhe", "a.lhe" and "d/../a.lhe" are one name.
std::string normalPath(const std::string &Path) {
  const std::string Absolute =
      Path.front() == '/' ? Path : currentFolder() + "/" + Path;
  const std::size_t Slash = Absolute.find_last_of('/');
  const std::string Folder = Absolute.substr(0, Slash + 1);
  const std::string Name = Absolute.substr(Slash + 1);
  if (char *Real = ::realpath(Folder.c_str(), nullptr)) {
    std::string R(Real);
    std::free(Real);
    return lexicallyNormal(R + "/" + Name);
  }
  return lexicallyNormal(Absolute);
}

} // namespace

OutputGuard::Entry OutputGuard::entry(const std::string &Path,
                                      const std::string &What,
                                      const std::string &MayReplace) {
  Entry E;
  E.Path = Path;
  E.What = What;
  E.MayReplace = MayReplace;
  struct stat St;
  if (::stat(Path.c_str(), &St) == 0) {
    E.Exists = true;
    E.Dev = St.st_dev;
    E.Ino = St.st_ino;
  }
  E.Normal = normalPath(Path);
  return E;
}

bool OutputGuard::same(const Entry &A, const Entry &B) {
  if (A.Exists && B.Exists && A.Dev == B.Dev && A.Ino == B.Ino)
    return true;
  return A.Normal == B.Normal;
}

void OutputGuard::input(const std::string &Path, const std::string &What) {
  if (!Path.empty() && Path != "-")
    Inputs.push_back(entry(Path, What, ""));
}

void OutputGuard::output(const std::string &Path, const std::string &What,
                         const std::string &MayReplace) {
  if (!Path.empty() && Path != "-")
    Outputs.push_back(entry(Path, What, MayReplace));
}

Status OutputGuard::check() const {
  for (std::size_t K = 0; K < Outputs.size(); ++K) {
    const Entry &O = Outputs[K];
    for (const Entry &I : Inputs)
      if (same(O, I) && O.MayReplace != I.What)
        return Error{O.What + " '" + O.Path + "' is " + I.What + " '" + I.Path +
                     "': an output never replaces a file the "
                     "command reads; name another file"};
    for (std::size_t J = 0; J < K; ++J)
      if (same(O, Outputs[J]))
        return Error{O.What + " '" + O.Path + "' and " + Outputs[J].What +
                     " '" + Outputs[J].Path +
                     "' are the same file: one "
                     "would replace the other; give each its own name"};
  }
  return Status::ok();
}

Status checkNotAnInput(const std::string &Output, const std::string &What,
                       const std::vector<std::string> &Inputs,
                       const std::string &InputsWhat) {
  OutputGuard G;
  for (const std::string &I : Inputs)
    G.input(I, InputsWhat);
  G.output(Output, What);
  return G.check();
}

Status checkPathPart(const std::string &Name, const std::string &What) {
  bool Control = false;
  for (char C : Name)
    Control |= static_cast<unsigned char>(C) < 0x20 || C == 0x7f;
  if (Name.find('/') == std::string::npos && Name != "." && Name != ".." &&
      !Name.empty() && !Control)
    return Status::ok();
  return Error{What + " '" + Name + "' cannot be put into a file name: " +
               (Control ? "it holds a control character"
                        : "it would leave the output's folder") +
               "; use letters, digits, '-', '_' and '.'"};
}

} // namespace vf
