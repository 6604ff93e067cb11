//===- bench/math/math_accuracy.cpp - Full MPFR sweep of the math library -===//
//
// Evaluates every vf_* function (the native build of stdlib/math) at no
// fewer than POINTS inputs (default 10^6) spread over its domains, uniform in
// value and in exponent, plus its special values, against MPFR, and prints
// the max-ulp table recorded in docs/math.md. With `f32` first, the same for
// the single-precision vf_*f functions (bounds in float ulps). Functions run
// in parallel.
//
// usage: math_accuracy [f32] [POINTS] [THREADS] [FUNCTION...]
//
//===----------------------------------------------------------------------===//

#include "MathReference.h"
#include "MathReferenceF.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

using namespace vf::mathtest;

namespace {

Measurement measureAny(const FunctionSpec &F, uint64_t N, uint64_t Seed) {
  return measure(F, N, Seed);
}
Measurement measureAny(const FunctionSpecF &F, uint64_t N, uint64_t Seed) {
  return measureF(F, N, Seed);
}

// Measures the functions of Table named in Names (all if none) with
// Points per function on Threads threads and prints the table; returns
// whether every function kept its bounds.
template <typename Spec>
bool sweep(const std::vector<Spec> &Table, uint64_t Points, unsigned Threads,
           const std::vector<const char *> &Names, const char *Suffix) {
  // (1) The selection.
  std::vector<const Spec *> Selected;
  for (const Spec &F : Table) {
    bool Want = Names.empty();
    for (const char *N : Names)
      Want |= std::strcmp(N, F.Name) == 0;
    if (Want)
      Selected.push_back(&F);
  }

  // (2) One function per task; the domains share the points equally.
  std::vector<Measurement> Results(Selected.size());
  std::vector<double> Seconds(Selected.size());
  std::atomic<size_t> Next{0};
  auto Worker = [&] {
    for (size_t I; (I = Next++) < Selected.size();) {
      const Spec &F = *Selected[I];
      uint64_t PerDomain = (Points + F.Domains.size() - 1) / F.Domains.size();
      auto T0 = std::chrono::steady_clock::now();
      Results[I] = measureAny(F, PerDomain, /*Seed=*/1234567 + I);
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
    const Spec &F = *Selected[I];
    const Measurement &M = Results[I];
    bool Ok = M.MaxUlp <= F.MaxUlp && M.ExactMisses == 0;
    AllOk &= Ok;
    char Worst[96];
    if (F.Arity == 1)
      std::snprintf(Worst, sizeof Worst, "%a", M.WorstX);
    else
      std::snprintf(Worst, sizeof Worst, "%a, %a", M.WorstX, M.WorstY);
    std::printf("| %s%s | %llu | %.3f | %g | %llu | %s |%s\n", F.Name, Suffix,
                (unsigned long long)M.Count, M.MaxUlp, F.MaxUlp,
                (unsigned long long)M.ExactMisses, Worst,
                Ok ? "" : " **FAIL**");
    std::fprintf(stderr, "%s%s: %.1f s\n", F.Name, Suffix, Seconds[I]);
  }
  return AllOk;
}

} // namespace

int main(int Argc, char **Argv) {
  bool F32 = Argc > 1 && std::strcmp(Argv[1], "f32") == 0;
  int Arg = F32 ? 2 : 1;
  uint64_t Points =
      Argc > Arg ? std::strtoull(Argv[Arg], nullptr, 10) : 1000000;
  unsigned Threads = Argc > Arg + 1 ? std::atoi(Argv[Arg + 1]) : 0;
  if (Threads == 0)
    Threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<const char *> Names(Argv + std::min(Argc, Arg + 2), Argv + Argc);
  bool Ok = F32 ? sweep(allFunctionsF(), Points, Threads, Names, "f")
                : sweep(allFunctions(), Points, Threads, Names, "");
  return Ok ? 0 : 1;
}
