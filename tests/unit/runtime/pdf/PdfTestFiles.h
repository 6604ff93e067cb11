//===- tests/unit/runtime/pdf/PdfTestFiles.h - Sets to break -*- C++ -*-===//
//
// The shipped test set, and copies of it in a temporary folder that a test
// edits (a line replaced, a file cut short, a member removed) to check
// each malformed input's message.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TESTS_UNIT_RUNTIME_PDF_PDFTESTFILES_H
#define VF_TESTS_UNIT_RUNTIME_PDF_PDFTESTFILES_H

#include "pdf/PdfSet.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace vf::pdf::test {

inline const std::string ShippedSet = std::string(VF_PDF_TESTDATA) + "/VFToyLO";

inline PdfMember loadShipped(unsigned Member) {
  Expected<PdfSet> Set = PdfSet::open(ShippedSet, {});
  EXPECT_TRUE(Set) << Set.message();
  Expected<PdfMember> M = Set->loadMember(Member);
  EXPECT_TRUE(M) << M.message();
  return std::move(*M);
}

/// A copy of the shipped set in a fresh folder TMP/VFToyLO.
struct SetCopy {
  std::string Root, Folder;
  SetCopy() {
    char T[] = "/tmp/vf-pdf-XXXXXX";
    Root = ::mkdtemp(T);
    Folder = Root + "/VFToyLO";
    std::filesystem::copy(ShippedSet, Folder);
  }
  ~SetCopy() { std::filesystem::remove_all(Root); }

  std::string file(const std::string &Name) const {
    return Folder + "/" + Name;
  }
  std::string read(const std::string &Name) const {
    std::ifstream In(file(Name));
    std::ostringstream S;
    S << In.rdbuf();
    return S.str();
  }
  void write(const std::string &Name, const std::string &Text) const {
    std::ofstream(file(Name)) << Text;
  }
  /// Replaces the first occurrence of \p From in file \p Name.
  void replace(const std::string &Name, const std::string &From,
               const std::string &To) const {
    std::string Text = read(Name);
    std::size_t At = Text.find(From);
    ASSERT_NE(At, std::string::npos) << From;
    write(Name, Text.replace(At, From.size(), To));
  }
  /// The error of opening this copy and loading \p Member.
  std::string loadError(unsigned Member = 0) const {
    Expected<PdfSet> Set = PdfSet::open(Folder, {});
    if (!Set)
      return Set.message();
    Expected<PdfMember> M = Set->loadMember(Member);
    return M ? std::string("no error") : M.message();
  }
};

} // namespace vf::pdf::test

#endif // VF_TESTS_UNIT_RUNTIME_PDF_PDFTESTFILES_H
