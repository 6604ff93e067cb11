//===- examples/embed/main.cpp - vegasflow embedded in a C++ program ------===//
//
// The library in five steps: compile Lepage's Gaussian from a string,
// integrate it with VEGAS+ on every CPU thread, print the result and its
// JSON, then freeze the trained map and draw unweighted events, as an event
// generator would. Built as an outside project against an installed
// vegasflow (CMakeLists.txt beside this file: find_package(vegasflow)).
//
//===----------------------------------------------------------------------===//

#include <vf/vf.h>

#include <cstdio>
#include <iostream>

int main() {
  // (1) Compile the integrand. Errors are values: a failed compile returns
  // the diagnostics (file:line:col, the source line and a caret).
  const char *Source = R"(
param a = 0.1
integrand lepage(x in [0, 1]^4) =
    prod(i in 0..4: exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))
)";
  auto M = vf::Module::compileString(Source, "lepage4.vf");
  if (!M) {
    std::cerr << M.message() << "\n";
    return 1;
  }

  // (2) Pick the integrand and create an integrator (a fixed seed gives the
  // same result whatever the number of threads).
  auto Lepage = (*M)->integrand("lepage");
  if (!Lepage) {
    std::cerr << Lepage.message() << "\n";
    return 1;
  }
  vf::IntegratorOptions Options;
  Options.Seed = 42;
  auto Integ = vf::Integrator::create(*Lepage, Options);
  if (!Integ) {
    std::cerr << Integ.message() << "\n";
    return 1;
  }

  // (3) Integrate: 3 warm-up iterations (adapting, not counted) and 8
  // measured ones of 50000 samples each.
  auto R = (*Integ)->run(8, 50000, 3);
  if (!R) {
    std::cerr << R.message() << "\n";
    return 1;
  }
  std::printf("lepage = %.10f +- %.2g (chi2/dof %.2f, Q %.2f)\n", R->Mean[0],
              R->Error[0], R->Chi2Dof, R->Q);

  // (4) The same result as JSON (docs/json.md).
  std::cout << vf::resultToJson(*R, "lepage", "{\"seed\": 42}") << "\n";

  // (5) Events: freeze the map, then unweighted events, handed over in
  // batches (x is N x 4).
  (*Integ)->freeze();
  double Sum0 = 0;
  auto Stats = (*Integ)->unweight(1000, [&](const vf::EventBatch &B) {
    for (std::size_t I = 0; I < B.N; ++I)
      Sum0 += B.X[I * B.Dim];
  });
  if (!Stats) {
    std::cerr << Stats.message() << "\n";
    return 1;
  }
  std::printf("1000 unweighted events: <x0> = %.3f, efficiency %.3f, "
              "overshoot %.4f\n",
              Sum0 / 1000, Stats->Efficiency, Stats->OvershootFraction);
  return 0;
}
