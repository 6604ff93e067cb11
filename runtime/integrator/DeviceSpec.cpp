//===- runtime/integrator/DeviceSpec.cpp - The device list's grammar ------===//
//
// parseDevices (vf/Integrator.h): "all", "cpu:4,gpu:0,2", "sim:5" into
// IntegratorOptions. Written once here, in the library, so that vegasc,
// TOML batches and Python read a device list alike.
//
//===----------------------------------------------------------------------===//

#include "vf/Integrator.h"

#include <cerrno>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace vf {

namespace {

std::string_view trimmed(std::string_view S) {
  while (!S.empty() && (S.front() == ' ' || S.front() == '\t'))
    S.remove_prefix(1);
  while (!S.empty() && (S.back() == ' ' || S.back() == '\t'))
    S.remove_suffix(1);
  return S;
}

bool startsWith(std::string_view S, std::string_view Head) {
  return S.substr(0, Head.size()) == Head;
}

/// A whole decimal number (digits only, no sign or space) into \p V.
bool wholeNumber(std::string_view S, unsigned long long &V) {
  if (S.empty() || S.size() > 19 ||
      S.find_first_not_of("0123456789") != std::string_view::npos)
    return false;
  V = std::strtoull(std::string(S).c_str(), nullptr, 10);
  return true;
}

/// A number as strtod reads it, the whole text.
bool realNumber(std::string_view S, double &V) {
  const std::string Text(S);
  char *End = nullptr;
  errno = 0;
  V = std::strtod(Text.c_str(), &End);
  return !Text.empty() && End == Text.c_str() + Text.size() && errno == 0;
}

/// One parse of a device list; Fail holds the error's tail.
struct DeviceParser {
  IntegratorOptions &O;
  bool Cpu = false, Gpu = false, GpuIndices = false, EveryGpu = false;
  std::string Fail;

  bool cpu(std::string_view Item) {
    if (Cpu || (Item == "all" && Gpu))
      return failWith("the CPU is named twice");
    Cpu = true;
    O.AllGpus = Item == "all";
    Gpu = Gpu || O.AllGpus;
    GpuIndices = false;
    unsigned long long N = 0;
    if (startsWith(Item, "cpu:") &&
        (!wholeNumber(Item.substr(4), N) || N == 0 || N > 0xffffffffull))
      return failWith("cpu:N needs a positive number of threads");
    if (startsWith(Item, "cpu:"))
      O.Threads = unsigned(N);
    return true;
  }
  bool sim(std::string_view Rate) {
    double R = 0;
    if (!realNumber(Rate, R) || !(R > 0))
      return failWith("sim:R needs a positive rate R in million samples/s");
    O.SimulatedDevices.push_back(R * 1e6);
    GpuIndices = false;
    return true;
  }
  bool gpu(std::string_view Item) {
    if (Gpu)
      return failWith("the GPUs are named twice");
    Gpu = true;
    EveryGpu = Item == "gpu";
    GpuIndices = !EveryGpu;
    return EveryGpu || gpuIndex(Item.substr(4), /*Named=*/true);
  }
  bool gpuIndex(std::string_view Item, bool Named) {
    unsigned long long G = 0;
    if (wholeNumber(Item, G) && G <= 0x7fffffffull) {
      O.Gpus.push_back(int(G));
      return true;
    }
    if (Named || (!Item.empty() && Item[0] >= '0' && Item[0] <= '9'))
      return failWith("gpu:N needs GPU indices (gpu:0 or gpu:0,2)");
    return failWith("expected all, cpu, cpu:N, gpu, gpu:N[,M...] or sim:R "
                    "(comma-separated)");
  }
  bool item(std::string_view Item) {
    if (Item == "all" || Item == "cpu" || startsWith(Item, "cpu:"))
      return cpu(Item);
    if (startsWith(Item, "sim:"))
      return sim(Item.substr(4));
    if (Item == "gpu" || startsWith(Item, "gpu:"))
      return gpu(Item);
    // After gpu:N, bare numbers are further GPU indices (gpu:0,2).
    if (GpuIndices)
      return gpuIndex(Item, /*Named=*/false);
    return failWith("expected all, cpu, cpu:N, gpu, gpu:N[,M...] or sim:R "
                    "(comma-separated)");
  }
  bool failWith(std::string Why) {
    Fail = std::move(Why);
    return false;
  }
};

} // namespace

Status parseDevices(const std::string &Spec, IntegratorOptions &O) {
  IntegratorOptions Parsed = O;
  Parsed.Threads = 0;
  Parsed.Gpus.clear();
  Parsed.SimulatedDevices.clear();
  Parsed.AllGpus = Parsed.GpusRequired = false;
  DeviceParser P{Parsed, false, false, false, false, {}};
  std::string_view Rest = Spec;
  while (true) {
    const std::size_t Comma = Rest.find(',');
    if (!P.item(trimmed(Rest.substr(0, Comma))))
      return Error{optionRef("devices") + ": '" + Spec + "': " + P.Fail,
                   "devices"};
    if (Comma == std::string_view::npos)
      break;
    Rest.remove_prefix(Comma + 1);
  }
  Parsed.NoCpu = !P.Cpu;
  // Naming the GPUs insists on them; `all` takes whatever there is.
  if (P.EveryGpu)
    Parsed.AllGpus = Parsed.GpusRequired = true;
  O = std::move(Parsed);
  return Status::ok();
}

} // namespace vf
