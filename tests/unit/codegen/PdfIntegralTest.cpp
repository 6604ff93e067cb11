//===- tests/unit/codegen/PdfIntegralTest.cpp - Densities in a run --------===//
//
// A compiled integrand with xfx, integrated: the integral of
// x u(x, Q = 100) over [1e-3, 1] against a fine quadrature of the set's own
// host interpolation (PdfMember), within 5 sigma; the same bits on 1 and 3
// threads; and the compile cache, which a second compilation hits and a
// touched member file misses, since the key has the set's file identity.
//
//===----------------------------------------------------------------------===//

#include "CodegenTestUtil.h"

#include "backends/Compiler.h"
#include "pdf/PdfSet.h"
#include "vf/Integrator.h"
#include "vf/Module.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

namespace fs = std::filesystem;

namespace {

const std::string TestSet = std::string(VF_PDF_TESTDATA) + "/VFToyLO";

std::string program(const std::string &Set) {
  return "pdf p = \"" + Set + "\"\n" +
         "integrand u(x in [1e-3, 1]) = xfx(p, 2, x, 100)\n";
}

/// The integral of x u(x, 100) over [1e-3, 1] from the host's
/// interpolation: composite Simpson in t = log x on 2^17 intervals, whose
/// error is far below the run's.
double simpsonReference() {
  auto Set = vf::pdf::PdfSet::open(TestSet);
  auto M = Set->loadMember(0);
  const int N = 1 << 17;
  const double A = std::log(1e-3), H = -A / N;
  double Sum = 0;
  for (int K = 0; K <= N; ++K) {
    double X = std::exp(A + K * H);
    double W = K == 0 || K == N ? 1 : K % 2 ? 4 : 2;
    Sum += W * M->xfx(2, X, 100) * X;
  }
  return Sum * H / 3;
}

/// The same run (seed 7, 2 warm-up and 8 iterations of 20,000 samples) on
/// 1 and on 3 threads; empty after a failure.
std::vector<vf::Result> onOneAndThreeThreads(const vf::IntegrandInfo &I) {
  std::vector<vf::Result> Results;
  for (unsigned Threads : {1u, 3u}) {
    vf::IntegratorOptions O;
    O.Seed = 7;
    O.Threads = Threads;
    auto Integ = vf::Integrator::create(I, O);
    auto R = Integ ? (*Integ)->run(8, 20000, 2)
                   : vf::Expected<vf::Result>(Integ.error());
    if (!R) {
      ADD_FAILURE() << R.message();
      return {};
    }
    Results.push_back(*R);
  }
  return Results;
}

TEST(PdfIntegral, MatchesTheHostInterpolationsQuadrature) {
  auto M = vf::Module::compileString(program(TestSet), "u.vf");
  ASSERT_TRUE(M) << M.message();
  auto I = (*M)->integrand("u");
  ASSERT_TRUE(I) << I.message();
  std::vector<vf::Result> Runs = onOneAndThreeThreads(*I);
  ASSERT_EQ(Runs.size(), 2u);
  const double Want = simpsonReference();
  EXPECT_LT(std::abs(Runs[0].Mean[0] - Want), 5 * Runs[0].Error[0])
      << Runs[0].Mean[0] << " +- " << Runs[0].Error[0] << " against " << Want;
  EXPECT_EQ(Runs[0].Mean[0], Runs[1].Mean[0]);
  EXPECT_EQ(Runs[0].Error[0], Runs[1].Error[0]);
}

TEST(PdfIntegral, ATouchedMemberFileIsCompiledAgain) {
  const fs::path Dir = fs::temp_directory_path() /
                       ("vf-pdf-cache-" + std::to_string(::getpid()));
  fs::remove_all(Dir);
  fs::create_directories(Dir / "sets");
  fs::copy(TestSet, Dir / "sets" / "VFToyLO");
  const std::string Source = program((Dir / "sets" / "VFToyLO").string());
  auto C = vf::Compiler::create();
  ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
  vf::CompileOptions O;
  O.CacheDir = (Dir / "cache").string();
  auto HostFromCache = [&] {
    std::unique_ptr<vf::Program> P = vf::test::loadProgram(Source);
    EXPECT_TRUE(P);
    auto CM = (*C)->compile(*P, O);
    EXPECT_TRUE(static_cast<bool>(CM)) << llvm::toString(CM.takeError());
    return CM && (*CM)->HostFromCache;
  };
  EXPECT_FALSE(HostFromCache());
  EXPECT_TRUE(HostFromCache());
  const fs::path Member = Dir / "sets" / "VFToyLO" / "VFToyLO_0000.dat";
  fs::last_write_time(Member,
                      fs::last_write_time(Member) + std::chrono::seconds(10));
  EXPECT_FALSE(HostFromCache());
  EXPECT_TRUE(HostFromCache());
  fs::remove_all(Dir);
}

} // namespace
