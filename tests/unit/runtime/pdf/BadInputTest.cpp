//===- tests/unit/runtime/pdf/BadInputTest.cpp - Malformed sets -----------===//
//
// Each malformed input is an error that names the file and the line: a
// copy of the shipped set is broken one way per test.
//
//===----------------------------------------------------------------------===//
#include "PdfTestFiles.h"

#include <gtest/gtest.h>

using namespace vf;
using namespace vf::pdf;
using namespace vf::pdf::test;

namespace {

const std::string Dat = "VFToyLO_0000.dat";

/// The message has the file at line \p Line and then \p Text.
void expectError(const std::string &Message, const std::string &File, int Line,
                 const std::string &Text) {
  std::string At = "/" + File + (Line > 0 ? ":" + std::to_string(Line) : "");
  EXPECT_NE(Message.find(At), std::string::npos) << Message;
  EXPECT_NE(Message.find(Text), std::string::npos) << Message;
}

/// Line \p N (from 1) of \p Text.
std::string lineOf(const std::string &Text, int N) {
  std::size_t Start = 0;
  for (int I = 1; I < N; ++I)
    Start = Text.find('\n', Start) + 1;
  return Text.substr(Start, Text.find('\n', Start) - Start);
}

TEST(PdfBadInput, TruncatedFile) {
  SetCopy C;
  std::string Text = C.read(Dat);
  // Cut in the middle of the first subgrid's values (its line 100).
  std::size_t Cut = 0;
  for (int I = 0; I < 100; ++I)
    Cut = Text.find('\n', Cut) + 1;
  C.write(Dat, Text.substr(0, Cut));
  expectError(C.loadError(), Dat, 100, "truncated: subgrid 1");
}

TEST(PdfBadInput, SubgridWithTooFewLines) {
  SetCopy C;
  std::string Text = C.read(Dat);
  // Drop line 10 (a value line of subgrid 1): the block ends early.
  std::string Line10 = lineOf(Text, 10) + "\n";
  C.replace(Dat, Line10, "");
  expectError(C.loadError(), Dat, 306,
              "subgrid 1 ends after 299 value lines, expected 300");
}

TEST(PdfBadInput, MemberMissing) {
  SetCopy C;
  std::filesystem::remove(C.file("VFToyLO_0001.dat"));
  std::string E = C.loadError(1);
  EXPECT_NE(E.find("member 1 of set 'VFToyLO' is missing"), std::string::npos)
      << E;
  expectError(E, "VFToyLO_0001.dat", 0, "no such file");
  expectError(C.loadError(2), "VFToyLO.info", 8, "has members 0 to 1, not 2");
}

TEST(PdfBadInput, KnotsNotIncreasing) {
  SetCopy C;
  C.replace(Dat, "1.373823796e-05", "9.0e-06");
  expectError(C.loadError(), Dat, 4, "x knots are not increasing (knot 2)");
  SetCopy Q;
  Q.replace(Dat, "\n1.414213562e+00 ", "\n3.0e+00 ");
  expectError(Q.loadError(), Dat, 5, "Q knots are not increasing (knot 2)");
}

TEST(PdfBadInput, WrongNumberOfValues) {
  SetCopy C;
  std::string Text = C.read(Dat);
  std::string Line7 = lineOf(Text, 7);
  C.replace(Dat, Line7 + "\n", Line7 + " 1.0\n");
  expectError(C.loadError(), Dat, 7,
              "12 values, expected 11 (one per flavour)");
  SetCopy N;
  N.replace(Dat, lineOf(Text, 8), "1.0 2.0 abc");
  expectError(N.loadError(), Dat, 8, "value 'abc' is not a finite number");
}

TEST(PdfBadInput, FlavourNotInTheList) {
  SetCopy C;
  C.replace(Dat, "\n-5 -4 -3", "\n-6 -4 -3");
  expectError(C.loadError(), Dat, 6, "flavour -6 is not in the set's Flavors");
  SetCopy I;
  I.replace("VFToyLO.info", "Flavors: [-5,", "Flavors: [11, -5,");
  expectError(I.loadError(), "VFToyLO.info", 10, "flavour 11 is not a quark");
}

TEST(PdfBadInput, UnsupportedFormat) {
  SetCopy C;
  C.replace("VFToyLO.info", "Format: lhagrid1", "Format: lhagrid2");
  expectError(C.loadError(), "VFToyLO.info", 6,
              "format 'lhagrid2' is not supported (only 'lhagrid1')");
  SetCopy M;
  M.replace(Dat, "Format: lhagrid1", "Format: lhagrid2");
  expectError(M.loadError(), Dat, 2, "format 'lhagrid2' is not supported");
  SetCopy I;
  I.replace("VFToyLO.info", "Format: lhagrid1",
            "Format: lhagrid1\nInterpolator: linear");
  expectError(I.loadError(), "VFToyLO.info", 7,
              "interpolator 'linear' is not supported");
}

TEST(PdfBadInput, MalformedInfo) {
  SetCopy C;
  C.replace("VFToyLO.info", "NumMembers: 2", "NumMembers 2");
  expectError(C.loadError(), "VFToyLO.info", 8, "expected 'Key: value'");
  SetCopy L;
  L.replace("VFToyLO.info", "Flavors: [-5, -4", "Flavors: [-5, x");
  expectError(L.loadError(), "VFToyLO.info", 10, "'Flavors' holds 'x'");
  SetCopy B;
  B.replace("VFToyLO.info", "NumMembers: 2", "NumMembers:\n  - 2");
  expectError(B.loadError(), "VFToyLO.info", 9, "a block list is not part");
  SetCopy U;
  U.replace("VFToyLO.info", "21]", "21");
  expectError(U.loadError(), "VFToyLO.info", 10, "the list is not closed");
}

TEST(PdfBadInput, XKnotsDifferBetweenSubgrids) {
  SetCopy C;
  std::string Text = C.read(Dat);
  std::size_t Second = Text.find("\n---\n", Text.find("---\n") + 4) + 5;
  Text.replace(Second, 15, "9.000000000e-06");
  C.write(Dat, Text);
  expectError(C.loadError(), Dat, 308, "x knots differ from the first");
}

} // namespace
