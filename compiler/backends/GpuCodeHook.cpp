//===- backends/GpuCodeHook.cpp - A test build's hold on GPU code ---------===//

#include "backends/GpuCodeHook.h"

#include <atomic>

namespace vf {

// Constant-initialised: no static constructor. Set once, before any
// module is compiled; atomic so that a late registration is still no race.
static std::atomic<GpuCodeHook> RegisteredHook{nullptr};

void setGpuCodeHook(GpuCodeHook Hook) { RegisteredHook.store(Hook); }

void applyGpuCodeHook(IntegrandCode &Code, const std::string &Name,
                      const GpuCodeSource &S) {
  if (GpuCodeHook Hook = RegisteredHook.load())
    Hook(Code, Name, S);
}

} // namespace vf
