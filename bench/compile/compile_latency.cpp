//===- bench/compile/compile_latency.cpp - Compile latency, cold and warm -===//
//
// How long a user waits between `vegasc FILE` and the first sample: source
// text to a callable host entry point (parse, check, codegen, math library
// link, O2, object code, JIT link) and source text to PTX, for lepage8 and
// ridge4 of tests/testdata/known_integrals.toml, and for me_cpp, a C++
// integrand of about 1000 lines (GenerateMatrixElement.h) compiled by
// Clang in the process (compiler/clang).
//
//   cold  the compile cache is off (CompileOptions::UseCache = false), so
//         every step runs;
//   warm  the entry is in the cache (a temporary folder filled by one
//         compile first): parse, check, key, load, verify, JIT link.
//
// Each figure is the median of N runs in one process with one Compiler
// (created once, as vegasc does; its creation time is printed too). The
// targets of the issues are cold <= 150 ms for lepage8, <= 1 s for me_cpp,
// and warm <= 10 ms;
// --check makes a missed target the exit status.
//
// Then, cold and for the host with the sampler, the stages (CPU time):
// IR generation (for me_cpp split into Clang's phases, clangPhaseTimes),
// math library link with O2, and x86 code generation.
//
// Usage: compile_latency [--runs N] [--check] [--only NAME]
//
//===----------------------------------------------------------------------===//

#include "GenerateMatrixElement.h"

#include "backends/Compiler.h"
#include "clang/CxxIntegrands.h"
#include "frontend/Diagnostics.h"
#include "frontend/Frontend.h"
#include "frontend/Program.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#if __has_include(<toml++/toml.hpp>)
#include <toml++/toml.hpp>
#else
#include <toml++/toml.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

using namespace vf;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point T0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - T0).count();
}

/// CPU time of this process in ms: on a shared machine it does not count
/// the time other processes held the core.
double cpuMs() {
  timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return T.tv_sec * 1e3 + T.tv_nsec * 1e-6;
}

struct Summary {
  double Median, Min, Max;
};

Summary summarize(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  double Med = N % 2 ? V[N / 2] : 0.5 * (V[N / 2 - 1] + V[N / 2]);
  return {Med, V.front(), V.back()};
}

/// .vf text, or the path of a C++ file.
bool loadSource(Program &P, const std::string &Source, DiagEngine &Diags) {
  if (llvm::StringRef(Source).ends_with(".cpp"))
    return loadIntegrandFile(P, Source, Diags, llvm::errs());
  return loadProgramSource(P, "bench.vf", Source, Diags);
}

/// One measured run: source text -> checked Program -> compile(). Returns
/// the wall-clock milliseconds (and the CPU milliseconds in \p Cpu), or a
/// negative number on failure.
double compileOnce(Compiler &C, const std::string &Source,
                   const CompileOptions &O, bool ExpectFromCache,
                   double *Cpu = nullptr) {
  auto T0 = Clock::now();
  double C0 = cpuMs();
  Program P;
  DiagEngine Diags(P.SM, llvm::errs());
  if (!loadSource(P, Source, Diags))
    return -1;
  auto CM = C.compile(P, O);
  if (!CM) {
    llvm::errs() << "compile failed: " << llvm::toString(CM.takeError())
                 << "\n";
    return -1;
  }
  // The result is usable: an entry point to call, or PTX text.
  const CompiledIntegrand &I = (*CM)->Integrands.front();
  if (O.Host && !(O.Evaluate ? I.Batch != nullptr : I.SampleTile != nullptr))
    return -1;
  if (O.PTX && (*CM)->PTX.empty())
    return -1;
  double Ms = msSince(T0);
  if (Cpu)
    *Cpu = cpuMs() - C0;
  bool FromCache = O.Host ? (*CM)->HostFromCache : (*CM)->PTXFromCache;
  if (FromCache != ExpectFromCache) {
    llvm::errs() << "unexpected cache " << (FromCache ? "hit" : "miss")
                 << "\n";
    return -1;
  }
  return Ms;
}

} // namespace

int main(int argc, char **argv) {
  unsigned Runs = 21;
  bool Check = false;
  const char *Only = nullptr;
  for (int K = 1; K < argc; ++K) {
    if (!std::strcmp(argv[K], "--runs") && K + 1 < argc)
      Runs = static_cast<unsigned>(std::max(1, std::atoi(argv[++K])));
    else if (!std::strcmp(argv[K], "--check"))
      Check = true;
    else if (!std::strcmp(argv[K], "--only") && K + 1 < argc)
      Only = argv[++K];
    else {
      std::fprintf(stderr, "usage: %s [--runs N] [--check] [--only NAME]\n",
                   argv[0]);
      return 2;
    }
  }

  // (1) The two sources, from the known-integrals file.
  toml::table Table;
  try {
    Table = toml::parse_file(VF_KNOWN_INTEGRALS);
  } catch (const toml::parse_error &E) {
    std::fprintf(stderr, "cannot read %s: %s\n", VF_KNOWN_INTEGRALS,
                 std::string(E.description()).c_str());
    return 1;
  }
  std::vector<const char *> Names = {"lepage8", "ridge4", "me_cpp"};
  if (Only)
    std::erase_if(Names, [&](const char *N) { return std::strcmp(N, Only); });
  if (Names.empty()) {
    std::fprintf(stderr, "--only: lepage8, ridge4 or me_cpp\n");
    return 2;
  }

  // (2) One compiler for the whole run, as in vegasc.
  auto T0 = Clock::now();
  auto CreatedC = Compiler::create();
  if (!CreatedC) {
    std::fprintf(stderr, "%s\n", llvm::toString(CreatedC.takeError()).c_str());
    return 1;
  }
  double CreateMs = msSince(T0);
  Compiler &C = **CreatedC;

  // (3) A private cache folder for the warm runs.
  llvm::SmallString<128> CacheDir;
  if (llvm::sys::fs::createUniqueDirectory("vf-compile-latency", CacheDir)) {
    std::fprintf(stderr, "cannot create a temporary folder\n");
    return 1;
  }

  // The C++ integrand, written into the cache's folder (not a cache entry).
  const std::string CxxPath = (CacheDir + "/me_cpp.cpp").str();
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(CxxPath, EC);
    OS << generateMatrixElement(44);
    if (EC) {
      std::fprintf(stderr, "cannot write %s\n", CxxPath.c_str());
      return 1;
    }
  }
  auto sourceOf = [&](const char *Name) -> std::optional<std::string> {
    if (!std::strcmp(Name, "me_cpp"))
      return CxxPath;
    return Table[Name]["source"].value<std::string>();
  };

  std::printf("compile latency, median of %u runs (min .. max), ms\n", Runs);
  std::printf("Compiler::create (LLJIT, once per process): %.1f ms\n\n",
              CreateMs);
  std::printf("%-10s %-6s %-5s %10s %20s %10s\n", "integrand", "target",
              "cache", "median", "min .. max", "cpu med");
  bool Missed = false, Failed = false;
  for (const char *Name : Names) {
    std::optional<std::string> Source = sourceOf(Name);
    if (!Source) {
      std::fprintf(stderr, "no source for %s\n", Name);
      return 1;
    }
    // "entry": the integrand's batch entry point alone (what --eval
    // compiles); "host"/"ptx": the fused sampler without the batch entry
    // point (what integrating compiles, as vf::Module does).
    for (int Kind : {0, 1, 2}) {
      bool Ptx = Kind == 2;
      CompileOptions O;
      O.Host = !Ptx;
      O.PTX = Ptx;
      O.Sampler = Kind != 0;
      O.Evaluate = Kind == 0;
      O.CacheDir = CacheDir.str().str();
      for (bool Warm : {false, true}) {
        O.UseCache = Warm;
        // The first warm compile fills the cache (a miss, not measured).
        if (Warm && compileOnce(C, *Source, O, /*ExpectFromCache=*/false) < 0)
          Failed = true;
        // One unmeasured run to page in code and data.
        compileOnce(C, *Source, O, Warm);
        std::vector<double> Ms, Cpu;
        for (unsigned R = 0; R < Runs && !Failed; ++R) {
          double CpuMs = 0;
          double T = compileOnce(C, *Source, O, Warm, &CpuMs);
          if (T < 0)
            Failed = true;
          Ms.push_back(T);
          Cpu.push_back(CpuMs);
        }
        if (Failed)
          break;
        Summary S = summarize(Ms);
        // The 150 ms target (issue 4) is source to host entry point.
        double Target = Warm                                     ? 10
                        : Kind != 0                              ? 0
                        : !std::strcmp(Name, "lepage8")          ? 150
                        : !std::strcmp(Name, "me_cpp")           ? 1000
                                                                 : 0;
        bool Miss = Target > 0 && S.Median > Target;
        Missed |= Miss;
        char Range[64];
        std::snprintf(Range, sizeof Range, "%.1f .. %.1f", S.Min, S.Max);
        std::printf("%-10s %-6s %-5s %10.1f %20s %10.1f%s\n", Name,
                    Kind == 0 ? "entry" : Ptx ? "ptx" : "host",
                    Warm ? "warm" : "cold", S.Median,
                    Range, summarize(Cpu).Median,
                    Target > 0 ? (Miss ? "   MISSED target" : "   ok") : "");
      }
    }
  }

  // (4) Where the cold host time goes, from emitText's stages (each run
  // repeats the earlier stages; the differences are the stage costs):
  // IR generation, + math library link and O2, + x86 code generation (as
  // assembly text, close to the object file's cost). CPU time; Clang's
  // share of the IR stage from clangPhaseTimes.
  std::printf("\ncold host stages, with the sampler (median cpu ms):\n"
              "%-10s %8s %8s %8s   %s\n",
              "integrand", "IR", "+O2", "+x86",
              "IR: Clang scan / parse / check / codegen");
  for (const char *Name : Names) {
    std::string Source = *sourceOf(Name);
    ClangPhaseTimes Clang0 = clangPhaseTimes();
    Program P;
    DiagEngine Diags(P.SM, llvm::errs());
    if (!loadSource(P, Source, Diags))
      return 1;
    CompileOptions O;
    O.UseCache = false;
    O.Evaluate = false; // as integrating compiles
    double Med[3];
    EmitKind Kinds[] = {EmitKind::LLVMRaw, EmitKind::LLVM, EmitKind::Asm};
    for (int K = 0; K < 3; ++K) {
      std::vector<double> Ms;
      for (unsigned R = 0; R < Runs; ++R) {
        double T = cpuMs();
        auto Text = C.emitText(P, Kinds[K], O);
        if (!Text) {
          llvm::consumeError(Text.takeError());
          return 1;
        }
        Ms.push_back(cpuMs() - T);
      }
      Med[K] = summarize(Ms).Median;
    }
    // Clang ran once in each of the 3 x Runs compiles, the scan once more
    // in loading (means; wall time).
    ClangPhaseTimes Clang1 = clangPhaseTimes();
    const double N = 3.0 * Runs;
    std::printf("%-10s %8.1f %8.1f %8.1f", Name, Med[0], Med[1] - Med[0],
                Med[2] - Med[1]);
    if (Clang1.Parse > Clang0.Parse)
      std::printf("   %.1f / %.1f / %.1f / %.1f",
                  (Clang1.Scan - Clang0.Scan) / (N + 1),
                  (Clang1.Parse - Clang0.Parse) / N,
                  (Clang1.Check - Clang0.Check) / N,
                  (Clang1.CodeGen - Clang0.CodeGen) / N);
    std::printf("\n");
  }

  llvm::sys::fs::remove_directories(CacheDir);
  if (Failed) {
    std::fprintf(stderr, "a compile failed\n");
    return 1;
  }
  std::printf("\ntargets: cold entry <= 150 ms (lepage8), <= 1000 ms "
              "(me_cpp), warm <= 10 ms\n");
  return Check && Missed ? 1 : 0;
}
