//===- tests/unit/runtime/pdf/SetIdentityTest.cpp - A set's file identity -===//
//
// setIdentity, which a compiled program's cache key takes: the same for
// the same files, different once a member file is rewritten (its
// modification time moved) or grows, and an error naming a missing member.
//
//===----------------------------------------------------------------------===//

#include "pdf/SetIdentity.h"
#include "PdfTestFiles.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

namespace vf::pdf {
namespace {

Expected<std::string> identityOf(const std::string &Folder) {
  Expected<SetLocation> Where = locateSet(Folder, {});
  if (!Where)
    return Where.error();
  return setIdentity(*Where, 2);
}

TEST(PdfSetIdentity, IsStableForTheSameFiles) {
  test::SetCopy Copy;
  Expected<std::string> A = identityOf(Copy.Folder),
                        B = identityOf(Copy.Folder);
  ASSERT_TRUE(A) << A.message();
  ASSERT_TRUE(B) << B.message();
  EXPECT_EQ(*A, *B);
  EXPECT_NE(A->find("VFToyLO_0001.dat\t"), std::string::npos) << *A;
}

TEST(PdfSetIdentity, ChangesWhenAMemberFileChanges) {
  test::SetCopy Copy;
  Expected<std::string> Before = identityOf(Copy.Folder);
  ASSERT_TRUE(Before) << Before.message();
  const std::string Member = Copy.file("VFToyLO_0001.dat");
  namespace fs = std::filesystem;
  fs::last_write_time(Member,
                      fs::last_write_time(Member) + std::chrono::seconds(1));
  Expected<std::string> Touched = identityOf(Copy.Folder);
  ASSERT_TRUE(Touched) << Touched.message();
  EXPECT_NE(*Before, *Touched);
  Copy.write("VFToyLO_0001.dat", Copy.read("VFToyLO_0001.dat") + "\n");
  Expected<std::string> Grown = identityOf(Copy.Folder);
  ASSERT_TRUE(Grown) << Grown.message();
  EXPECT_NE(*Touched, *Grown);
}

TEST(PdfSetIdentity, NamesAMissingMember) {
  test::SetCopy Copy;
  std::filesystem::remove(Copy.file("VFToyLO_0001.dat"));
  Expected<std::string> Id = identityOf(Copy.Folder);
  ASSERT_FALSE(Id);
  EXPECT_EQ(Id.message(), Copy.file("VFToyLO_0001.dat") + ": no such file");
}

} // namespace
} // namespace vf::pdf
