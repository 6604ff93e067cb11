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

/// A copy of the set with \p From replaced by \p To in \p File fails to
/// load with \p Text, naming line \p Line of \p File.
void expectEditFails(const std::string &File, const std::string &From,
                     const std::string &To, int Line, const std::string &Text) {
  SetCopy C;
  C.replace(File, From, To);
  expectError(C.loadError(), File, Line, Text);
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
  expectEditFails(Dat, "1.373823796e-05", "9.0e-06", 4,
                  "x knots are not increasing (knot 2)");
  expectEditFails(Dat, "\n1.414213562e+00 ", "\n3.0e+00 ", 5,
                  "Q knots are not increasing (knot 2)");
}

TEST(PdfBadInput, WrongNumberOfValues) {
  SetCopy C;
  std::string Text = C.read(Dat);
  std::string Line7 = lineOf(Text, 7);
  C.replace(Dat, Line7 + "\n", Line7 + " 1.0\n");
  expectError(C.loadError(), Dat, 7,
              "12 values, expected 11 (one per flavour)");
  expectEditFails(Dat, lineOf(Text, 8), "1.0 2.0 abc", 8,
                  "value 'abc' is not a finite number");
}

TEST(PdfBadInput, FlavourNotInTheList) {
  expectEditFails(Dat, "\n-5 -4 -3", "\n-6 -4 -3", 6,
                  "flavour -6 is not in the set's Flavors");
  expectEditFails(Dat, "\n-5 -4 -3", "\n-5 -5 -3", 6,
                  "flavour -5 appears twice");
  expectEditFails(Dat, "\n-5 -4 -3", "\n-4 -3", 6,
                  "10 flavour ids, but Flavors lists 11");
  expectEditFails("VFToyLO.info", "Flavors: [-5,", "Flavors: [11, -5,", 10,
                  "flavour 11 is not a quark");
}

TEST(PdfBadInput, UnsupportedFormat) {
  expectEditFails("VFToyLO.info", "Format: lhagrid1", "Format: lhagrid2", 6,
                  "format 'lhagrid2' is not supported (only 'lhagrid1')");
  expectEditFails(Dat, "Format: lhagrid1", "Format: lhagrid2", 2,
                  "format 'lhagrid2' is not supported");
  expectEditFails("VFToyLO.info", "Format: lhagrid1",
                  "Format: lhagrid1\nInterpolator: linear", 7,
                  "interpolator 'linear' is not supported");
}

TEST(PdfBadInput, MalformedInfo) {
  expectEditFails("VFToyLO.info", "NumMembers: 2", "NumMembers 2", 8,
                  "expected 'Key: value'");
  expectEditFails("VFToyLO.info", "Flavors: [-5, -4", "Flavors: [-5, x", 10,
                  "'Flavors' holds 'x'");
  expectEditFails("VFToyLO.info", "NumMembers: 2", "NumMembers:\n  - 2", 9,
                  "a block list is not part");
  expectEditFails("VFToyLO.info", "21]", "21", 10, "the list is not closed");
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
