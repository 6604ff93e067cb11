//===- bench/math/math_accuracy.cpp - Full MPFR sweep of the math library -===//
//
// Evaluates every vf_* function (the native build of stdlib/math) at no
// fewer than POINTS inputs (default 10^6) spread over its domains, uniform in
// value and in exponent, plus its special values, against MPFR, and prints
// the max-ulp table recorded in docs/math.md. With `f32` first, the same for
// the single-precision vf_*f functions (bounds in float ulps). With
// `f32-all`, every one-argument vf_*f at every float (all 2^32 bit
// patterns), against the double library rounded to float (vf_* is within
// an ulp of a double, so the error is known to about 2^-28 float ulps).
// Functions run in parallel.
//
// usage: math_accuracy [f32] [POINTS] [THREADS] [FUNCTION...]
//        math_accuracy f32-all [THREADS] [FUNCTION...]
//
//===----------------------------------------------------------------------===//

#include "MathReference.h"
#include "MathReferenceF.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
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

// Max error of F over the float bit patterns [Begin, End), against Ref.
double maxUlpOver(float (*F)(float), double (*Ref)(double), uint64_t Begin,
                  uint64_t End, float *Worst) {
  double Max = 0;
  for (uint64_t B = Begin; B < End; ++B) {
    uint32_t Bits = (uint32_t)B;
    float X;
    std::memcpy(&X, &Bits, sizeof X);
    float Got = F(X);
    double Want = Ref((double)X);
    double Err;
    if (std::isnan(Want) || std::isnan(Got) || std::isinf(Want) ||
        std::isinf(Got) || Want == 0)
      Err = (std::isnan(Want) && std::isnan(Got)) ||
                    (Got == (float)Want &&
                     std::signbit(Got) == std::signbit(Want))
                ? 0
                : HUGE_VAL;
    else {
      int E = std::ilogb(Want) - 23;
      Err = std::fabs(Want - (double)Got) / std::ldexp(1.0, std::max(E, -149));
    }
    if (Err > Max) {
      Max = Err;
      *Worst = X;
    }
  }
  return Max;
}

// Every float through every selected one-argument function; prints the
// max error per function. Returns whether all kept their bounds.
bool exhaustive(unsigned Threads, const std::vector<const char *> &Names) {
  bool AllOk = true;
  std::printf("| function | inputs | max ulp | bound | worst input |\n"
              "|---|---:|---:|---:|---|\n");
  for (const FunctionSpecF &F : allFunctionsF()) {
    bool Want = F.Arity == 1 && Names.empty();
    for (const char *N : Names)
      Want |= F.Arity == 1 && std::strcmp(N, F.Name) == 0;
    const FunctionSpec *D = nullptr;
    for (const FunctionSpec &G : allFunctions())
      if (std::strcmp(G.Name, F.Name) == 0)
        D = &G;
    if (!Want || !D)
      continue;
    std::vector<double> Max(Threads);
    std::vector<float> Worst(Threads);
    std::vector<std::thread> Pool;
    const uint64_t Total = 1ull << 32;
    for (unsigned T = 0; T < Threads; ++T)
      Pool.emplace_back([&, T] {
        Max[T] = maxUlpOver(F.F1, D->F1, Total * T / Threads,
                            Total * (T + 1) / Threads, &Worst[T]);
      });
    for (std::thread &T : Pool)
      T.join();
    size_t W = std::max_element(Max.begin(), Max.end()) - Max.begin();
    bool Ok = Max[W] <= F.MaxUlp + 0x1p-20;
    AllOk &= Ok;
    std::printf("| %sf | 2^32 | %.3f | %g | %a |%s\n", F.Name, Max[W], F.MaxUlp,
                Worst[W], Ok ? "" : " **FAIL**");
    std::fflush(stdout);
  }
  return AllOk;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc > 1 && std::strcmp(Argv[1], "f32-all") == 0) {
    unsigned Threads = Argc > 2 ? std::atoi(Argv[2]) : 0;
    if (Threads == 0)
      Threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<const char *> Names(Argv + std::min(Argc, 3), Argv + Argc);
    return exhaustive(Threads, Names) ? 0 : 1;
  }
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
