//===- tests/unit/runtime/files/OutputGuardTest.cpp - Inputs kept safe ----===//
//
// OutputGuard refuses an output that is an input (the same path, another
// spelling of it, a symlink or a hard link to it) or another output, and
// allows only the pair an output is documented to replace; checkPathPart
// keeps a placeholder's value inside the output's folder.
//
//===----------------------------------------------------------------------===//

#include "vf/OutputGuard.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include <unistd.h>

using namespace vf;

namespace {

struct TempDir {
  std::string Path;
  TempDir() {
    char T[] = "/tmp/vf-outputguard-XXXXXX";
    Path = ::mkdtemp(T);
  }
  ~TempDir() { std::system(("rm -rf '" + Path + "'").c_str()); }
  std::string operator/(const std::string &Name) const {
    return Path + "/" + Name;
  }
};

Status sourceAndOutput(const std::string &Source, const std::string &Output) {
  OutputGuard G;
  G.input(Source, "the source file");
  G.output(Output, "--json");
  return G.check();
}

TEST(OutputGuardTest, RefusesAnOutputThatIsAnInputByAnyName) {
  TempDir D;
  std::ofstream(D / "lep.vf") << "integrand f(x in [0, 1]) = x[0]\n";
  ASSERT_EQ(::mkdir((D / "sub").c_str(), 0700), 0);
  ASSERT_EQ(::symlink((D / "lep.vf").c_str(), (D / "link.json").c_str()), 0);
  ASSERT_EQ(::link((D / "lep.vf").c_str(), (D / "hard.json").c_str()), 0);
  for (const std::string &Out :
       {D / "lep.vf", D.Path + "/./lep.vf", D / "sub/../lep.vf",
        D / "link.json", D / "hard.json"}) {
    Status S = sourceAndOutput(D / "lep.vf", Out);
    ASSERT_FALSE(S) << Out;
    EXPECT_NE(S.message().find("--json '" + Out + "' is the source file"),
              std::string::npos)
        << S.message();
  }
  EXPECT_TRUE(sourceAndOutput(D / "lep.vf", D / "lep.json"));
}

TEST(OutputGuardTest, RefusesTwoOutputsOfOneFileEvenIfNeitherExists) {
  TempDir D;
  const std::string Here = D / "a.lhe", There = D.Path + "/./a.lhe";
  OutputGuard G;
  G.output(Here, "--json");
  G.output(There, "--events-out");
  Status S = G.check();
  ASSERT_FALSE(S);
  EXPECT_NE(S.message().find("--events-out '" + There + "' and --json '" +
                             Here + "' are the same file"),
            std::string::npos)
      << S.message();
}

TEST(OutputGuardTest, RelativeAndAbsoluteSpellingsAreOneFile) {
  TempDir D;
  char Old[4096];
  ASSERT_NE(::getcwd(Old, sizeof(Old)), nullptr);
  ASSERT_EQ(::chdir(D.Path.c_str()), 0);
  OutputGuard G;
  G.output("a.lhe", "'events_out' of run 'one'");
  G.output(D / "a.lhe", "'events_out' of run 'two'");
  const bool Refused = !G.check();
  ASSERT_EQ(::chdir(Old), 0);
  EXPECT_TRUE(Refused);
}

TEST(OutputGuardTest, AllowsOnlyTheDocumentedReplacement) {
  TempDir D;
  std::ofstream(D / "s.ckpt") << "state";
  OutputGuard G;
  G.input(D / "s.ckpt", "the checkpoint --resume reads");
  G.output(D / "s.ckpt", "--checkpoint", "the checkpoint --resume reads");
  EXPECT_TRUE(G.check());
  OutputGuard Grid;
  Grid.input(D / "s.ckpt", "the checkpoint --resume reads");
  Grid.output(D / "s.ckpt", "--save-grid", "the grid --load-grid reads");
  EXPECT_FALSE(Grid.check());
}

TEST(OutputGuardTest, StandardStreamsAndEmptyPathsAreNoFiles) {
  OutputGuard G;
  G.input("-", "the source file");
  G.output("-", "--json");
  G.output("-", "--csv");
  G.output("", "--report");
  EXPECT_TRUE(G.check());
}

TEST(OutputGuardTest, CheckNotAnInputNamesTheInput) {
  TempDir D;
  std::ofstream(D / "me.cpp") << "double f(double x) { return x; }\n";
  Status S = checkNotAnInput(D / "me.cpp", "the checkpoint", {D / "me.cpp"},
                             "a source file of integrand 'f'");
  ASSERT_FALSE(S);
  EXPECT_NE(S.message().find("is a source file of integrand 'f'"),
            std::string::npos)
      << S.message();
  EXPECT_TRUE(checkNotAnInput(D / "f.ckpt", "the checkpoint", {D / "me.cpp"},
                              "a source file of integrand 'f'"));
}

TEST(OutputGuardTest, PlaceholderValuesStayInTheFolder) {
  for (const char *Good : {"dy", "run-1", "a.b", "..x"})
    EXPECT_TRUE(checkPathPart(Good, "the run name")) << Good;
  for (const char *Bad : {"../escaped", "a/b", ".", "..", "", "tab\there"}) {
    Status S = checkPathPart(Bad, "the run name");
    ASSERT_FALSE(S) << Bad;
    EXPECT_NE(S.message().find("the run name '"), std::string::npos);
  }
}

} // namespace
