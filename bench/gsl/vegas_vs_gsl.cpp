//===- bench/gsl/vegas_vs_gsl.cpp - vegasflow versus GSL's VEGAS ----------===//
//
// Integrates the same functions with the same number of evaluations per
// iteration and the same number of iterations, in one process, with
// vegasflow (all CPU threads) and with GSL's gsl_monte_vegas (one thread,
// as GSL offers), and prints samples/s, their ratio, the final errors and
// error x sqrt(time) (accuracy per unit of time: lower is better). It also
// prints the process CPU time of each run and samples per CPU-second: on a
// machine shared with other jobs, wall times depend on the load, while
// samples per CPU-second (a per-core rate) mostly do not.
//
//   vegas_vs_gsl [calls] [iterations]       (defaults 1000000 10;
//                                            ridge4 uses calls / 10)
//
//===----------------------------------------------------------------------===//

#include "backends/Compiler.h"
#include "backends/IntegrandBinding.h"
#include "frontend/Diagnostics.h"
#include "frontend/Frontend.h"
#include "vf/Integrator.h"

#include "llvm/Support/raw_ostream.h"

#include <gsl/gsl_monte_vegas.h>
#include <gsl/gsl_rng.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

/// CPU time of the whole process (all threads), in seconds.
double cpuSeconds() {
  timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return double(T.tv_sec) + 1e-9 * double(T.tv_nsec);
}

struct Case {
  const char *Name;
  const char *Source;
  unsigned Dim;
  double (*Gsl)(double *X, size_t Dim, void *);
  double Exact;
  /// Calls per iteration relative to the command line's (ridge4 costs 1000
  /// exponentials per sample: its budget is that of known_integrals.toml).
  double CallsScale = 1;
};

double lepage(double *X, size_t Dim, void *) {
  const double A = 0.1, Norm = 1.0 / (A * std::sqrt(M_PI));
  double R = 1;
  for (size_t I = 0; I < Dim; ++I)
    R *= std::exp(-(X[I] - 0.5) * (X[I] - 0.5) / (A * A)) * Norm;
  return R;
}

double ridge(double *X, size_t, void *) {
  double S = 0;
  for (int J = 0; J < 1000; ++J) {
    double C = 0.4 + 0.2 * J / 999.0, Q = 0;
    for (int I = 0; I < 4; ++I)
      Q += (X[I] - C) * (X[I] - C);
    S += std::exp(-100 * Q);
  }
  return S * (100 / M_PI) * (100 / M_PI) / 1000;
}

const Case Cases[] = {
    {"lepage4",
     "param a = 0.1\nintegrand f(x in [0, 1]^4) = prod(i in 0..4: "
     "exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))\n",
     4, lepage, 0.99999999999385016},
    {"lepage8",
     "param a = 0.1\nintegrand f(x in [0, 1]^8) = prod(i in 0..8: "
     "exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))\n",
     8, lepage, 0.99999999998770032},
    {"ridge4",
     "integrand f(x in [0, 1]^4) = sum(j in 0..1000: exp(-100 * sum(i in "
     "0..4: (x[i] - (0.4 + 0.2 * j / 999))^2))) * (100 / pi)^2 / 1000\n",
     4, ridge, 0.99999999632844154, 0.1},
};

struct Outcome {
  double Mean, Error, Seconds, CpuSeconds, Evals;
};

Outcome runGsl(const Case &C, size_t Calls, unsigned Iterations) {
  std::vector<double> Lo(C.Dim, 0.0), Hi(C.Dim, 1.0);
  gsl_monte_function F = {C.Gsl, C.Dim, nullptr};
  gsl_rng *R = gsl_rng_alloc(gsl_rng_default);
  gsl_monte_vegas_state *S = gsl_monte_vegas_alloc(C.Dim);
  gsl_monte_vegas_params P;
  gsl_monte_vegas_params_get(S, &P);
  P.iterations = Iterations;
  gsl_monte_vegas_params_set(S, &P);
  double Mean, Err;
  Clock::time_point T0 = Clock::now();
  double Cpu0 = cpuSeconds();
  gsl_monte_vegas_integrate(&F, Lo.data(), Hi.data(), C.Dim, Calls, R, S,
                            &Mean, &Err);
  double Cpu = cpuSeconds() - Cpu0;
  double Secs = std::chrono::duration<double>(Clock::now() - T0).count();
  gsl_monte_vegas_free(S);
  gsl_rng_free(R);
  return {Mean, Err, Secs, Cpu, double(Calls) * Iterations};
}

Outcome runVegasflow(vf::Compiler &Comp, const Case &C, size_t Calls,
                     unsigned Iterations) {
  auto P = std::make_shared<vf::Program>();
  vf::DiagEngine Diags(P->SM, llvm::errs());
  if (!vf::loadProgramSource(*P, C.Name, C.Source, Diags))
    std::exit(1);
  vf::CompileOptions CO;
  CO.UseCache = false;
  auto CM = Comp.compile(*P, CO);
  if (!CM) {
    llvm::errs() << llvm::toString(CM.takeError()) << "\n";
    std::exit(1);
  }
  auto I = vf::Integrator::create(
      vf::bindIntegrand(*P, **CM, *P->Integrands[0]), {});
  if (!I) {
    llvm::errs() << I.message() << "\n";
    std::exit(1);
  }
  Clock::time_point T0 = Clock::now();
  double Cpu0 = cpuSeconds();
  auto R = (*I)->run(Iterations, Calls, 0);
  double Cpu = cpuSeconds() - Cpu0;
  double Secs = std::chrono::duration<double>(Clock::now() - T0).count();
  if (!R) {
    llvm::errs() << R.message() << "\n";
    std::exit(1);
  }
  return {R->Mean[0], R->Error[0], Secs, Cpu, double(R->Evaluations)};
}

} // namespace

int main(int argc, char **argv) {
  size_t Calls = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  unsigned Iterations = argc > 2 ? std::atoi(argv[2]) : 10;
  auto Comp = vf::Compiler::create();
  if (!Comp) {
    llvm::errs() << llvm::toString(Comp.takeError()) << "\n";
    return 1;
  }
  std::printf("%zu calls x %u iterations per integrand; vegasflow on all "
              "CPU threads, GSL on one\n\n",
              Calls, Iterations);
  std::printf("| case | code | estimate | error | time/s | samples/s | "
              "error x sqrt(time) | cpu/s | samples/cpu-s |\n"
              "|---|---|---|---|---|---|---|---|---|\n");
  for (const Case &C : Cases) {
    size_t N = size_t(double(Calls) * C.CallsScale);
    Outcome V = runVegasflow(**Comp, C, N, Iterations);
    Outcome G = runGsl(C, N, Iterations);
    for (auto [Name, O] : {std::pair{"vegasflow", V}, std::pair{"GSL", G}})
      std::printf(
          "| %s | %s | %.10f | %.2e | %.3f | %.3g | %.3g | %.3f | %.3g |\n",
          C.Name, Name, O.Mean, O.Error, O.Seconds, O.Evals / O.Seconds,
          O.Error * std::sqrt(O.Seconds), O.CpuSeconds,
          O.Evals / O.CpuSeconds);
    std::printf("| %s | ratio | | | | %.1fx | %.1fx better | | %.1fx |\n",
                C.Name, (V.Evals / V.Seconds) / (G.Evals / G.Seconds),
                (G.Error * std::sqrt(G.Seconds)) /
                    (V.Error * std::sqrt(V.Seconds)),
                (V.Evals / V.CpuSeconds) / (G.Evals / G.CpuSeconds));
  }
  return 0;
}
