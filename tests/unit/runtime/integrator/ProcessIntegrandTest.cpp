//===- tests/unit/runtime/integrator/ProcessIntegrandTest.cpp - Processes -===//
//
// vf::processIntegrand (vf/Process.h) with a process class written as
// generated code is: a width read from a parameter card at construction,
// std::vector buffers, a method per point. Each object checks that no two
// threads use it at once; the objects stay at most as many as the threads
// over several runs; results are bitwise the same on 1, 2 and 4 threads and
// within 5 sigma of the exact integral; failing factories are Errors or
// NaN batches without losing an object; bad shapes are refused.
//
//===----------------------------------------------------------------------===//
#include "vf/Integrator.h"
#include "vf/Process.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

/// What the objects of one integrand saw, shared with the test.
struct Tally {
  std::atomic<unsigned> Built{0}, Destroyed{0}, Overlaps{0};
  /// While Hold is set, the thread HoldThread waits inside sigma().
  std::atomic<bool> Hold{false}, Holding{false};
  std::atomic<std::thread::id> HoldThread;
};

/// exp(-|x - 1/2|^2 / (2 w^2)) on [0,1]^2, w from the card "width w".
class GaussProcess {
public:
  GaussProcess(const std::string &Card, Tally &T) : T(T) {
    std::istringstream In(Card);
    std::string Key;
    In >> Key >> Width;
    if (Key != "width" || !In)
      throw std::runtime_error("no width in the card");
    ++T.Built;
  }
  GaussProcess(const GaussProcess &) = delete;
  GaussProcess &operator=(const GaussProcess &) = delete;
  ~GaussProcess() { ++T.Destroyed; }

  double sigma(std::span<const double> X) {
    // An overlap shows as the flag already set on entry, or as another
    // thread's id on exit.
    if (InUse.exchange(true))
      ++T.Overlaps;
    User.store(std::this_thread::get_id());
    while (T.Hold && T.HoldThread.load() == std::this_thread::get_id()) {
      T.Holding = true;
      std::this_thread::yield();
    }
    Delta.assign(X.begin(), X.end());
    double R2 = 0;
    for (double &D : Delta) {
      D -= 0.5;
      R2 += D * D;
    }
    double F = std::exp(-R2 / (2 * Width * Width));
    if (User.load() != std::this_thread::get_id())
      ++T.Overlaps;
    InUse = false;
    return F;
  }

private:
  Tally &T;
  double Width = 0;
  std::vector<double> Delta;
  std::atomic<bool> InUse{false};
  std::atomic<std::thread::id> User;
};

constexpr double Width = 0.2;

double gaussExact() {
  double One = Width * std::sqrt(2 * M_PI) *
               std::erf(1.0 / (2 * std::sqrt(2.0) * Width));
  return One * One;
}

auto factory(Tally &T) {
  return [&T] { return std::make_unique<GaussProcess>("width 0.2", T); };
}

vf::ProcessSpec gaussSpec() {
  return {"gauss", 2, 1, {0, 0}, {1, 1}, {{"scale"}, {1.0}}};
}

vf::IntegrandInfo gauss(Tally &T) {
  auto I = vf::processIntegrand(
      gaussSpec(), factory(T),
      [](GaussProcess &P, std::span<const double> X,
         std::span<const double> Params,
         std::span<double> Out) { Out[0] = Params[0] * P.sigma(X); });
  EXPECT_TRUE(bool(I)) << (I ? "" : I.message());
  return *I;
}

vf::Result integrate(const vf::IntegrandInfo &I, unsigned Threads,
                     double Scale = 1.0) {
  vf::IntegratorOptions O;
  O.Seed = 2718;
  O.Threads = Threads;
  auto Integ = vf::Integrator::create(I, O);
  EXPECT_TRUE(bool(Integ));
  EXPECT_TRUE(bool((*Integ)->setParam("scale", Scale)));
  auto R = (*Integ)->run(5, 20000);
  EXPECT_TRUE(bool(R)) << (R ? "" : R.message());
  return *R;
}

/// Many small batches on 4 threads, two runs of five iterations each: no
/// object is ever used by two threads at once, and the objects, built
/// once, stay at most one per thread (each iteration starts new threads).
TEST(ProcessIntegrandTest, ObjectsNeverSharedAndBounded) {
  Tally T;
  {
    vf::IntegrandInfo I = gauss(T);
    // The first object is built before any run.
    EXPECT_EQ(T.Built.load(), 1u);
    for (int Run = 0; Run < 2; ++Run) {
      integrate(I, 4);
      EXPECT_GE(T.Built.load(), 1u);
      EXPECT_LE(T.Built.load(), 4u);
    }
    EXPECT_EQ(T.Destroyed.load(), 0u);
  }
  EXPECT_EQ(T.Overlaps.load(), 0u);
  // The objects live as long as the integrand, and no longer.
  EXPECT_EQ(T.Destroyed.load(), T.Built.load());
}

/// Same seed: bitwise the same estimates on 1, 2 and 4 threads.
TEST(ProcessIntegrandTest, BitwiseAcrossThreads) {
  Tally T;
  vf::IntegrandInfo I = gauss(T);
  vf::Result One = integrate(I, 1);
  for (unsigned Threads : {2u, 4u}) {
    vf::Result R = integrate(I, Threads);
    EXPECT_EQ(R.Mean[0], One.Mean[0]) << Threads << " threads";
    EXPECT_EQ(R.Error[0], One.Error[0]) << Threads << " threads";
    ASSERT_EQ(R.Iterations.size(), One.Iterations.size());
    for (std::size_t K = 0; K < R.Iterations.size(); ++K)
      EXPECT_EQ(R.Iterations[K].Mean[0], One.Iterations[K].Mean[0]);
  }
}

/// The known Gaussian integral, times the parameter set by setParam.
TEST(ProcessIntegrandTest, KnownAnswerWithParameter) {
  Tally T;
  vf::Result R = integrate(gauss(T), 2, 3.0);
  double Exact = 3.0 * gaussExact();
  EXPECT_LT(std::abs(R.Mean[0] - Exact), 5 * R.Error[0])
      << R.Mean[0] << " +- " << R.Error[0] << " vs " << Exact;
  EXPECT_LT(R.Error[0] / Exact, 2e-3);
}

/// A factory that throws or returns null: an Error naming the integrand
/// (and what() of the exception), and the callback is never built.
TEST(ProcessIntegrandTest, FailingFactoryIsAnError) {
  auto Eval = [](GaussProcess &P, std::span<const double> X,
                 std::span<double> Out) { Out[0] = P.sigma(X); };
  Tally T;
  auto Throws = vf::processIntegrand(
      gaussSpec(),
      [&T] { return std::make_unique<GaussProcess>("mass 91.2", T); }, Eval);
  ASSERT_FALSE(bool(Throws));
  EXPECT_NE(Throws.message().find("process integrand 'gauss'"),
            std::string::npos)
      << Throws.message();
  EXPECT_NE(Throws.message().find("no width in the card"), std::string::npos)
      << Throws.message();
  auto Null = vf::processIntegrand(
      gaussSpec(), [] { return std::unique_ptr<GaussProcess>(); }, Eval);
  ASSERT_FALSE(bool(Null));
  EXPECT_NE(Null.message().find("process integrand 'gauss'"),
            std::string::npos);
  EXPECT_NE(Null.message().find("null pointer"), std::string::npos)
      << Null.message();
  EXPECT_EQ(T.Built.load(), 0u);
}

/// A factory that fails in a later batch (here: while the one object is
/// busy in another thread) makes that batch NaN; the busy object comes
/// back, is reused, and is destroyed with the integrand.
TEST(ProcessIntegrandTest, FactoryFailingLaterGivesNaN) {
  Tally T;
  {
    auto Calls = std::make_shared<std::atomic<int>>(0);
    auto I = vf::processIntegrand(
        gaussSpec(),
        [&T, Calls] {
          if (++*Calls > 1)
            throw std::runtime_error("card gone");
          return std::make_unique<GaussProcess>("width 0.2", T);
        },
        [](GaussProcess &P, std::span<const double> X, std::span<double> Out) {
          Out[0] = P.sigma(X);
        });
    ASSERT_TRUE(bool(I)) << I.message();
    const double X[2] = {0.5, 0.5}, Scale[1] = {1.0};
    double Busy = 0, Second = 0, Third = 0;
    T.Hold = true;
    std::thread Holder([&] {
      T.HoldThread = std::this_thread::get_id();
      I->Evaluate(X, 1, Scale, &Busy);
    });
    while (!T.Holding)
      std::this_thread::yield();
    I->Evaluate(X, 1, Scale, &Second);
    T.Hold = false;
    Holder.join();
    I->Evaluate(X, 1, Scale, &Third);
    EXPECT_TRUE(std::isnan(Second));
    EXPECT_EQ(Busy, 1.0);
    EXPECT_EQ(Third, 1.0);
    EXPECT_EQ(Calls->load(), 2);
    EXPECT_EQ(T.Built.load(), 1u);
  }
  EXPECT_EQ(T.Destroyed.load(), 1u);
}

/// An Eval that throws: NaN values, which the run reports as non-finite.
TEST(ProcessIntegrandTest, ThrowingEvalIsNonFinite) {
  Tally T;
  auto I = vf::processIntegrand(
      gaussSpec(), factory(T),
      [](GaussProcess &, std::span<const double>, std::span<double>) {
        throw std::runtime_error("no amplitude");
      });
  ASSERT_TRUE(bool(I)) << I.message();
  auto Integ = vf::Integrator::create(*I);
  ASSERT_TRUE(bool(Integ));
  auto R = (*Integ)->run(1, 1000);
  ASSERT_FALSE(bool(R));
  EXPECT_NE(R.message().find("integrand 'gauss' is nan"), std::string::npos)
      << R.message();
}

/// A bad shape is refused as nativeIntegrand refuses it, before the
/// factory builds anything.
TEST(ProcessIntegrandTest, BadSpecRefused) {
  Tally T;
  auto Eval = [](GaussProcess &, std::span<const double>, std::span<double>) {};
  auto NoDim = vf::processIntegrand({"f", 0, 1, {}, {}}, factory(T), Eval);
  ASSERT_FALSE(bool(NoDim));
  EXPECT_NE(NoDim.message().find("has 0 dimensions"), std::string::npos)
      << NoDim.message();
  auto Short = vf::processIntegrand({"f", 2, 1, {0}, {1, 1}}, factory(T), Eval);
  ASSERT_FALSE(bool(Short));
  EXPECT_NE(Short.message().find("needs 2 lower and upper bounds"),
            std::string::npos)
      << Short.message();
  EXPECT_EQ(T.Built.load(), 0u);
}

} // namespace
