//===- bench/math/math_accuracy.cpp - Full MPFR sweep of the math library -===//
//
// Evaluates every vf_* function (the native build of stdlib/math) at no
// fewer than POINTS inputs (default 10^6) spread over its domains, uniform in
// value and in exponent, plus its special values, against MPFR, and prints
// the max-ulp table recorded in docs/math.md. Functions run in parallel.
//
// usage: math_accuracy [POINTS] [THREADS] [FUNCTION...]
//
//===----------------------------------------------------------------------===//

#include "MathReference.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

using namespace vf::mathtest;

int main(int Argc, char **Argv) {
  // (1) Options.
  uint64_t Points = Argc > 1 ? std::strtoull(Argv[1], nullptr, 10) : 1000000;
  unsigned Threads = Argc > 2 ? std::atoi(Argv[2]) : 0;
  if (Threads == 0)
    Threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<const FunctionSpec *> Selected;
  for (const FunctionSpec &F : allFunctions()) {
    bool Want = Argc <= 3;
    for (int I = 3; I < Argc; ++I)
      Want |= std::strcmp(Argv[I], F.Name) == 0;
    if (Want)
      Selected.push_back(&F);
  }

  // (2) One function per task; the domains share the points equally.
  std::vector<Measurement> Results(Selected.size());
  std::vector<double> Seconds(Selected.size());
  std::atomic<size_t> Next{0};
  auto Worker = [&] {
    for (size_t I; (I = Next++) < Selected.size();) {
      const FunctionSpec &F = *Selected[I];
      uint64_t PerDomain = (Points + F.Domains.size() - 1) / F.Domains.size();
      auto T0 = std::chrono::steady_clock::now();
      Results[I] = measure(F, PerDomain, /*Seed=*/1234567 + I);
      Seconds[I] = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - T0)
                       .count();
    }
  };
  std::vector<std::thread> Pool;
  for (unsigned T = 0; T < Threads; ++T)
    Pool.emplace_back(Worker);
  for (std::thread &T : Pool)
    T.join();

  // (3) The table (Markdown, as pasted into docs/math.md).
  bool AllOk = true;
  std::printf("| function | points | max ulp | bound | exact misses | worst "
              "input |\n|---|---:|---:|---:|---:|---|\n");
  for (size_t I = 0; I < Selected.size(); ++I) {
    const FunctionSpec &F = *Selected[I];
    const Measurement &M = Results[I];
    bool Ok = M.MaxUlp <= F.MaxUlp && M.ExactMisses == 0;
    AllOk &= Ok;
    char Worst[96];
    if (F.Arity == 1)
      std::snprintf(Worst, sizeof Worst, "%a", M.WorstX);
    else
      std::snprintf(Worst, sizeof Worst, "%a, %a", M.WorstX, M.WorstY);
    std::printf("| %s | %llu | %.3f | %g | %llu | %s |%s\n", F.Name,
                (unsigned long long)M.Count, M.MaxUlp, F.MaxUlp,
                (unsigned long long)M.ExactMisses, Worst,
                Ok ? "" : " **FAIL**");
    std::fprintf(stderr, "%s: %.1f s\n", F.Name, Seconds[I]);
  }
  return AllOk ? 0 : 1;
}
