//===- tests/unit/driver/LocatedErrorsTest.cpp - A batch file's errors ----===//
//
// vegasc prints a batch file's mistakes itself, in llvm::SourceMgr's
// layout (the lit tests of batch errors pin it): these cases are the ones
// those files do not reach, tabs under the caret, a line of non-ASCII
// bytes, a column past its line, the error cap, and the closest name a
// misspelt key is offered.
//
//===----------------------------------------------------------------------===//

#include "vegasc/LocatedErrors.h"
#include "vegasc/ClosestName.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

using namespace vf;

namespace {

/// What \p Report prints through a LocatedErrors over \p Text.
std::string printed(const std::string &Text,
                    const std::function<void(LocatedErrors &)> &Report) {
  char *Buf = nullptr;
  std::size_t Size = 0;
  std::FILE *Out = open_memstream(&Buf, &Size);
  {
    LocatedErrors Diags(Out);
    Diags.setText("runs.toml", Text);
    Report(Diags);
    Diags.finish();
  }
  std::fclose(Out);
  std::string S(Buf, Size);
  std::free(Buf);
  return S;
}

TEST(LocatedErrors, CaretUnderTheColumnWithTabsWidened) {
  EXPECT_EQ(printed("a = 1\n\tb\t= 2\n",
                    [](LocatedErrors &D) { D.error(D.locate(2, 4), "bad"); }),
            "runs.toml:2:4: error: bad\n"
            "        b       = 2\n"
            "                ^\n");
  // A caret on a tab fills the tab's width, as SourceMgr draws it.
  EXPECT_EQ(printed("\tb\t= 2\n",
                    [](LocatedErrors &D) { D.error(D.locate(1, 3), "bad"); }),
            "runs.toml:1:3: error: bad\n"
            "        b       = 2\n"
            "         ^^^^^^^\n");
}

TEST(LocatedErrors, NoCaretUnderNonAsciiAndNotesFollowTheirError) {
  EXPECT_EQ(printed("k = \"\xc3\xa9\"\nj = 2\n",
                    [](LocatedErrors &D) {
                      D.error(D.locate(1, 5), "bad");
                      D.note(D.locate(2, 1), "here");
                    }),
            "runs.toml:1:5: error: bad\n"
            "k = \"\xc3\xa9\"\n"
            "runs.toml:2:1: note: here\n"
            "j = 2\n"
            "^\n");
}

TEST(LocatedErrors, PlacesOffTheTextHaveNoLocation) {
  const std::string Text = "a = 1\r\nb = 2";
  std::string Out = printed(Text, [](LocatedErrors &D) {
    EXPECT_FALSE(D.locate(3, 1).isValid());
    EXPECT_FALSE(D.locate(1, 7).isValid()); // past the \r
    EXPECT_FALSE(D.locate(2, 7).isValid()); // past the end
    EXPECT_TRUE(D.locate(2, 6).isValid());  // at the end
    D.error(D.locate(9, 1), "lost");
  });
  EXPECT_EQ(Out, "vegasc: error: lost\n");
}

TEST(LocatedErrors, ErrorsBeyondTheCapAreCountedNotPrinted) {
  std::string Out = printed("x\n", [](LocatedErrors &D) {
    D.setErrorLimit(1);
    D.error(D.locate(1, 1), "one");
    D.error(D.locate(1, 1), "two");
    D.note(D.locate(1, 1), "of two");
    D.errorNoLoc("three");
  });
  EXPECT_EQ(Out, "runs.toml:1:1: error: one\nx\n^\n"
                 "vegasc: too many errors emitted, stopping now\n"
                 "3 errors generated.\n");
}

TEST(ClosestName, TyposWithinAThirdOfTheName) {
  const std::string_view Keys[] = {"calls", "iterations", "alpha", "seed"};
  EXPECT_EQ(closestName("cals", Keys), "calls");
  EXPECT_EQ(closestName("alpah", Keys), "alpha"); // a swap is one edit
  EXPECT_EQ(closestName("itertions", Keys), "iterations");
  EXPECT_EQ(closestName("seed", Keys), ""); // exact: no suggestion
  EXPECT_EQ(closestName("zzzzz", Keys), "");
}

} // namespace
