//===- tests/unit/frontend/ParserTest.cpp - The precedence table ----------===//
//
// Pins the parser's precedence and associativity (LANGUAGE.md,
// "Expressions") through the stable s-expression dump: unary minus below
// `^`, right-associative `^` with a signed exponent, non-associative
// comparisons, `not` between `and` and the comparisons, `and` above `or`,
// and `if` loosest of all.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtil.h"

#include "frontend/ASTDump.h"

#include "gtest/gtest.h"

using namespace vf;

namespace {

/// The dump of \p E parsed as an integrand's result ("" on a syntax error).
std::string parse(llvm::StringRef E, std::string *Diags = nullptr) {
  auto L = test::parseOnly(("integrand f(x in [0, 1]) = " + E).str());
  if (Diags)
    *Diags = L->Diags;
  if (!L->Ok || L->P.Modules.empty() || L->P.Modules[0]->Items.size() != 1)
    return "";
  const auto &I =
      static_cast<const IntegrandDecl &>(*L->P.Modules[0]->Items[0]);
  return dumpExpr(*I.B.Result);
}

TEST(ParserPrecedence, UnaryMinusBindsLooserThanPower) {
  EXPECT_EQ(parse("-x^2"), "(neg (^ x 2))");
  EXPECT_EQ(parse("-x*y"), "(* (neg x) y)");
  EXPECT_EQ(parse("- -x"), "(neg (neg x))");
}

TEST(ParserPrecedence, PowerIsRightAssociative) {
  EXPECT_EQ(parse("2^3^2"), "(^ 2 (^ 3 2))");
  EXPECT_EQ(parse("x^-1"), "(^ x (neg 1))");
  EXPECT_EQ(parse("x^-y^2"), "(^ x (neg (^ y 2)))");
  EXPECT_EQ(parse("x[0]^2"), "(^ (index x 0) 2)");
}

TEST(ParserPrecedence, ArithmeticIsLeftAssociative) {
  EXPECT_EQ(parse("a - b - c"), "(- (- a b) c)");
  EXPECT_EQ(parse("a / b / c"), "(/ (/ a b) c)");
  EXPECT_EQ(parse("a + b * c"), "(+ a (* b c))");
  EXPECT_EQ(parse("(a + b) * c"), "(* (+ a b) c)");
}

TEST(ParserPrecedence, ComparisonsAreNonAssociative) {
  EXPECT_EQ(parse("if a + 1 < b * 2 then 1 else 0"),
            "(if (< (+ a 1) (* b 2)) 1 0)");
  std::string Diags;
  EXPECT_EQ(parse("if a < b < c then 1 else 0", &Diags), "");
  EXPECT_NE(Diags.find("1:37: error: comparisons cannot be chained; write "
                       "'a < b and b < c'"),
            std::string::npos)
      << Diags;
  EXPECT_EQ(parse("if a == b != c then 1 else 0", &Diags), "");
  EXPECT_NE(Diags.find("comparisons cannot be chained"), std::string::npos);
}

TEST(ParserPrecedence, LogicLevels) {
  EXPECT_EQ(parse("if not a < b then 1 else 0"), "(if (not (< a b)) 1 0)");
  EXPECT_EQ(parse("if a or b and c then 1 else 0"),
            "(if (or a (and b c)) 1 0)");
  EXPECT_EQ(parse("if a and b or c then 1 else 0"),
            "(if (or (and a b) c) 1 0)");
  EXPECT_EQ(parse("if not a and b then 1 else 0"), "(if (and (not a) b) 1 0)");
  EXPECT_EQ(parse("if a < 1 or not b >= 2 and c != 3 then 1 else 0"),
            "(if (or (< a 1) (and (not (>= b 2)) (!= c 3))) 1 0)");
}

TEST(ParserPrecedence, IfIsLoosest) {
  EXPECT_EQ(parse("if c then a + 1 else b * 2"), "(if c (+ a 1) (* b 2))");
  EXPECT_EQ(parse("1 + (if c then a else b)"), "(+ 1 (if c a b))");
}

TEST(ParserPrecedence, ReductionsAndCalls) {
  EXPECT_EQ(parse("sum(i in 0..n + 1: x[i]^2)"),
            "(sum i 0 (+ n 1) (^ (index x i) 2))");
  EXPECT_EQ(parse("max(a, b, c)"), "(call max a b c)");
  EXPECT_EQ(parse("min(j in 0..2: prod(k in 0..3: j * k))"),
            "(min j 0 2 (prod k 0 3 (* j k)))");
}

TEST(ParserLimits, DeepNestingIsAnErrorNotACrash) {
  std::string Deep(5000, '(');
  std::string Diags;
  EXPECT_EQ(parse(Deep + "x" + std::string(5000, ')'), &Diags), "");
  EXPECT_NE(Diags.find("expression nested too deeply"), std::string::npos);
  // A long left-deep chain grows the tree without recursion in the parser.
  std::string Chain = "x";
  for (int K = 0; K < 3000; ++K)
    Chain += "+x";
  EXPECT_EQ(parse(Chain, &Diags), "");
  EXPECT_NE(Diags.find("expression too deep: its syntax tree has more than "
                       "1024 levels"),
            std::string::npos);
  // ...while a chain of a few hundred terms is fine.
  std::string Short = "x";
  for (int K = 0; K < 500; ++K)
    Short += "+x";
  EXPECT_NE(parse(Short), "");
}

} // namespace
