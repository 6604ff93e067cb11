//===- vegasc/main.cpp - vegasc's entry point -----------------------------===//
//
// Only main(): the driver is the vf_driver library, which the tests'
// vegasc-emu links with the fake CUDA driver's warp emulation instead.
//
//===----------------------------------------------------------------------===//

#include "vegasc/Driver.h"

int main(int argc, char **argv) { return vf::vegascMain(argc, argv); }
