//===- runtime/pdf/SetPath.cpp - Where LHAPDF sets are found --------------===//
//
// The search order of SetPath.h, and reading a set's files whole: a grid
// is read once per member, so a bounded read of a regular file is all
// that is needed.
//
//===----------------------------------------------------------------------===//
#include "pdf/SetPath.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace vf::pdf {

std::vector<std::string> searchPath(const char *LhapdfDataPath,
                                    const char *LhaPath) {
  const std::string Var = LhapdfDataPath ? LhapdfDataPath
                          : LhaPath      ? LhaPath
                                         : "";
  std::vector<std::string> Folders;
  std::size_t Start = 0;
  while (Start <= Var.size()) {
    std::size_t End = Var.find(':', Start);
    if (End == std::string::npos)
      End = Var.size();
    if (End > Start)
      Folders.push_back(Var.substr(Start, End - Start));
    Start = End + 1;
  }
  if (Var.size() < 2 || Var.substr(Var.size() - 2) != "::") {
    Folders.push_back("/usr/local/share/LHAPDF");
    Folders.push_back("/usr/share/LHAPDF");
  }
  return Folders;
}

std::vector<std::string> searchPathFromEnvironment() {
  return searchPath(std::getenv("LHAPDF_DATA_PATH"), std::getenv("LHAPATH"));
}

std::string SetLocation::infoFile() const {
  return Folder + "/" + Name + ".info";
}

std::string SetLocation::memberFile(unsigned Member) const {
  char Number[16];
  std::snprintf(Number, sizeof(Number), "_%04u.dat", Member);
  return Folder + "/" + Name + Number;
}

Expected<SetLocation> locateSet(const std::string &NameOrPath,
                                const std::vector<std::string> &Path) {
  namespace fs = std::filesystem;
  std::error_code Ec;
  if (NameOrPath.find('/') != std::string::npos) {
    fs::path Folder = fs::path(NameOrPath).lexically_normal();
    if (!Folder.has_filename())
      Folder = Folder.parent_path();
    SetLocation L{Folder.string(), Folder.filename().string()};
    if (!fs::is_regular_file(L.infoFile(), Ec))
      return Error("PDF set folder '" + NameOrPath + "' has no " + L.Name +
                   ".info");
    return L;
  }
  if (NameOrPath.empty())
    return Error("empty PDF set name");
  std::string Searched;
  for (const std::string &Dir : Path) {
    SetLocation L{Dir + "/" + NameOrPath, NameOrPath};
    if (fs::is_regular_file(L.infoFile(), Ec))
      return L;
    Searched += (Searched.empty() ? "" : ", ") + Dir;
  }
  return Error("PDF set '" + NameOrPath + "' not found in " + Searched +
               " (set LHAPDF_DATA_PATH, or give the set's folder)");
}

Expected<std::string> readSetFile(const std::string &File) {
  namespace fs = std::filesystem;
  std::error_code Ec;
  if (!fs::is_regular_file(File, Ec))
    return Error(File + ": no such file");
  if (fs::file_size(File, Ec) > (std::uintmax_t(1) << 30))
    return Error(File + ": larger than 1 GiB");
  std::ifstream In(File, std::ios::binary);
  std::ostringstream Text;
  Text << In.rdbuf();
  if (!In && !In.eof())
    return Error(File + ": cannot be read");
  return Text.str();
}

} // namespace vf::pdf
