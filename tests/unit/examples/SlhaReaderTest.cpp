//===- SlhaReaderTest.cpp - The SLHA reader of examples/cpp/process -------===//
//
// Good cards in the forms real ones take (any case, comments, scales,
// decay tables, multi-index and index-less entries), then every error with
// its whole message: a reader's messages are its user interface.
//
//===----------------------------------------------------------------------===//

#include "SlhaReader.h"
#include "Parameters.h"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

using vfexample::Parameters;
using vfexample::SlhaReader;

namespace {

SlhaReader parsed(const std::string &Text) {
  std::istringstream In(Text);
  return SlhaReader::parse(In, "card.dat");
}

/// The message of the error parsing Text throws, or "" if none.
std::string parseError(const std::string &Text) {
  try {
    parsed(Text);
  } catch (const std::runtime_error &E) {
    return E.what();
  }
  return "";
}

template <typename F> std::string errorOf(F &&Call) {
  try {
    Call();
  } catch (const std::runtime_error &E) {
    return E.what();
  }
  return "";
}

const char *const GoodCard = R"(# A card as generators write them.
Block sminputs   # lower case
    1   1.28e+02   # aEWM1

BLOCK MASS Q= 91.1876
   23   9.118760e+01   # MZ
 DECAY   23   2.4952   # WZ
#  BR         NDA  ID1  ID2
   0.1        2    11   -11
   9.0e-01    2    1    -1
decay -24 2.1
BLOCK yu Q=100.0
  3 3  0.9   # two indices
  1 1  1e-5
block Alpha
  -0.11
BLOCK MASS
   24   80.4
)";

} // namespace

TEST(SlhaReader, ReadsBlocksInAnyCase) {
  const SlhaReader Card = parsed(GoodCard);
  EXPECT_EQ(Card.value("SMINPUTS", {1}), 128.0);
  EXPECT_EQ(Card.value("sminputs", {1}), 128.0);
  EXPECT_EQ(Card.value("Mass", {23}), 91.1876);
  EXPECT_EQ(Card.name(), "card.dat");
}

TEST(SlhaReader, ReadsMultiIndexAndIndexlessEntries) {
  const SlhaReader Card = parsed(GoodCard);
  EXPECT_EQ(Card.value("YU", {3, 3}), 0.9);
  EXPECT_EQ(Card.value("YU", {1, 1}), 1e-5);
  EXPECT_EQ(Card.value("ALPHA", {}), -0.11);
}

TEST(SlhaReader, ReadsWidthsAndSkipsBranchingRatios) {
  const SlhaReader Card = parsed(GoodCard);
  EXPECT_EQ(Card.width(23), 2.4952);
  EXPECT_EQ(Card.width(-24), 2.1);
  // A block reopened after the decay table adds to the first one.
  EXPECT_EQ(Card.value("MASS", {24}), 80.4);
}

TEST(SlhaReader, ReadsCardsWithWindowsLineEnds) {
  const SlhaReader Card =
      parsed("BLOCK MASS\r\n 23 91.1876\r\nDECAY 23 2.4952\r\n");
  EXPECT_EQ(Card.value("MASS", {23}), 91.1876);
  EXPECT_EQ(Card.width(23), 2.4952);
}

TEST(SlhaReader, LookupsNameTheCardAndTheEntry) {
  const SlhaReader Card = parsed(GoodCard);
  EXPECT_EQ(errorOf([&] { Card.value("MIXING", {1}); }),
            "card.dat: no BLOCK MIXING");
  EXPECT_EQ(errorOf([&] { Card.value("mass", {25}); }),
            "card.dat: no 'BLOCK MASS' entry 25");
  EXPECT_EQ(errorOf([&] {
              Card.value("YU", {2, 2});
            }),
            "card.dat: no 'BLOCK YU' entry 2 2");
  EXPECT_EQ(errorOf([&] { Card.width(6); }),
            "card.dat: no DECAY line for PDG code 6");
}

TEST(SlhaReader, MissingFileIsNamed) {
  EXPECT_EQ(errorOf([] { SlhaReader::fromFile("/nonexistent/card.dat"); }),
            "cannot open the SLHA card '/nonexistent/card.dat'");
}

TEST(SlhaReader, MalformedNumberNamesLineAndEntry) {
  std::string Card = "BLOCK SMINPUTS\n";
  for (int Line = 2; Line < 11; ++Line)
    Card += "# padding\n";
  Card += "BLOCK MASS\n   23   abc   # MZ\n";
  std::istringstream In(Card);
  EXPECT_EQ(errorOf([&] { SlhaReader::parse(In, "param_card.dat"); }),
            "param_card.dat:12: expected a number after 'BLOCK MASS' entry "
            "23, got 'abc'");
  EXPECT_EQ(parseError("BLOCK MASS\n 24 80.4x\n"),
            "card.dat:2: expected a number after 'BLOCK MASS' entry 24, got "
            "'80.4x'");
  EXPECT_EQ(parseError("BLOCK MASS\n 2.5 80.4\n"),
            "card.dat:2: expected an integer index in 'BLOCK MASS', got '2.5'");
}

TEST(SlhaReader, TruncatedLinesAreErrors) {
  EXPECT_EQ(parseError("BLOCK MASS\n 23 91.1876\n 24   # MW\n"),
            "card.dat:3: expected a number after 'BLOCK MASS' entry 24, got "
            "end of line");
  EXPECT_EQ(parseError("BLOCK YU\n 3 3 0.9\n 1 1 1 0.1\n"),
            "card.dat:3: 'BLOCK YU' entry 1 1 1 has 3 indices where the "
            "block's first entry has 2");
  EXPECT_EQ(parseError("DECAY 23\n"),
            "card.dat:1: expected a width after 'DECAY 23', got end of line");
  EXPECT_EQ(parseError("DECAY Z 2.4952\n"),
            "card.dat:1: expected a PDG code after 'DECAY', got 'Z'");
  EXPECT_EQ(parseError("\nBLOCK   # no name\n"),
            "card.dat:2: expected a block name after 'BLOCK'");
}

TEST(SlhaReader, EntriesOutsideBlocksAndRepeatsAreErrors) {
  EXPECT_EQ(parseError("  23 91.1876\n"),
            "card.dat:1: an entry outside any BLOCK: '23'");
  EXPECT_EQ(parseError("BLOCK MASS\n 23 91.1876\n 23 91.2\n"),
            "card.dat:3: 'BLOCK MASS' entry 23 given twice (first at line 2)");
  EXPECT_EQ(parseError("DECAY 23 2.4952\nDECAY 23 2.5\n"),
            "card.dat:2: 'DECAY 23' given twice (first at line 1)");
}

TEST(Parameters, ShippedCardGivesTheConstantsOfEeMuMu) {
  Parameters Pars;
  Pars.setIndependentParameters(SlhaReader::fromFile(VF_EXAMPLE_PARAM_CARD));
  EXPECT_EQ(Pars.Alpha, 1.0 / 128);
  EXPECT_EQ(Pars.GF, 1.1663787e-5);
  EXPECT_EQ(Pars.MZ, 91.1876);
  EXPECT_EQ(Pars.WZ, 2.4952);
  // MW's 17 digits give sin^2(theta_W) = 0.2312 to the last bits.
  EXPECT_NEAR(Pars.SW2, 0.2312, 2e-16);
}

TEST(Parameters, MissingInputNamesTheEntry) {
  Parameters Pars;
  const SlhaReader Card = parsed("BLOCK SMINPUTS\n 1 128\n 2 1.1663787e-5\n"
                                 "BLOCK MASS\n 23 91.1876\n");
  EXPECT_EQ(errorOf([&] { Pars.setIndependentParameters(Card); }),
            "card.dat: no 'BLOCK MASS' entry 24");
}
