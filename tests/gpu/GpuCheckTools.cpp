//===- tests/gpu/GpuCheckTools.cpp - What gpu-check.sh computes -----------===//
//
// scripts/gpu-check.sh runs on GPU machines that may have no Python, so
// the arithmetic it needs on vegasc's JSON results is done by the
// carried vf-gpu-check (GpuCheck.cpp):
//
//   vf-gpu-check compare:A.json:B.json
//     every number of the results, iterations, histograms and weight
//     lists (not times) of two runs;
//     prints "bitwise" or the largest relative difference and where, and
//     exits 1 unless they agree bit for bit;
//   vf-gpu-check rates:RUN.json
//     samples/s over the measured iterations by wall time, the warm-up's
//     wall time (where a first iteration that stalls shows), and per
//     device its share of the samples, busy time and samples per busy
//     second.
//
//===----------------------------------------------------------------------===//

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>

using nlohmann::json;

namespace {

bool load(const std::string &Path, json &Doc) {
  std::ifstream In(Path);
  Doc = json::parse(In, nullptr, /*allow_exceptions=*/false);
  if (!Doc.is_discarded())
    return true;
  std::fprintf(stderr, "vf-gpu-check: %s: not a vegasc JSON result\n",
               Path.c_str());
  return false;
}

/// Timing fields differ between any two runs.
bool isTime(const std::string &Key) {
  static const std::set<std::string> Times = {"wall_s", "time_s", "busy_s",
                                              "idle_s", "imbalance"};
  return Times.count(Key) != 0;
}

struct Difference {
  double Largest = 0;
  std::string Where;
  bool Bitwise = true;
};

void compare(const json &A, const json &B, const std::string &Path,
             Difference &D) {
  if (A.is_number() && B.is_number()) {
    const double X = A.get<double>(), Y = B.get<double>();
    if (A.dump() == B.dump())
      return;
    D.Bitwise = false;
    const double Rel = std::fabs(X - Y) / std::max(std::fabs(Y), 1e-300);
    if (!(Rel <= D.Largest)) {
      D.Largest = Rel;
      D.Where = Path;
    }
    return;
  }
  if (A.type() != B.type() || A.size() != B.size()) {
    D.Bitwise = false;
    D.Largest = INFINITY;
    D.Where = Path + " (different shapes)";
    return;
  }
  if (A.is_object()) {
    for (auto It = A.begin(); It != A.end(); ++It)
      if (!isTime(It.key()) && It.key() != "devices")
        compare(It.value(), B.contains(It.key()) ? B[It.key()] : json(),
                Path + "." + It.key(), D);
  } else if (A.is_array()) {
    for (std::size_t I = 0; I < A.size(); ++I)
      compare(A[I], B[I], Path + "[" + std::to_string(I) + "]", D);
  } else if (A != B) {
    D.Bitwise = false;
    D.Where = Path;
  }
}

int compareRuns(const std::string &PathA, const std::string &PathB) {
  json A, B;
  if (!load(PathA, A) || !load(PathB, B))
    return 2;
  Difference D;
  for (const char *Key : {"result", "iterations", "histograms", "weight_lists"})
    compare(A.value(Key, json()), B.value(Key, json()), Key, D);
  if (D.Bitwise) {
    std::printf("bitwise\n");
    return 0;
  }
  std::printf("DIFFERS: largest relative difference %.3e at %s\n", D.Largest,
              D.Where.c_str());
  return 1;
}

int rates(const std::string &Path) {
  json Doc;
  if (!load(Path, Doc))
    return 2;
  double Samples = 0, Wall = 0, Warmup = 0;
  struct Device {
    double Samples = 0, Busy = 0;
  };
  std::map<std::string, Device> Devices;
  for (const json &It : Doc.value("iterations", json::array())) {
    if (It.value("warmup", false)) {
      Warmup += It.value("time_s", 0.0);
      continue;
    }
    Samples += It.value("samples", 0.0);
    Wall += It.value("time_s", 0.0);
    for (const json &D : It.value("devices", json::array())) {
      Device &Dev = Devices[D.value("name", std::string("?"))];
      Dev.Samples += D.value("samples", 0.0);
      Dev.Busy += D.value("busy_s", 0.0);
    }
  }
  std::printf("%.3e samples/s (%.0f samples in %.3f s wall; warm-up %.3f s)",
              Wall > 0 ? Samples / Wall : 0.0, Samples, Wall, Warmup);
  for (const auto &[Name, D] : Devices)
    std::printf("; %s %.1f%% of samples, busy %.3f s, %.3e/s", Name.c_str(),
                Samples > 0 ? 100 * D.Samples / Samples : 0.0, D.Busy,
                D.Busy > 0 ? D.Samples / D.Busy : 0.0);
  std::printf("\n");
  return 0;
}

} // namespace

/// "compare:A:B" or "rates:FILE"; -1 when \p Spec is neither.
int vfGpuCheckTool(const std::string &Spec) {
  if (Spec.rfind("compare:", 0) == 0) {
    const std::string Rest = Spec.substr(8);
    const std::size_t Colon = Rest.find(':');
    if (Colon == std::string::npos)
      return -1;
    return compareRuns(Rest.substr(0, Colon), Rest.substr(Colon + 1));
  }
  if (Spec.rfind("rates:", 0) == 0)
    return rates(Spec.substr(6));
  return -1;
}
