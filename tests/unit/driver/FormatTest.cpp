//===- tests/unit/driver/FormatTest.cpp - Table cells and whole numbers ---===//
//
// cell() keeps a table's columns apart whatever the values' widths (a
// chi2/dof of 11.6 next to a Q of 0.000656 once printed as 11.60.000656),
// and parseWholeNumber() is the one reading of counts and seeds for both
// doors: nothing is wrapped, rounded or saturated silently.
//
//===----------------------------------------------------------------------===//

#include "vegasc/Format.h"
#include "vegasc/RunOptions.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

using namespace vf;

namespace {

/// The whitespace-separated words of \p S.
std::vector<std::string> words(const std::string &S) {
  std::istringstream In(S);
  std::vector<std::string> W;
  for (std::string X; In >> X;)
    W.push_back(X);
  return W;
}

} // namespace

// Every format of the tables, with every width a double can print at:
// each cell stays a word of its own next to the one after it, in the
// orders the tables have (a right-aligned cell is never followed by a
// left-aligned one, whose padding is on its right).
TEST(Format, CellsNeverTouch) {
  const char *Formats[] = {"%-22.15g", "%-10.3g", "%9.3g", "%8.3g",
                           "%12.0f",   "%9.3f",   "%10.3g", "%10.3f"};
  const double Values[] = {0.0,
                           -1.23456789012345e-300,
                           -1.7976931348623157e308,
                           4.9e-324,
                           11.6,
                           0.000656,
                           1e300,
                           -std::numeric_limits<double>::infinity(),
                           std::nan("")};
  for (const char *A : Formats)
    for (const char *B : Formats)
      for (double X : Values)
        for (double Y : Values) {
          if (A[1] != '-' && B[1] == '-')
            continue;
          std::string Row = cell(A, X) + cell(B, Y);
          EXPECT_EQ(words(Row).size(), 2u)
              << A << " " << B << ": '" << Row << "'";
        }
}

// A value that fits keeps the column's width: the usual table is as it was.
TEST(Format, FittingValuesKeepTheirWidth) {
  EXPECT_EQ(cell("%-10.3g", 0.0123), printfDouble("%-10.3g", 0.0123));
  EXPECT_EQ(cell("%9.3g", 1.21), printfDouble("%9.3g", 1.21));
  EXPECT_EQ(cell("%8.3g", 0.000656), " 0.000656"); // 8 wide: one added
  EXPECT_EQ(cell("%9.3g", 11.6) + cell("%8.3g", 0.000656),
            "     11.6 0.000656");
}

TEST(WholeNumber, AcceptsDigitsAndExactExponents) {
  std::uint64_t V = 0;
  EXPECT_EQ(parseWholeNumber("123", 1000, V), "");
  EXPECT_EQ(V, 123u);
  EXPECT_EQ(parseWholeNumber("1e6", 1000000, V), "");
  EXPECT_EQ(V, 1000000u);
  EXPECT_EQ(parseWholeNumber("9223372036854775807", MaxSeed, V), "");
  EXPECT_EQ(V, MaxSeed);
}

TEST(WholeNumber, RefusesWhatCouldWrapOrRound) {
  std::uint64_t V = 0;
  for (const char *Bad : {"-1", "+3", "1.5", "1e23", "0x10", "inf", "nan",
                          "", " ", "18446744073709551616", "1e999", "2^64",
                          "9223372036854775808", "-1e23", "1e", "12abc"}) {
    std::string Why = parseWholeNumber(Bad, MaxSeed, V);
    EXPECT_NE(Why, "") << "'" << Bad << "' accepted";
    EXPECT_NE(Why.find("a whole number from 0 to 9223372036854775807"),
              std::string::npos)
        << Why;
  }
  // Beyond 2^53 what a double holds exactly (1e17) is exact; what it
  // cannot (1e23, refused above) would change digits.
  EXPECT_EQ(parseWholeNumber("1e17", UINT64_MAX, V), "");
  EXPECT_EQ(V, 100000000000000000u);
  EXPECT_EQ(parseWholeNumber("100000000000000000", UINT64_MAX, V), "");
  EXPECT_NE(parseWholeNumber("12345678901234567e3", UINT64_MAX, V), "");
}

// The text must be the number, digit for digit: a point, trailing zeros
// and an exponent may move the digits, nothing may change them. LLVM's
// getAsDouble, read here before, took a tiny fraction and junk after a
// huge exponent of zero; refused now (RunOptions.cpp says why).
TEST(WholeNumber, TheTextIsTheNumberExactly) {
  std::uint64_t V = 0;
  for (auto [Text, Want] :
       {std::pair<const char *, std::uint64_t>{"25e2", 2500},
        {"2500.000", 2500},
        {"0.25E+4", 2500},
        {"100e-2", 1},
        {"1.e5", 100000},
        {"0e99999", 0},
        {"0.000", 0},
        {" 42\t", 42},
        {"9007199254740992e0", 9007199254740992u}}) {
    EXPECT_EQ(parseWholeNumber(Text, UINT64_MAX, V), "") << Text;
    EXPECT_EQ(V, Want) << Text;
  }
  for (const char *Bad :
       {"42404609996025056.00058", "200.000000000000000010",
        "658124324250152755189e-2", "9007199254740993e0", "2500.0001", "5e-1",
        "0e99999-1", "1..2", "1e5e5", "1e+-5", "4 2"})
    EXPECT_NE(parseWholeNumber(Bad, UINT64_MAX, V), "") << Bad;
}
