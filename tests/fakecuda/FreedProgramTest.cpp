//===- tests/fakecuda/FreedProgramTest.cpp - GPU code without the AST -----===//
//
// The compiler's work ends before the run starts: an integrand bound as
// vf::Module binds it, whose Program is freed right after, still gets its
// GPU code when an integrator is created for a GPU (compiled from the
// frozen image the binding kept, backends/ProgramImage.h), and the
// emulated GPU's results are the CPU's bit for bit.
//
//===----------------------------------------------------------------------===//

#include "HostLaunches.h"

#include "backends/Compiler.h"
#include "backends/IntegrandBinding.h"
#include "frontend/Diagnostics.h"
#include "frontend/Frontend.h"
#include "frontend/Program.h"
#include "vf/Integrator.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

using namespace vf;

namespace {

const char *const Source = R"(param w = 0.1
integrand f(x in [0, 1]^3) {
    hist h(x[0], 0, 1, 8)
    return exp(-((x[0] - 0.5)^2 + (x[1] - 0.5)^2) / w^2) * (1 + x[2])
}
)";

std::shared_ptr<const Program> load() {
  auto P = std::make_shared<Program>();
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  DiagEngine Diags(P->SM, OS);
  if (!loadProgramSource(*P, "freed.vf", Source, Diags))
    ADD_FAILURE() << OS.str();
  return P;
}

Result integrate(const IntegrandInfo &Info, const char *Devices) {
  IntegratorOptions O;
  O.Seed = 11;
  if (Status S = parseDevices(Devices, O); !S)
    ADD_FAILURE() << S.message();
  auto I = Integrator::create(Info, O);
  if (!I) {
    ADD_FAILURE() << Devices << ": " << I.error().Message;
    return {};
  }
  auto R = (*I)->run(3, 50000);
  if (!R) {
    ADD_FAILURE() << Devices << ": " << R.error().Message;
    return {};
  }
  return *R;
}

TEST(FreedProgram, RunsOnTheEmulatedGpuAsOnTheCpu) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("vf-freed", Dir));
  auto C = Compiler::create();
  ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
  CompileOptions O;
  O.CacheDir = Dir.str().str();
  O.Evaluate = false; // as vf::Module compiles for integrating
  std::shared_ptr<const Program> P = load();
  ASSERT_TRUE(P);
  auto CM = (*C)->compile(*P, O);
  ASSERT_TRUE(static_cast<bool>(CM)) << llvm::toString(CM.takeError());
  IntegrandInfo Info =
      bindIntegrand(*P, **CM, *P->findIntegrand("f"), C->get(), O);
  std::weak_ptr<const Program> Weak = P;
  P.reset();
  ASSERT_TRUE(Weak.expired()) << "the binding holds the Program";

  const Result Cpu = integrate(Info, "cpu:2");
  const Result Gpu = integrate(Info, "gpu");
  ASSERT_EQ(Gpu.Iterations.size(), 3u);
  std::uint64_t OnGpu = 0;
  for (const DeviceStats &D : Gpu.Devices)
    OnGpu += D.Name.rfind("gpu:", 0) == 0 ? D.Samples : 0;
  EXPECT_EQ(OnGpu, Gpu.Evaluations) << "every sample ran on the GPU";
  EXPECT_EQ(std::memcmp(&Cpu.Mean[0], &Gpu.Mean[0], sizeof(double)), 0);
  EXPECT_EQ(std::memcmp(&Cpu.Error[0], &Gpu.Error[0], sizeof(double)), 0);
  ASSERT_EQ(Cpu.Histograms.size(), 1u);
  ASSERT_EQ(Gpu.Histograms.size(), 1u);
  EXPECT_EQ(Cpu.Histograms[0].Values, Gpu.Histograms[0].Values);
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace

int main(int argc, char **argv) {
  fakecuda::registerGpuEmulation();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
