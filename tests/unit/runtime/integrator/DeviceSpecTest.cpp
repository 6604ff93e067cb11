//===- tests/unit/runtime/integrator/DeviceSpecTest.cpp - Device lists ----===//
//
// parseDevices, the one reader of the device-list grammar (vegasc's
// --devices, TOML's devices, Python's devices=): what each form sets, and
// a malformed list refused naming option 'devices' and what is wrong.
//
//===----------------------------------------------------------------------===//

#include "vf/Integrator.h"

#include <gtest/gtest.h>

using namespace vf;

namespace {

IntegratorOptions parsed(const std::string &Spec) {
  IntegratorOptions O;
  Status S = parseDevices(Spec, O);
  EXPECT_TRUE(S) << Spec << ": " << S.message();
  return O;
}

TEST(DeviceSpec, EachFormSetsItsOptions) {
  IntegratorOptions All = parsed("all");
  EXPECT_FALSE(All.NoCpu);
  EXPECT_TRUE(All.AllGpus);
  EXPECT_FALSE(All.GpusRequired);
  EXPECT_EQ(All.Threads, 0u);

  IntegratorOptions Mixed = parsed(" cpu:4 , gpu:0,2 ");
  EXPECT_FALSE(Mixed.NoCpu);
  EXPECT_EQ(Mixed.Threads, 4u);
  EXPECT_EQ(Mixed.Gpus, (std::vector<int>{0, 2}));
  EXPECT_FALSE(Mixed.AllGpus);
  EXPECT_FALSE(Mixed.GpusRequired);

  IntegratorOptions Gpu = parsed("gpu");
  EXPECT_TRUE(Gpu.NoCpu);
  EXPECT_TRUE(Gpu.AllGpus);
  EXPECT_TRUE(Gpu.GpusRequired);

  IntegratorOptions Sims = parsed("sim:5,sim:0.5");
  EXPECT_TRUE(Sims.NoCpu);
  EXPECT_EQ(Sims.SimulatedDevices, (std::vector<double>{5e6, 5e5}));
}

TEST(DeviceSpec, AParseReplacesTheDevicesItFinds) {
  IntegratorOptions O = parsed("cpu:3,gpu:1");
  ASSERT_TRUE(parseDevices("sim:1", O));
  EXPECT_EQ(O.Threads, 0u);
  EXPECT_TRUE(O.Gpus.empty());
  EXPECT_TRUE(O.NoCpu);
  EXPECT_EQ(O.SimulatedDevices.size(), 1u);
}

TEST(DeviceSpec, MalformedListsNameTheOptionAndTheFault) {
  struct Case {
    const char *Spec, *Says;
  };
  for (const Case &C :
       {Case{"cpu:0", "cpu:N needs a positive number of threads"},
        Case{"cpu:-2", "cpu:N needs a positive number of threads"},
        Case{"cpu,all", "the CPU is named twice"},
        Case{"gpu,gpu:1", "the GPUs are named twice"},
        Case{"gpu:x", "gpu:N needs GPU indices"},
        Case{"gpu:0,cpu,2", "expected all, cpu, cpu:N"},
        Case{"sim:-1", "sim:R needs a positive rate"},
        Case{"sim:fast", "sim:R needs a positive rate"},
        Case{"tpu", "expected all, cpu, cpu:N"},
        Case{"", "expected all, cpu, cpu:N"}}) {
    IntegratorOptions O;
    O.Threads = 7;
    Status S = parseDevices(C.Spec, O);
    ASSERT_FALSE(S) << C.Spec;
    EXPECT_EQ(S.error().Option, "devices") << C.Spec;
    EXPECT_NE(S.message().find("option 'devices': '" + std::string(C.Spec) +
                               "': " + C.Says),
              std::string::npos)
        << S.message();
    EXPECT_EQ(O.Threads, 7u) << "a refused list leaves the options alone";
  }
}

} // namespace
