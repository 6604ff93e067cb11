//===- bench/engine/sampling_engine.cpp - Cost per sample against GSL -----===//
//
// What one CPU thread spends per sample in vegasflow's engine, against
// GSL's gsl_monte_vegas on the same formulas, in one process:
//
//   - ns per sample per thread for integrands that cost nothing (1 + 0 x0:
//     the engine's own overhead), a product, one exp of a sum and the
//     lepage form of the known integrals (8 exp), at d = 8 and d = 4;
//     "cpu" is the process CPU time of run(), the per-iteration host work
//     included (the compile is not: it comes first);
//   - GSL on the lepage and one-exp forms with a C callback and glibc's
//     exp, one thread (GSL has no other);
//   - samples per CPU-second, their ratio, and error x sqrt(CPU time)
//     (lower is better) for both;
//   - the issues' targets: the overhead at d = 8 at most 1/6 of GSL's time
//     per sample on lepage8 (issue 42; 1/9 in issue 16), lepage8 and its
//     one-exp form at least 4x GSL per CPU-second.
//
//   - the floor (EngineFloor.h): Philox, the map and the training updates
//     of a d = 8 sample alone, against the whole engine's constant
//     integrand, for the measured limit; and the training updates alone,
//     spread over 128 KB of pairs and within 12.8 KB (the L1 cache), for
//     what their spread costs.
//   - the CPU's model, the form each phase of the host kernel runs in
//     and why (the map's and the block step's by their calibrations,
//     MapLoadCalibration.h and BlockStepCalibration.h, whose timings it
//     prints), and the whole engine with the map, then the block step,
//     forced to each form.
//
// Every run is measured in a process of its own, forked for it, as a
// user's run is: in one process the runs before change a measurement (a
// lepage8 run after d = 4 integrands ran up to 8% faster, its buffers
// placed elsewhere by the allocator). The ratios against GSL come from
// pairs run back to back, in alternating order, over several rounds, and
// the median pair counts: on a shared machine the speed drifts by 10%
// within seconds, and runs seconds apart measure that drift as much as
// the code.
//
//   sampling_engine [calls] [iterations] [rounds]   (defaults 1000000 10 5)
//
//===----------------------------------------------------------------------===//

#include "EngineFloor.h"

#include "backends/Compiler.h"
#include "backends/IntegrandBinding.h"
#include "backends/ProgramImage.h"
#include "frontend/Diagnostics.h"
#include "frontend/Frontend.h"
#include "vf/Integrator.h"

#include "llvm/Support/raw_ostream.h"

#include <gsl/gsl_monte_vegas.h>
#include <gsl/gsl_rng.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

double cpuSeconds() {
  timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return double(T.tv_sec) + 1e-9 * double(T.tv_nsec);
}

/// The first "model name" of /proc/cpuinfo with its family and model
/// numbers (a guest's brand string may name only the vendor's line: "AMD
/// EPYC" was Zen 4 on one machine and Zen 5 on another) and the widest
/// vector unit its flags list.
std::string machine() {
  std::ifstream In("/proc/cpuinfo");
  std::string Line, Model = "unknown CPU", Width = "no AVX2", Family, Number;
  bool Avx512 = false, Avx2 = false;
  auto Value = [&] { return Line.substr(Line.find(':') + 2); };
  while (std::getline(In, Line)) {
    if (Line.rfind("model name", 0) == 0 && Model == "unknown CPU")
      Model = Value();
    if (Line.rfind("cpu family", 0) == 0 && Family.empty())
      Family = Value();
    if (Line.rfind("model\t", 0) == 0 && Number.empty())
      Number = Value();
    if (Line.rfind("flags", 0) == 0) {
      Avx512 |= Line.find(" avx512f") != std::string::npos;
      Avx2 |= Line.find(" avx2") != std::string::npos;
    }
  }
  Width = Avx512 ? "AVX-512 (8 doubles)" : Avx2 ? "AVX2 (4 doubles)" : Width;
  if (!Family.empty() && !Number.empty())
    Model += " (family " + Family + ", model " + Number + ")";
  return Model + ", " + Width;
}

constexpr double A = 0.1;

double lepage(double *X, size_t Dim, void *) {
  const double Norm = 1.0 / (A * std::sqrt(M_PI));
  double R = 1;
  for (size_t I = 0; I < Dim; ++I)
    R *= std::exp(-(X[I] - 0.5) * (X[I] - 0.5) / (A * A)) * Norm;
  return R;
}

double lepageOneExp(double *X, size_t Dim, void *) {
  double S = 0;
  for (size_t I = 0; I < Dim; ++I)
    S += (X[I] - 0.5) * (X[I] - 0.5);
  return std::exp(-S / (A * A)) / std::pow(A * std::sqrt(M_PI), double(Dim));
}

std::string source(const char *Form, unsigned D) {
  std::string Box = "(x in [0, 1]^" + std::to_string(D) + ")";
  std::string N = std::to_string(D);
  std::string Body = std::string(Form) == "const" ? "1 + 0 * x[0]"
                     : std::string(Form) == "prod"
                         ? "prod(i in 0.." + N + ": x[i])"
                     : std::string(Form) == "oneexp"
                         ? "exp(-sum(i in 0.." + N +
                               ": (x[i] - 0.5)^2) / a^2) / (a * sqrt(pi))^" + N
                         : "prod(i in 0.." + N +
                               ": exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))";
  const bool Exp = std::string(Form) == "oneexp" ||
                   std::string(Form) == "lepage";
  return std::string(Exp ? "param a = 0.1\n" : "") + "integrand f" + Box +
         " = " + Body + "\n";
}

struct Outcome {
  double Mean = 0, Error = 0, Cpu = 0, Evals = 0;
  double ns() const { return 1e9 * Cpu / Evals; }
};

/// The host kernel's forms a run forces (Auto: the calibrations').
struct Forms {
  vf::MapLoads Map = vf::MapLoads::Auto;
  vf::BlockStep Block = vf::BlockStep::Auto;
};

Outcome runVegasflow(const std::string &Src, size_t Calls, unsigned Iterations,
                     bool Single, Forms F) {
  auto Comp = vf::Compiler::create();
  if (!Comp) {
    llvm::errs() << llvm::toString(Comp.takeError()) << "\n";
    std::exit(1);
  }
  auto P = std::make_shared<vf::Program>();
  vf::DiagEngine Diags(P->SM, llvm::errs());
  if (!vf::loadProgramSource(*P, "bench.vf", Src, Diags))
    std::exit(1);
  vf::CompileOptions CO;
  CO.UseCache = false;
  CO.Single = Single;
  CO.MapForm = F.Map;
  CO.BlockForm = F.Block;
  auto CM = (*Comp)->compile(*P, CO);
  if (!CM) {
    llvm::errs() << llvm::toString(CM.takeError()) << "\n";
    std::exit(1);
  }
  vf::IntegratorOptions O;
  O.Threads = 1;
  O.Arithmetic = Single ? vf::Precision::F32 : vf::Precision::F64;
  auto I = vf::Integrator::create(
      vf::bindIntegrand(*P, **CM, *P->Integrands[0], nullptr, CO), O);
  if (!I) {
    llvm::errs() << I.message() << "\n";
    std::exit(1);
  }
  double Cpu0 = cpuSeconds();
  auto R = (*I)->run(Iterations, Calls, 0);
  Outcome Out;
  Out.Cpu = cpuSeconds() - Cpu0;
  if (!R) {
    llvm::errs() << R.message() << "\n";
    std::exit(1);
  }
  Out.Mean = R->Mean[0];
  Out.Error = R->Error[0];
  Out.Evals = double(R->Evaluations);
  return Out;
}

Outcome runGsl(double (*F)(double *, size_t, void *), unsigned Dim,
               size_t Calls, unsigned Iterations) {
  std::vector<double> Lo(Dim, 0.0), Hi(Dim, 1.0);
  gsl_monte_function Fn = {F, Dim, nullptr};
  gsl_rng *R = gsl_rng_alloc(gsl_rng_default);
  gsl_monte_vegas_state *S = gsl_monte_vegas_alloc(Dim);
  gsl_monte_vegas_params P;
  gsl_monte_vegas_params_get(S, &P);
  P.iterations = Iterations;
  gsl_monte_vegas_params_set(S, &P);
  Outcome Out;
  double Cpu0 = cpuSeconds();
  gsl_monte_vegas_integrate(&Fn, Lo.data(), Hi.data(), Dim, Calls, R, S,
                            &Out.Mean, &Out.Error);
  Out.Cpu = cpuSeconds() - Cpu0;
  Out.Evals = double(Calls) * Iterations;
  gsl_monte_vegas_free(S);
  gsl_rng_free(R);
  return Out;
}

/// \p Measure's outcome, measured in a child process: every run starts
/// from the same state, a fresh process.
template <class Fn> Outcome inFreshProcess(Fn Measure) {
  int Fd[2];
  if (pipe(Fd) != 0) {
    std::perror("pipe");
    std::exit(1);
  }
  std::fflush(stdout);
  pid_t Pid = fork();
  if (Pid < 0) {
    std::perror("fork");
    std::exit(1);
  }
  if (Pid == 0) {
    close(Fd[0]);
    Outcome O = Measure();
    _exit(write(Fd[1], &O, sizeof O) == ssize_t(sizeof O) ? 0 : 1);
  }
  close(Fd[1]);
  Outcome O;
  ssize_t Got = 0;
  while (Got < ssize_t(sizeof O)) {
    ssize_t N = read(Fd[0], reinterpret_cast<char *>(&O) + Got,
                     sizeof O - Got);
    if (N <= 0)
      break;
    Got += N;
  }
  close(Fd[0]);
  int Status = 0;
  waitpid(Pid, &Status, 0);
  if (Got != ssize_t(sizeof O) || !WIFEXITED(Status) ||
      WEXITSTATUS(Status) != 0) {
    std::fprintf(stderr, "sampling_engine: a measuring process failed\n");
    std::exit(1);
  }
  return O;
}

Outcome freshVegasflow(const std::string &Src, size_t Calls,
                       unsigned Iterations, bool Single = false, Forms F = {}) {
  return inFreshProcess(
      [&] { return runVegasflow(Src, Calls, Iterations, Single, F); });
}

/// Whether the compiler reads \p Src's domain as the unit cube, in which
/// case the host kernel leaves the map's points unscaled.
bool readsUnitBox(const std::string &Src) {
  vf::Program P;
  vf::DiagEngine Diags(P.SM, llvm::errs());
  if (!vf::loadProgramSource(P, "bench.vf", Src, Diags))
    std::exit(1);
  return vf::unitBox(*P.Integrands[0]);
}

/// The form each phase of the host kernel runs in on this CPU, and why.
/// The runs fork from this process after it calibrated, so all of them
/// use the form printed here.
void printPhases() {
  const vf::MapLoadChoice &Map = vf::hostMapLoads("", /*UseCache=*/false);
  const vf::BlockStepChoice &Block = vf::hostBlockStep("", /*UseCache=*/false);
  const bool Unit = readsUnitBox(source("lepage", 8));
  std::printf(
      "\n| phase | form | why |\n|---|---|---|\n"
      "| Philox words | 16 lanes in 64-bit halves, 2 chains | the only form |\n"
      "| map: the increments' edges | %s | %s |\n"
      "| map: the points | %s | %s |\n"
      "| block sums | %s | %s |\n"
      "| training updates | in sample order, (sum, weight) pairs | the "
      "only form |\n",
      Map.Form == vf::MapLoads::Gathers ? "gathers" : "16-byte loads",
      Map.reason().c_str(), Unit ? "unscaled" : "lo + width x",
      Unit ? "the integrands' domain is [0, 1]^d in constants: the compiler "
             "reads the box as the unit cube"
           : "the integrands' box is not the unit cube in constants",
      Block.Form == vf::BlockStep::Lanes ? "lane-parallel" : "run by run",
      Block.reason().c_str());
}

/// ns per sample of \p A and of \p B, the pair of median ratio among
/// \p Rounds pairs run back to back in alternating order.
template <class FnA, class FnB>
std::pair<double, double> medianPair(unsigned Rounds, FnA A, FnB B) {
  std::vector<std::pair<double, double>> Ns(Rounds);
  for (unsigned R = 0; R < Rounds; ++R) {
    auto &[Na, Nb] = Ns[R];
    if (R % 2)
      Nb = B();
    Na = A();
    if (R % 2 == 0)
      Nb = B();
  }
  std::sort(Ns.begin(), Ns.end(), [](const auto &X, const auto &Y) {
    return X.first / X.second < Y.first / Y.second;
  });
  return Ns[Rounds / 2];
}

/// The whole engine with a phase forced to form \p A and to form \p B
/// (the same bits), per CPU-second, each the median of \p Rounds
/// alternating pairs; \p Title names the phase, \p NameA and \p NameB
/// the forms.
void printForcedForms(const char *Title, const char *NameA, Forms A,
                      const char *NameB, Forms B, size_t Calls,
                      unsigned Iterations, unsigned Rounds) {
  std::printf("\n%s in the whole engine, d = 8\n\n"
              "| integrand | %s ns/sample | %s ns/sample | time, %s / %s "
              "|\n|---|---:|---:|---:|\n",
              Title, NameA, NameB, NameA, NameB);
  for (const char *Form : {"const", "lepage"}) {
    const std::string Src = source(Form, 8);
    const auto [Na, Nb] = medianPair(
        Rounds,
        [&] { return freshVegasflow(Src, Calls, Iterations, false, A).ns(); },
        [&] { return freshVegasflow(Src, Calls, Iterations, false, B).ns(); });
    std::printf("| %s | %.1f | %.1f | %.2f |\n", Form, Na, Nb, Na / Nb);
  }
}

/// The map's two forms, then the block step's (the other phase left to
/// its calibration).
void printPhaseForms(size_t Calls, unsigned Iterations, unsigned Rounds) {
  printForcedForms("the map's two forms", "16-byte loads",
                   {vf::MapLoads::Pairs}, "gathers", {vf::MapLoads::Gathers},
                   Calls, Iterations, Rounds);
  printForcedForms("the block step's two forms", "run by run",
                   {vf::MapLoads::Auto, vf::BlockStep::Runs}, "lane-parallel",
                   {vf::MapLoads::Auto, vf::BlockStep::Lanes}, Calls,
                   Iterations, Rounds);
}

/// The same integrands in single precision (--precision f32) against
/// double, per CPU-second, each the median of \p Rounds alternating pairs.
void printPrecision(size_t Calls, unsigned Iterations, unsigned Rounds) {
  std::printf("\nsingle precision (f32) against double (f64), d = 8\n\n"
              "| integrand | f64 ns/sample | f32 ns/sample | f32 samples per "
              "cpu-s / f64's |\n|---|---:|---:|---:|\n");
  for (const char *Form : {"const", "lepage"}) {
    const std::string Src = source(Form, 8);
    const auto [D, F] = medianPair(
        Rounds, [&] { return freshVegasflow(Src, Calls, Iterations).ns(); },
        [&] { return freshVegasflow(Src, Calls, Iterations, true).ns(); });
    std::printf("| %s | %.1f | %.1f | %.2fx |\n", Form, D, F, D / F);
  }
}

Outcome freshGsl(double (*F)(double *, size_t, void *), unsigned Dim,
                 size_t Calls, unsigned Iterations) {
  return inFreshProcess([&] { return runGsl(F, Dim, Calls, Iterations); });
}

/// A vegasflow run and a GSL run made back to back.
struct Pair {
  Outcome Vf, Gsl;
  double ratio() const { return Gsl.ns() / Vf.ns(); }
};

const char *verdict(bool Met) { return Met ? "met" : "MISSED"; }

/// The floor's parts (EngineFloor.h), each the fastest of five passes of
/// 2^24 samples taken in turn, so that a slow minute touches all alike.
void printFloor(double EngineConst8, double GslLepage8) {
  const floor_part Parts[] = {FLOOR_PHILOX,  FLOOR_MAPPED,  FLOOR_MAP_GATHERED,
                              FLOOR_TRAINED, FLOOR_UPDATES, FLOOR_UPDATES_L1};
  constexpr unsigned N = std::size(Parts);
  const char *Names[N] = {
      "Philox words of 8 uniforms",
      "+ the map of 8 axes (16-byte loads)",
      "+ the map of 8 axes (gathers)",
      "+ 8 training updates (the floor)",
      "the 8 training updates alone, over 8 x 1000 bins (128 KB)",
      "the same over 8 x 100 bins (12.8 KB, in the L1 cache)"};
  double Best[N], Sum = 0;
  std::fill_n(Best, N, 1e300);
  for (unsigned Rep = 0; Rep < 5; ++Rep)
    for (unsigned P = 0; P < N; ++P)
      if (vf_floor_has(Parts[P])) {
        double Check = 0;
        Best[P] = std::min(Best[P], vf_floor_ns(Parts[P], 1u << 24, &Check));
        Sum += Check;
      }
  std::printf("\nthe floor: what every sample needs, alone (d = 8, one "
              "thread; checksum %.3g)\n\n| part | cpu ns/sample |\n"
              "|---|---:|\n",
              Sum);
  for (unsigned P = 0; P < N; ++P)
    if (vf_floor_has(Parts[P]))
      std::printf("| %s | %.1f |\n", Names[P], Best[P]);
  std::printf("\nengine (const, d = 8) %.1f ns = floor %.1f + the rest %.1f; "
              "the targets here, 1/6 and 1/9 of GSL's lepage8, are %.1f and "
              "%.1f ns: the floor alone is %.2f and %.2f of them\n",
              EngineConst8, Best[3], EngineConst8 - Best[3], GslLepage8 / 6,
              GslLepage8 / 9, Best[3] / (GslLepage8 / 6),
              Best[3] / (GslLepage8 / 9));
}

} // namespace

int main(int argc, char **argv) {
  size_t Calls = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  unsigned Iterations = argc > 2 ? std::atoi(argv[2]) : 10;
  unsigned Rounds = argc > 3 ? std::max(1, std::atoi(argv[3])) : 5;
  std::printf("%s; %zu calls x %u iterations, one thread, each run a "
              "process of its own; against GSL the median of %u alternating "
              "pairs (their range in brackets)\n",
              machine().c_str(), Calls, Iterations, Rounds);
  printPhases();
  std::printf("\n| integrand | d | cpu ns/sample |\n|---|---:|---:|\n");
  Outcome V[2][4];
  const char *Forms[] = {"const", "prod", "oneexp", "lepage"};
  const unsigned Dims[] = {8, 4};
  for (unsigned DI = 0; DI < 2; ++DI)
    for (unsigned FI = 0; FI < 4; ++FI) {
      Outcome &O = V[DI][FI] =
          freshVegasflow(source(Forms[FI], Dims[DI]), Calls, Iterations);
      std::printf("| %s | %u | %.1f |\n", Forms[FI], Dims[DI], O.ns());
    }

  std::printf("\n| integrand | d | code | ns/sample | samples/cpu-s | error | "
              "error x sqrt(cpu s) | ratio per cpu-s | error x sqrt(t) "
              "ratio |\n|---|---:|---|---:|---:|---:|---:|---:|---:|\n");
  double Ratio[2][2] = {}, GslLepage8 = 0;
  for (unsigned DI = 0; DI < 2; ++DI)
    for (unsigned Form = 0; Form < 2; ++Form) {
      const unsigned FI = Form ? 3 : 2;
      const std::string Src = source(Forms[FI], Dims[DI]);
      const auto GslForm = Form ? lepage : lepageOneExp;
      // Each round a pair, back to back, in alternating order; the pair
      // of the median ratio is the one printed.
      std::vector<Pair> Pairs(Rounds);
      for (unsigned R = 0; R < Rounds; ++R) {
        Pair &P = Pairs[R];
        if (R % 2)
          P.Gsl = freshGsl(GslForm, Dims[DI], Calls, Iterations);
        P.Vf = freshVegasflow(Src, Calls, Iterations);
        if (R % 2 == 0)
          P.Gsl = freshGsl(GslForm, Dims[DI], Calls, Iterations);
      }
      std::sort(Pairs.begin(), Pairs.end(), [](const Pair &A, const Pair &B) {
        return A.ratio() < B.ratio();
      });
      const Outcome &F = Pairs[Rounds / 2].Vf, &G = Pairs[Rounds / 2].Gsl;
      Ratio[DI][Form] = Pairs[Rounds / 2].ratio();
      double EF = F.Error * std::sqrt(F.Cpu), EG = G.Error * std::sqrt(G.Cpu);
      std::printf("| %s | %u | vegasflow | %.1f | %.3g | %.2e | %.3g | | |\n",
                  Forms[FI], Dims[DI], F.ns(), 1e9 / F.ns(), F.Error, EF);
      std::printf("| %s | %u | GSL | %.1f | %.3g | %.2e | %.3g | %.2fx "
                  "(%.2f-%.2f) | %.2fx better |\n",
                  Forms[FI], Dims[DI], G.ns(), 1e9 / G.ns(), G.Error, EG,
                  Ratio[DI][Form], Pairs.front().ratio(),
                  Pairs.back().ratio(), EG / EF);
      if (DI == 0 && Form == 1) {
        GslLepage8 = G.ns();
        double Share = V[0][0].ns() / G.ns();
        std::printf("\noverhead (const, d = 8) / GSL lepage8 per sample: "
                    "%.3f (target <= 1/6 = 0.167: %s; 1/9 = 0.111: %s)\n",
                    Share, verdict(Share <= 1.0 / 6),
                    verdict(Share <= 1.0 / 9));
      }
    }
  printFloor(V[0][0].ns(), GslLepage8);
  std::printf("lepage8 per cpu-s: %.2fx GSL (target >= 4: %s); one-exp "
              "form: %.2fx (target >= 4: %s)\n",
              Ratio[0][1], verdict(Ratio[0][1] >= 4), Ratio[0][0],
              verdict(Ratio[0][0] >= 4));
  printPhaseForms(Calls, Iterations, Rounds);
  printPrecision(Calls, Iterations, Rounds);
  return 0;
}
