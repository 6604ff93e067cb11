//===- tests/gpu/GpuCheck.cpp - The GPU machine's own checks --------------===//
//
// vf-gpu-check: the checks scripts/gpu-check.sh runs next to vegasc on a
// GPU machine, a binary of their own (carried beside vegasc by
// scripts/gpu-pack.sh) so that the shipped vegasc holds no test code:
//
//   vf-gpu-check gpu-math [--require-gpu]   GpuMathCheck.cpp
//   vf-gpu-check compare:A.json:B.json      GpuCheckTools.cpp
//   vf-gpu-check rates:RUN.json             GpuCheckTools.cpp
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <cstring>
#include <string>

int vfGpuMathSelfTest(bool RequireGpu);
int vfGpuCheckTool(const std::string &Spec);

int main(int argc, char **argv) {
  const std::string Check = argc > 1 ? argv[1] : "";
  const bool RequireGpu = argc > 2 && !std::strcmp(argv[2], "--require-gpu");
  if (argc > 3 || (argc == 3 && !RequireGpu)) {
    std::fprintf(stderr, "vf-gpu-check: error: unexpected '%s'\n", argv[2]);
    return 2;
  }
  if (Check == "gpu-math")
    return vfGpuMathSelfTest(RequireGpu);
  if (int Rc = vfGpuCheckTool(Check); Rc >= 0)
    return Rc;
  std::fprintf(stderr,
               "vf-gpu-check: error: unknown check '%s'; there are "
               "gpu-math, compare:A.json:B.json and rates:RUN.json\n",
               Check.c_str());
  return 2;
}
