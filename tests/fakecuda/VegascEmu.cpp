//===- tests/fakecuda/VegascEmu.cpp - vegasc with the warp emulation ------===//
//
// vegasc for the tests that run the GPU path on the fake CUDA driver: the
// same driver, with the emulation's hook registered before anything is
// compiled, so that the fake driver is given host code for every kernel.
//
//===----------------------------------------------------------------------===//

#include "HostLaunches.h"
#include "vegasc/Driver.h"

int main(int argc, char **argv) {
  vf::fakecuda::registerGpuEmulation();
  return vf::vegascMain(argc, argv);
}
