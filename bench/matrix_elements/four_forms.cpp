//===- bench/matrix_elements/four_forms.cpp - One matrix element, four forms
//===//
//
// Samples per CPU-second of e+e- -> mu+mu- at rs = 91.19 written the four
// ways of issue 38 (tests/unit/examples/FourFormsTest.cpp checks that they
// agree): the closed formula in .vf, complex spinor products in .vf, C++
// with std::complex compiled by vegasflow, and the class-based process of
// examples/cpp/process through vf/Process.h; and, for scale, ee_ll.cpp's
// helicity amplitudes on a hand-written complex type. One CPU thread, the
// same seed and plan for every form; compile time is not counted.
//
//   four_forms [calls per iteration = 1000000] [iterations = 5]
//
// (docs/benchmarks.md, "Matrix elements, four forms").
//
//===----------------------------------------------------------------------===//

#include "Integrands.h"

#include "vf/Integrator.h"
#include "vf/Module.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

namespace {

double cpuSeconds() {
  timespec T{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return double(T.tv_sec) + 1e-9 * double(T.tv_nsec);
}

double wallSeconds() {
  timespec T{};
  clock_gettime(CLOCK_MONOTONIC, &T);
  return double(T.tv_sec) + 1e-9 * double(T.tv_nsec);
}

vf::Expected<vf::IntegrandInfo> compiled(const std::string &Path,
                                         const std::string &Name) {
  auto M = vf::Module::compileFile(std::string(VF_EXAMPLES_DIR) + "/" + Path);
  if (!M)
    return M.error();
  return (*M)->integrand(Name);
}

struct Timing {
  double Cpu = 0, Wall = 0, Mean = 0, Error = 0;
};

/// One warm-up and Iterations measured iterations of Calls samples.
vf::Expected<Timing> timeRun(const vf::IntegrandInfo &I, std::uint64_t Calls,
                             unsigned Iterations) {
  vf::IntegratorOptions O;
  O.Seed = 1;
  O.Threads = 1;
  auto Integ = vf::Integrator::create(I, O);
  if (!Integ)
    return Integ.error();
  const double Cpu0 = cpuSeconds(), Wall0 = wallSeconds();
  auto R = (*Integ)->run(Iterations, Calls, 1);
  if (!R)
    return R.error();
  return Timing{cpuSeconds() - Cpu0, wallSeconds() - Wall0, R->Mean[0],
                R->Error[0]};
}

} // namespace

int main(int Argc, char **Argv) {
  const std::uint64_t Calls =
      Argc > 1 ? std::strtoull(Argv[1], nullptr, 10) : 1000000;
  const unsigned Iterations = Argc > 2 ? unsigned(std::atoi(Argv[2])) : 5;
  const struct {
    const char *Form;
    vf::Expected<vf::IntegrandInfo> Integrand;
  } Forms[] = {
      {".vf closed formula", compiled("physics/ee_mumu.vf", "sigma")},
      {".vf complex spinors", compiled("physics/ee_mumu_spinors.vf", "sigma")},
      {"C++ std::complex", compiled("cpp/ee_ll_std.cpp", "sigma")},
      {"C++ class (vf/Process.h)",
       vfexample::processSigma("ee_mumu", vfexample::ProcessKind::EeMuMu,
                               VF_EXAMPLE_PARAM_CARD)},
      {"C++ hand-written complex", compiled("cpp/ee_ll.cpp", "sigma_spinors")},
  };
  const double Samples = double(Calls) * (Iterations + 1);
  std::printf("e+e- -> mu+mu-, %llu calls x (1 + %u) iterations, 1 thread\n",
              (unsigned long long)Calls, Iterations);
  std::printf("%-26s %14s %10s %12s %s\n", "form", "samples/CPU-s", "ns/sample",
              "vs formula", "result (pb)");
  double Formula = 0;
  for (const auto &F : Forms) {
    if (!F.Integrand) {
      std::fprintf(stderr, "four_forms: %s: %s\n", F.Form,
                   F.Integrand.message().c_str());
      return 1;
    }
    auto T = timeRun(*F.Integrand, Calls, Iterations);
    if (!T) {
      std::fprintf(stderr, "four_forms: %s: %s\n", F.Form, T.message().c_str());
      return 1;
    }
    const double Rate = Samples / T->Cpu;
    if (Formula == 0)
      Formula = Rate;
    std::printf("%-26s %14.4g %10.1f %12.3f %.6f +- %.2g (wall %.2f s)\n",
                F.Form, Rate, 1e9 / Rate, Rate / Formula, T->Mean, T->Error,
                T->Wall);
  }
  return 0;
}
