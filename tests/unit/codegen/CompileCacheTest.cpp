//===- tests/unit/codegen/CompileCacheTest.cpp - The on-disk cache --------===//
//
// The compile cache through Compiler::compile, each test in its own
// temporary folder: a second compile of the same source hits; a parameter
// value is not part of the key; a changed source or GPU architecture
// misses; a damaged entry (truncated, bit-flipped, garbage) is detected,
// counted as corrupt, rebuilt, and the rebuilt code computes the right
// values. Also the key's own properties and the cache's failure modes.
//
//===----------------------------------------------------------------------===//

#include "CodegenTestUtil.h"

#include "backends/CompileCache.h"
#include "backends/Compiler.h"
#include "backends/ForeignLink.h"
#include "frontend/Evaluator.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

using namespace vf;
using namespace vf::test;

namespace {

const char *const PeakSource = R"(
param a = 0.1
integrand peak(x in [0, 1]^4) =
    prod(i in 0..4: exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))
)";

/// Evaluates integrand \p Name of \p M at \p X with \p Params through the
/// host batch entry point.
double evalJit(const CompiledModule &M, llvm::StringRef Name,
               std::vector<double> X, std::vector<double> Params) {
  const CompiledIntegrand *I = M.find(Name);
  if (!I || !I->Batch)
    return NAN;
  double Out = NAN;
  I->Batch(X.data(), 1, Params.data(), &Out);
  return Out;
}

double evalRef(const Program &P, llvm::StringRef Name, std::vector<double> X,
               std::vector<double> Params) {
  Evaluator Ev(Params);
  return Ev.evalIntegrand(*P.findIntegrand(Name), X)[0];
}

class CompileCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(Dir.path().empty());
    auto C = Compiler::create();
    ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
    TheCompiler = std::move(*C);
    Opts.CacheDir = Dir.path();
  }

  std::unique_ptr<CompiledModule> compile(const Program &P,
                                          const CompileOptions &O) {
    auto CM = TheCompiler->compile(P, O);
    if (!CM) {
      ADD_FAILURE() << llvm::toString(CM.takeError());
      return nullptr;
    }
    return std::move(*CM);
  }
  std::unique_ptr<CompiledModule> compile(const Program &P) {
    return compile(P, Opts);
  }

  /// Replaces the only cache file ending in \p Suffix by \p Edit's result.
  void damageEntry(llvm::StringRef Suffix,
                   std::function<std::string(std::string)> Edit) {
    std::vector<std::string> Files = Dir.files(Suffix);
    ASSERT_EQ(Files.size(), 1u);
    auto Buf = llvm::MemoryBuffer::getFile(Files[0], /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
    ASSERT_TRUE(static_cast<bool>(Buf));
    std::string Data = Edit((*Buf)->getBuffer().str());
    std::ofstream(Files[0], std::ios::binary | std::ios::trunc) << Data;
  }

  /// The folder's cache entries: objects, PTX, and the map-load
  /// calibration that a process's first host compile stores
  /// (MapLoadCalibration.h).
  size_t entries() const {
    return Dir.files(".obj").size() + Dir.files(".ptx").size() +
           Dir.files(".calibration").size();
  }

  TempDir Dir;
  std::unique_ptr<Compiler> TheCompiler;
  CompileOptions Opts;
};

const std::vector<double> Centre = {0.5, 0.5, 0.5, 0.5};
const std::vector<double> Off = {0.45, 0.52, 0.61, 0.5};

TEST_F(CompileCacheTest, SecondCompileHits) {
  auto P = loadProgram(PeakSource);
  ASSERT_TRUE(P);
  auto First = compile(*P);
  ASSERT_TRUE(First);
  EXPECT_FALSE(First->HostFromCache);
  CacheStats S = TheCompiler->cacheStats();
  EXPECT_EQ(S.Hits, 0u);
  EXPECT_EQ(S.Misses, 1u);
  EXPECT_EQ(Dir.files(".obj").size(), 1u);
  // Written atomically: no temporary file is left behind.
  EXPECT_EQ(Dir.files("").size(), entries());

  auto Second = compile(*P);
  ASSERT_TRUE(Second);
  EXPECT_TRUE(Second->HostFromCache);
  S = TheCompiler->cacheStats();
  EXPECT_EQ(S.Hits, 1u);
  EXPECT_EQ(S.Misses, 1u);
  EXPECT_EQ(S.Corrupt, 0u);

  // The reloaded object computes what the compiled one did, and both the
  // entry points are there.
  std::vector<double> A = P->defaultParams();
  EXPECT_EQ(evalJit(*First, "peak", Off, A), evalJit(*Second, "peak", Off, A));
  EXPECT_NEAR(evalJit(*Second, "peak", Off, A), evalRef(*P, "peak", Off, A),
              1e-12 * std::fabs(evalRef(*P, "peak", Off, A)));
  EXPECT_NE(Second->find("peak")->SampleTile, nullptr);
}

// The key depends on the source text, not on the Program object: the same
// text loaded again (another process, say) hits, also through a second
// Compiler.
TEST_F(CompileCacheTest, SameTextNewProgramHits) {
  auto P1 = loadProgram(PeakSource), P2 = loadProgram(PeakSource);
  ASSERT_TRUE(P1 && P2);
  EXPECT_EQ(compileCacheKey(*P1, "host"), compileCacheKey(*P2, "host"));
  ASSERT_TRUE(compile(*P1));
  auto Again = compile(*P2);
  ASSERT_TRUE(Again);
  EXPECT_TRUE(Again->HostFromCache);

  auto Other = Compiler::create();
  ASSERT_TRUE(static_cast<bool>(Other));
  auto Third = (*Other)->compile(*P2, Opts);
  ASSERT_TRUE(static_cast<bool>(Third));
  EXPECT_TRUE((*Third)->HostFromCache);
  EXPECT_EQ((*Other)->cacheStats().Hits, 1u);
  EXPECT_EQ((*Other)->cacheStats().Misses, 0u);
}

// Parameters live in a block read at run time: another value needs no
// recompilation, and the one compiled module gives the right value for
// each.
TEST_F(CompileCacheTest, ParameterValueDoesNotRecompile) {
  auto P = loadProgram(PeakSource);
  ASSERT_TRUE(P);
  auto CM = compile(*P);
  ASSERT_TRUE(CM);
  for (double A : {0.1, 0.2, 0.05, 3.0}) {
    double Got = evalJit(*CM, "peak", Off, {A});
    double Want = evalRef(*P, "peak", Off, {A});
    EXPECT_LE(ulpDistance(Got, Want), 2u * 4 * 3) << "a = " << A;
  }
  EXPECT_NE(evalJit(*CM, "peak", Off, {0.1}), evalJit(*CM, "peak", Off, {0.2}));
  // (1 / (0.2 sqrt(pi)))^4 at the centre.
  EXPECT_NEAR(evalJit(*CM, "peak", Centre, {0.2}),
              std::pow(1 / (0.2 * std::sqrt(M_PI)), 4), 1e-12);
  CacheStats S = TheCompiler->cacheStats();
  EXPECT_EQ(S.Misses, 1u);
  EXPECT_EQ(S.Hits, 0u);
  EXPECT_EQ(Dir.files(".obj").size(), 1u);
}

TEST_F(CompileCacheTest, ChangedSourceMisses) {
  auto P = loadProgram(PeakSource);
  std::string Changed = PeakSource;
  Changed.replace(Changed.find("0.5)^2"), 3, "0.4");
  auto Q = loadProgram(Changed);
  ASSERT_TRUE(P && Q);
  EXPECT_NE(compileCacheKey(*P, "host"), compileCacheKey(*Q, "host"));
  ASSERT_TRUE(compile(*P));
  auto CQ = compile(*Q);
  ASSERT_TRUE(CQ);
  EXPECT_FALSE(CQ->HostFromCache);
  EXPECT_EQ(TheCompiler->cacheStats().Misses, 2u);
  EXPECT_EQ(TheCompiler->cacheStats().Hits, 0u);
  EXPECT_EQ(Dir.files(".obj").size(), 2u);
  // The new module computes the new integrand.
  std::vector<double> X = {0.4, 0.4, 0.4, 0.4};
  EXPECT_NEAR(evalJit(*CQ, "peak", X, {0.1}),
              std::pow(1 / (0.1 * std::sqrt(M_PI)), 4), 1e-9);
}

// Whitespace and comments are part of the source text, hence of the key (a
// deliberate simplicity: the cache never has to canonicalize).
TEST_F(CompileCacheTest, KeyCoversEveryByteOfTheSource) {
  auto P = loadProgram(PeakSource);
  auto Q = loadProgram(std::string(PeakSource) + "# a comment\n");
  ASSERT_TRUE(P && Q);
  EXPECT_NE(compileCacheKey(*P, "host"), compileCacheKey(*Q, "host"));
  EXPECT_NE(compileCacheKey(*P, "host"), compileCacheKey(*P, "ptx;sm_90"));
  EXPECT_EQ(compileCacheKey(*P, "ptx;sm_90").size(), 64u);
}

// The C/C++ part of the key carries the precision, in Clang's digest (the
// flags define __VF_SINGLE__) and beside it: code compiled with vf_real a
// double is never found for single precision.
TEST_F(CompileCacheTest, ForeignDigestCarriesThePrecision) {
  const std::string Path = Dir.path() + "/f.cpp";
  std::ofstream(Path) << "#include \"vf/integrand.h\"\n"
                         "VF_FUNCTION vf_real f(vf_real a) { return a; }\n";
  ForeignSource Double{Path, {}}, Single{Path, {}};
  Single.Single = true;
  EXPECT_NE(foreignDigest({Double}, nullptr), foreignDigest({Single}, nullptr));
  EXPECT_EQ(foreignDigest({Single}, nullptr), foreignDigest({Single}, nullptr));
  if (!clangIntegrandsBuilt())
    return;
  auto D = scanForeignSource(Path, ForeignTarget::Host);
  auto S = scanForeignSource(Path, ForeignTarget::Host, /*Single=*/true);
  ASSERT_TRUE(D && S);
  EXPECT_NE(D->Digest, S->Digest);
}

// The GPU architecture is part of the PTX key: sm_80 and sm_90 are two
// entries, each hit on its second use, each with its own .target.
TEST_F(CompileCacheTest, ChangedGpuArchMisses) {
  auto P = loadProgram(PeakSource);
  ASSERT_TRUE(P);
  CompileOptions O = Opts;
  O.Host = false;
  O.PTX = true;
  O.GpuArch = "sm_90";
  auto A = compile(*P, O);
  ASSERT_TRUE(A);
  EXPECT_FALSE(A->PTXFromCache);
  EXPECT_NE(A->PTX.find(".target sm_90"), std::string::npos);

  O.GpuArch = "sm_80";
  auto B = compile(*P, O);
  ASSERT_TRUE(B);
  EXPECT_FALSE(B->PTXFromCache);
  EXPECT_NE(B->PTX.find(".target sm_80"), std::string::npos);
  EXPECT_EQ(Dir.files(".ptx").size(), 2u);

  auto C = compile(*P, O);
  ASSERT_TRUE(C);
  EXPECT_TRUE(C->PTXFromCache);
  EXPECT_EQ(C->PTX, B->PTX);
  CacheStats S = TheCompiler->cacheStats();
  EXPECT_EQ(S.Misses, 2u);
  EXPECT_EQ(S.Hits, 1u);
  // No host code was asked for.
  EXPECT_EQ(Dir.files(".obj").size(), 0u);
  EXPECT_EQ(C->find("peak")->Batch, nullptr);
  EXPECT_EQ(C->find("peak")->GpuEvalKernel, "vf_eval_peak");
  EXPECT_EQ(C->find("peak")->GpuSampleKernel, "vf_sample_tiles_gpu_peak");
}

/// Ways to damage an entry. Each is detected, the entry rebuilt and
/// rewritten; the result is right, and the next compile hits.
struct Damage {
  const char *What;
  std::function<std::string(std::string)> Apply;
};

class CorruptEntryTest : public CompileCacheTest,
                         public ::testing::WithParamInterface<unsigned> {};

using Edit = std::function<std::string(std::string)>;

/// S with the bits \p Mask of byte \p At flipped.
Edit flip(size_t At, char Mask) {
  return [At, Mask](std::string S) {
    S[At] ^= Mask;
    return S;
  };
}

// Entry layout: magic (8) | length (8) | SHA-256 (32) | payload.
const Damage Damages[] = {
    {"truncated to half",
     [](std::string S) { return S.substr(0, S.size() / 2); }},
    {"truncated by one byte",
     [](std::string S) { return S.substr(0, S.size() - 1); }},
    {"truncated inside the header",
     [](std::string S) { return S.substr(0, 20); }},
    {"empty", [](std::string) { return std::string(); }},
    {"one bit flipped in the payload", flip(200, 0x10)},
    {"one bit flipped in the magic", flip(2, 1)},
    {"one bit flipped in the length", flip(9, 4)},
    {"one bit flipped in the checksum", flip(30, 0x80)},
    {"a byte appended", [](std::string S) { return S + "x"; }},
    {"garbage", [](std::string S) { return std::string(S.size(), 'z'); }},
};

TEST_P(CorruptEntryTest, IsDetectedAndRebuilt) {
  const Damage &D = Damages[GetParam()];
  SCOPED_TRACE(D.What);
  auto P = loadProgram(PeakSource);
  ASSERT_TRUE(P);
  auto Good = compile(*P);
  ASSERT_TRUE(Good);
  double Want = evalJit(*Good, "peak", Off, {0.1});

  damageEntry(".obj", D.Apply);
  auto Rebuilt = compile(*P);
  ASSERT_TRUE(Rebuilt);
  EXPECT_FALSE(Rebuilt->HostFromCache);
  CacheStats S = TheCompiler->cacheStats();
  EXPECT_EQ(S.Corrupt, 1u);
  EXPECT_EQ(S.Hits, 0u);
  EXPECT_EQ(S.Misses, 2u);
  EXPECT_EQ(evalJit(*Rebuilt, "peak", Off, {0.1}), Want);

  // The entry was rewritten whole: the next compile trusts it.
  auto Again = compile(*P);
  ASSERT_TRUE(Again);
  EXPECT_TRUE(Again->HostFromCache);
  EXPECT_EQ(TheCompiler->cacheStats().Hits, 1u);
  EXPECT_EQ(TheCompiler->cacheStats().Corrupt, 1u);
  EXPECT_EQ(evalJit(*Again, "peak", Off, {0.1}), Want);
}

INSTANTIATE_TEST_SUITE_P(
    Damages, CorruptEntryTest,
    ::testing::Range(0u, static_cast<unsigned>(std::size(Damages))));

// The same for a PTX entry: a flipped byte of text is caught by the
// checksum, and the rebuilt PTX is the original.
TEST_F(CompileCacheTest, CorruptPTXIsRebuilt) {
  auto P = loadProgram(PeakSource);
  ASSERT_TRUE(P);
  CompileOptions O = Opts;
  O.Host = false;
  O.PTX = true;
  auto Good = compile(*P, O);
  ASSERT_TRUE(Good);
  damageEntry(".ptx", [](std::string S) {
    size_t At = S.find(".target sm_90");
    if (At != std::string::npos)
      S[At + 11] = '8'; // ".target sm_80": plausible, and wrong
    return S;
  });
  auto Rebuilt = compile(*P, O);
  ASSERT_TRUE(Rebuilt);
  EXPECT_FALSE(Rebuilt->PTXFromCache);
  EXPECT_EQ(TheCompiler->cacheStats().Corrupt, 1u);
  EXPECT_EQ(Rebuilt->PTX, Good->PTX);
}

// An entry carries its own key: a valid entry of another integrand (here
// 2 * peak) copied over this one's file is a miss and is rebuilt, never
// served (it used to make the run return twice the integral).
TEST_F(CompileCacheTest, EntryOfAnotherKeyIsNotServed) {
  const std::string Twice =
      std::string(PeakSource).replace(std::string(PeakSource).find("prod"), 4,
                                      "2 * prod");
  auto Other = loadProgram(Twice);
  ASSERT_TRUE(Other && compile(*Other));
  std::vector<std::string> OtherFiles = Dir.files(".obj");
  ASSERT_EQ(OtherFiles.size(), 1u);
  auto P = loadProgram(PeakSource);
  ASSERT_TRUE(P && compile(*P));
  std::string Mine;
  for (const std::string &F : Dir.files(".obj"))
    if (F != OtherFiles[0])
      Mine = F;
  ASSERT_FALSE(Mine.empty());
  std::ifstream In(OtherFiles[0], std::ios::binary);
  std::string Bytes((std::istreambuf_iterator<char>(In)),
                    std::istreambuf_iterator<char>());
  std::ofstream(Mine, std::ios::binary | std::ios::trunc) << Bytes;
  auto Again = compile(*P);
  ASSERT_TRUE(Again);
  EXPECT_FALSE(Again->HostFromCache);
  EXPECT_EQ(TheCompiler->cacheStats().Corrupt, 1u);
  EXPECT_EQ(evalJit(*Again, "peak", Off, {0.1}),
            evalRef(*P, "peak", Off, {0.1}));
}

// An entry that is a FIFO or a link to /dev/zero is a miss at once: no
// blocking open, no endless read.
TEST_F(CompileCacheTest, NonRegularEntryIsAMissNotAHang) {
  auto P = loadProgram(PeakSource);
  ASSERT_TRUE(P && compile(*P));
  std::vector<std::string> Files = Dir.files(".obj");
  ASSERT_EQ(Files.size(), 1u);
  for (int Kind = 0; Kind < 2; ++Kind) {
    std::remove(Files[0].c_str());
    if (Kind == 0)
      ASSERT_EQ(::mkfifo(Files[0].c_str(), 0600), 0);
    else
      ASSERT_EQ(::symlink("/dev/zero", Files[0].c_str()), 0);
    auto Again = compile(*P);
    ASSERT_TRUE(Again);
    EXPECT_FALSE(Again->HostFromCache) << Kind;
    EXPECT_EQ(evalJit(*Again, "peak", Off, {0.1}),
              evalRef(*P, "peak", Off, {0.1}));
  }
}

// --no-cache neither reads nor writes.
TEST_F(CompileCacheTest, DisabledCacheIsNotTouched) {
  auto P = loadProgram(PeakSource);
  ASSERT_TRUE(P);
  CompileOptions O = Opts;
  O.UseCache = false;
  ASSERT_TRUE(compile(*P, O));
  ASSERT_TRUE(compile(*P, O));
  EXPECT_EQ(Dir.files("").size(), 0u);
  CacheStats S = TheCompiler->cacheStats();
  EXPECT_EQ(S.Hits + S.Misses + S.Corrupt + S.WriteFailures, 0u);
}

// The cache is an optimisation: a folder that cannot be created costs a
// counted write failure, never the compile.
TEST_F(CompileCacheTest, UnwritableFolderOnlyCounts) {
  std::string File = Dir.path() + "/not-a-folder";
  std::ofstream(File) << "x";
  auto P = loadProgram(PeakSource);
  ASSERT_TRUE(P);
  CompileOptions O = Opts;
  O.CacheDir = File + "/cache";
  auto CM = compile(*P, O);
  ASSERT_TRUE(CM);
  EXPECT_EQ(TheCompiler->cacheStats().WriteFailures, 1u);
  EXPECT_NEAR(evalJit(*CM, "peak", Centre, {0.1}),
              std::pow(1 / (0.1 * std::sqrt(M_PI)), 4), 1e-9);
}

// One Compiler is used from several threads; each compile gets its own
// module and the shared cache ends with one entry per key.
TEST_F(CompileCacheTest, ConcurrentCompiles) {
  auto P = loadProgram(PeakSource);
  ASSERT_TRUE(P);
  constexpr unsigned Threads = 4;
  std::vector<double> Results(Threads, NAN);
  std::vector<std::thread> Pool;
  for (unsigned T = 0; T < Threads; ++T)
    Pool.emplace_back([&, T] {
      auto CM = TheCompiler->compile(*P, Opts);
      if (!CM) {
        llvm::consumeError(CM.takeError());
        return;
      }
      Results[T] = evalJit(**CM, "peak", Centre, {0.1 * (T + 1)});
    });
  for (std::thread &T : Pool)
    T.join();
  for (unsigned T = 0; T < Threads; ++T)
    EXPECT_NEAR(Results[T],
                std::pow(1 / (0.1 * (T + 1) * std::sqrt(M_PI)), 4),
                1e-12 * Results[0])
        << "thread " << T;
  CacheStats S = TheCompiler->cacheStats();
  EXPECT_EQ(S.Hits + S.Misses, Threads);
  EXPECT_EQ(S.Corrupt, 0u);
  EXPECT_EQ(Dir.files(".obj").size(), 1u);
  EXPECT_EQ(Dir.files("").size(), entries()); // no temporary left
}

TEST(CompileCacheKeyTest, FieldsAreLengthPrefixed) {
  auto Key = [](std::initializer_list<llvm::StringRef> Fields) {
    CompileCacheKey K;
    for (llvm::StringRef F : Fields)
      K.add(F);
    return K.finish();
  };
  EXPECT_EQ(Key({"ab", "c"}), Key({"ab", "c"}));
  EXPECT_NE(Key({"ab", "c"}), Key({"a", "bc"}));
  EXPECT_NE(Key({"abc"}), Key({"abc", ""}));
  std::string K = Key({"x"});
  EXPECT_EQ(K.size(), 64u);
  EXPECT_EQ(K.find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(CompileCacheDirTest, EnvironmentChoosesTheFolder) {
  const char *Old = getenv("VF_CACHE_DIR");
  std::string Saved = Old ? Old : "";
  setenv("VF_CACHE_DIR", "/tmp/vf-cache-env-test", 1);
  EXPECT_EQ(CompileCache::defaultDirectory(), "/tmp/vf-cache-env-test");
  EXPECT_EQ(CompileCache("").directory(), "/tmp/vf-cache-env-test");
  EXPECT_EQ(CompileCache("/elsewhere").directory(), "/elsewhere");
  unsetenv("VF_CACHE_DIR");
  const char *OldXdg = getenv("XDG_CACHE_HOME");
  std::string SavedXdg = OldXdg ? OldXdg : "";
  setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  EXPECT_EQ(CompileCache::defaultDirectory(), "/tmp/xdg/vegasflow");
  if (OldXdg)
    setenv("XDG_CACHE_HOME", SavedXdg.c_str(), 1);
  else
    unsetenv("XDG_CACHE_HOME");
  if (Old)
    setenv("VF_CACHE_DIR", Saved.c_str(), 1);
}

} // namespace
