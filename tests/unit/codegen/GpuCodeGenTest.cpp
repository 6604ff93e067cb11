//===- tests/unit/codegen/GpuCodeGenTest.cpp - The GPU target seam --------===//
//
// The pipeline asks a GPU target (backends/GpuCodeGen.h) for what differs
// between targets; these check CUDA's answers that the PTX tests do not
// show on their own: which cache keys are its, how it refuses an unknown
// architecture, and that its finished PTX is a function of the module.
//
//===----------------------------------------------------------------------===//

#include "backends/GpuCodeGen.h"

#include <gtest/gtest.h>

using namespace vf;

namespace {

/// A key's C/C++ digest is taken for the target the key names (Compiler.cpp,
/// compileCacheKey), so only CUDA's own keys may find it.
TEST(GpuCodeGenTest, CudaIsFoundByItsCacheKeys) {
  const GpuCodeGen &Cuda = cudaCodeGen();
  EXPECT_EQ(Cuda.cacheName().str(), "ptx");
  EXPECT_EQ(gpuCodeGenForKey("ptx;sm_90;sampler"), &Cuda);
  EXPECT_EQ(gpuCodeGenForKey("host;x86_64-unknown-linux-gnu"), nullptr);
  EXPECT_EQ(gpuCodeGenForKey("integrand;f"), nullptr);
}

/// An unknown architecture is an error that names the supported ones.
TEST(GpuCodeGenTest, CudaRefusesUnknownArchitectures) {
  EXPECT_FALSE(static_cast<bool>(cudaCodeGen().checkArch("sm_90")));
  llvm::Error Bad = cudaCodeGen().checkArch("sm_1000");
  ASSERT_TRUE(static_cast<bool>(Bad));
  EXPECT_NE(llvm::toString(std::move(Bad)).find("sm_90"), std::string::npos);
}

/// The NVPTX backend's call-sequence numbers come from a process-wide
/// counter; the finished text numbers them from 0 in order of appearance.
TEST(GpuCodeGenTest, CudaRenumbersCallSequences) {
  EXPECT_EQ(cudaCodeGen().finishAssembly("{ // callseq 17, 0\n"
                                         "} // callseq 17\n"
                                         "{ // callseq 9, 0\n"
                                         "} // callseq 9\n"),
            "{ // callseq 0, 0\n"
            "} // callseq 0\n"
            "{ // callseq 1, 0\n"
            "} // callseq 1\n");
}

} // namespace
