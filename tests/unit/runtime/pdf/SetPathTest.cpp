//===- tests/unit/runtime/pdf/SetPathTest.cpp - Finding sets -------------===//
//
// The search order of SetPath.h, finding a set by name and by path, and
// the message when it is nowhere.
//
//===----------------------------------------------------------------------===//
#include "PdfTestFiles.h"

#include "pdf/SetPath.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace vf;
using namespace vf::pdf;
using namespace vf::pdf::test;

namespace {

using Folders = std::vector<std::string>;

TEST(PdfSetPath, SearchesDataPathThenInstallPrefixes) {
  EXPECT_EQ(
      searchPath("/a:/b", "/c"),
      (Folders{"/a", "/b", "/usr/local/share/LHAPDF", "/usr/share/LHAPDF"}));
  // LHAPATH only where LHAPDF_DATA_PATH is unset.
  EXPECT_EQ(searchPath(nullptr, "/c"),
            (Folders{"/c", "/usr/local/share/LHAPDF", "/usr/share/LHAPDF"}));
  EXPECT_EQ(searchPath(nullptr, nullptr),
            (Folders{"/usr/local/share/LHAPDF", "/usr/share/LHAPDF"}));
  // A trailing "::" keeps the install prefixes out.
  EXPECT_EQ(searchPath("/a::", nullptr), (Folders{"/a"}));
}

TEST(PdfSetPath, FindsASetByNameInOrder) {
  SetCopy Copy;
  Expected<SetLocation> L =
      locateSet("VFToyLO", {"/nonexistent", Copy.Root, VF_PDF_TESTDATA});
  ASSERT_TRUE(L) << L.message();
  EXPECT_EQ(L->Folder, Copy.Folder);
  EXPECT_EQ(L->memberFile(1), Copy.Folder + "/VFToyLO_0001.dat");
  Expected<PdfSet> Set = PdfSet::open("VFToyLO", {VF_PDF_TESTDATA});
  ASSERT_TRUE(Set) << Set.message();
  EXPECT_EQ(Set->numMembers(), 2u);
}

TEST(PdfSetPath, ReadsTheEnvironment) {
  const char *Saved = std::getenv("LHAPDF_DATA_PATH");
  std::string Kept = Saved ? Saved : "";
  ::setenv("LHAPDF_DATA_PATH", "/nonexistent:" VF_PDF_TESTDATA "::", 1);
  EXPECT_EQ(searchPathFromEnvironment(),
            (Folders{"/nonexistent", VF_PDF_TESTDATA}));
  Expected<PdfSet> Set = PdfSet::open("VFToyLO");
  EXPECT_TRUE(Set) << Set.message();
  if (Saved)
    ::setenv("LHAPDF_DATA_PATH", Kept.c_str(), 1);
  else
    ::unsetenv("LHAPDF_DATA_PATH");
}

TEST(PdfSetPath, FindsASetByPath) {
  Expected<SetLocation> L = locateSet(ShippedSet + "/", {});
  ASSERT_TRUE(L) << L.message();
  EXPECT_EQ(L->Name, "VFToyLO");
}

TEST(PdfSetPath, SaysWhereItLooked) {
  Expected<SetLocation> L = locateSet("NoSuchSet", {"/x", "/y"});
  ASSERT_FALSE(L);
  EXPECT_EQ(L.message(), "PDF set 'NoSuchSet' not found in /x, /y (set "
                         "LHAPDF_DATA_PATH, or give the set's folder)");
  Expected<SetLocation> P = locateSet("/nonexistent/VFToyLO", {});
  ASSERT_FALSE(P);
  EXPECT_NE(P.message().find("has no VFToyLO.info"), std::string::npos);
}

} // namespace
