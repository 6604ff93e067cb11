//===- tests/fakecuda/FakeDriverTest.cpp - The fake driver's ordering -----===//
//
// The fake driver's streams against the CUDA ordering rules, through its
// exported entry points: CudaDevice's old upload pattern (a pageable
// cuMemcpyHtoD or a cuMemsetD8 on the legacy NULL stream, then a kernel on
// a CU_STREAM_NON_BLOCKING stream reading what they wrote) is a race the
// fake reports whatever the timing, as is an upload into memory a running
// kernel reads; the fixed pattern (page-locked staging, copies on a slot
// stream, an event the other stream waits for) and a blocking stream's
// implicit wait for the NULL stream are not, and the kernel sees the
// uploaded data under any jitter.
//
//===----------------------------------------------------------------------===//

#include "GpuEmulation.h"
#include "devices/cuda/mini_cuda.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

extern "C" {
CUresult cuInit(unsigned);
CUresult cuDeviceGet(CUdevice *, int);
CUresult cuDevicePrimaryCtxRetain(CUcontext *, CUdevice);
CUresult cuCtxSetCurrent(CUcontext);
CUresult cuCtxSynchronize();
CUresult cuGetErrorString(CUresult, const char **);
CUresult cuMemAlloc_v2(CUdeviceptr *, size_t);
CUresult cuMemAllocHost_v2(void **, size_t);
CUresult cuMemcpyHtoD_v2(CUdeviceptr, const void *, size_t);
CUresult cuMemcpyDtoH_v2(void *, CUdeviceptr, size_t);
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr, const void *, size_t, CUstream);
CUresult cuMemsetD8_v2(CUdeviceptr, unsigned char, size_t);
CUresult cuModuleLoadDataEx(CUmodule *, const void *, unsigned, int *,
                            void **);
CUresult cuModuleGetFunction(CUfunction *, CUmodule, const char *);
CUresult cuLaunchKernel(CUfunction, unsigned, unsigned, unsigned, unsigned,
                        unsigned, unsigned, unsigned, CUstream, void **,
                        void **);
CUresult cuStreamCreate(CUstream *, unsigned);
CUresult cuStreamSynchronize(CUstream);
CUresult cuStreamWaitEvent(CUstream, CUevent, unsigned);
CUresult cuEventCreate(CUevent *, unsigned);
CUresult cuEventRecord(CUevent, CUstream);
void vfFakeCudaRegisterEmulatedKernel(const char *, vf_gpu_emu_bind_fn,
                                      vf_gpu_emu_kernel_fn);
}

namespace {

constexpr CUresult LaunchFailed = 719;

const char *const Ptx = ".visible .entry bump(\n"
                        "\t.param .u64 bump_param_0\n)\n{\n\tret;\n}\n";

/// data[1] = data[0] + 1, on the block's first thread.
const vf_gpu_emu_ops *Ops = nullptr;
void bindOps(const vf_gpu_emu_ops *O) { Ops = O; }
void bump(void **Params) {
  auto *Data = *static_cast<std::uint64_t **>(Params[0]);
  if (Ops->sreg(VF_EMU_TID_X) == 0)
    Data[1] = Data[0] + 1;
}

/// Device \p Ordinal's context made current, with the kernel loaded (each
/// test uses its own device: a context's failure is sticky).
CUfunction setUp(int Ordinal) {
  setenv("VF_FAKE_CUDA_DEVICES", "8", 1);
  EXPECT_EQ(cuInit(0), CUDA_SUCCESS);
  CUdevice D;
  CUcontext C;
  EXPECT_EQ(cuDeviceGet(&D, Ordinal), CUDA_SUCCESS);
  EXPECT_EQ(cuDevicePrimaryCtxRetain(&C, D), CUDA_SUCCESS);
  EXPECT_EQ(cuCtxSetCurrent(C), CUDA_SUCCESS);
  vfFakeCudaRegisterEmulatedKernel("bump", bindOps, bump);
  CUmodule M;
  CUfunction F = nullptr;
  EXPECT_EQ(cuModuleLoadDataEx(&M, Ptx, 0, nullptr, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(cuModuleGetFunction(&F, M, "bump"), CUDA_SUCCESS);
  return F;
}

/// 16 bytes of device memory and a stream with \p Flags.
void buffers(CUdeviceptr &Data, CUstream &S, unsigned Flags) {
  ASSERT_EQ(cuMemAlloc_v2(&Data, 16), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamCreate(&S, Flags), CUDA_SUCCESS);
}

CUresult launch(CUfunction F, CUdeviceptr &Data, CUstream S) {
  void *Params[] = {&Data};
  return cuLaunchKernel(F, 1, 1, 1, 32, 1, 1, 0, S, Params, nullptr);
}

std::string failure() {
  const char *Text = nullptr;
  cuGetErrorString(LaunchFailed, &Text);
  return Text ? Text : "";
}

TEST(FakeDriver, PageableUploadOnTheNullStreamRacesANonBlockingKernel) {
  CUfunction F = setUp(1);
  CUdeviceptr Data;
  CUstream S;
  buffers(Data, S, CU_STREAM_NON_BLOCKING);
  std::uint64_t Host[2] = {41, 0};
  ASSERT_EQ(cuMemcpyHtoD_v2(Data, Host, sizeof Host), CUDA_SUCCESS);
  ASSERT_EQ(launch(F, Data, S), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamSynchronize(S), LaunchFailed);
  EXPECT_NE(failure().find("race: kernel bump on non-blocking stream"),
            std::string::npos)
      << failure();
  EXPECT_NE(failure().find("written by cuMemcpyHtoD on the NULL stream"),
            std::string::npos)
      << failure();
}

TEST(FakeDriver, MemsetOnTheNullStreamRacesANonBlockingKernel) {
  CUfunction F = setUp(2);
  CUdeviceptr Data;
  CUstream S;
  buffers(Data, S, CU_STREAM_NON_BLOCKING);
  ASSERT_EQ(cuMemsetD8_v2(Data, 0, 16), CUDA_SUCCESS);
  ASSERT_EQ(launch(F, Data, S), CUDA_SUCCESS);
  EXPECT_EQ(cuCtxSynchronize(), LaunchFailed);
  EXPECT_NE(failure().find("written by cuMemsetD8 on the NULL stream"),
            std::string::npos)
      << failure();
}

TEST(FakeDriver, AnUploadIntoMemoryARunningKernelReadsIsARace) {
  CUfunction F = setUp(3);
  CUdeviceptr Data;
  CUstream S;
  buffers(Data, S, CU_STREAM_NON_BLOCKING);
  ASSERT_EQ(launch(F, Data, S), CUDA_SUCCESS);
  std::uint64_t Host[2] = {1, 2};
  (void)cuMemcpyHtoD_v2(Data, Host, sizeof Host);
  EXPECT_EQ(cuCtxSynchronize(), LaunchFailed);
  EXPECT_NE(failure().find("cuMemcpyHtoD on the NULL stream writes"),
            std::string::npos)
      << failure();
}

TEST(FakeDriver, StagedUploadsOrderedByAnEventAreNoRace) {
  for (const char *Jitter : {"", "3", "11"}) {
    setenv("VF_FAKE_CUDA_JITTER", Jitter, 1);
    CUfunction F = setUp(4);
    CUdeviceptr Data;
    ASSERT_EQ(cuMemAlloc_v2(&Data, 16), CUDA_SUCCESS);
    CUstream First, Second;
    ASSERT_EQ(cuStreamCreate(&First, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
    ASSERT_EQ(cuStreamCreate(&Second, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
    void *Pinned;
    ASSERT_EQ(cuMemAllocHost_v2(&Pinned, 16), CUDA_SUCCESS);
    auto *Host = static_cast<std::uint64_t *>(Pinned);
    Host[0] = 41;
    Host[1] = 0;
    ASSERT_EQ(cuMemcpyHtoDAsync_v2(Data, Host, 16, First), CUDA_SUCCESS);
    CUevent Done;
    ASSERT_EQ(cuEventCreate(&Done, CU_EVENT_DISABLE_TIMING), CUDA_SUCCESS);
    ASSERT_EQ(cuEventRecord(Done, First), CUDA_SUCCESS);
    ASSERT_EQ(cuStreamWaitEvent(Second, Done, 0), CUDA_SUCCESS);
    ASSERT_EQ(launch(F, Data, Second), CUDA_SUCCESS);
    ASSERT_EQ(cuStreamSynchronize(Second), CUDA_SUCCESS) << failure();
    std::uint64_t Back[2];
    ASSERT_EQ(cuMemcpyDtoH_v2(Back, Data, 16), CUDA_SUCCESS);
    EXPECT_EQ(Back[1], 42u) << "jitter " << Jitter;
  }
  unsetenv("VF_FAKE_CUDA_JITTER");
}

TEST(FakeDriver, ABlockingStreamWaitsForTheNullStream) {
  CUfunction F = setUp(5);
  CUdeviceptr Data;
  CUstream S;
  buffers(Data, S, 0);
  std::uint64_t Host[2] = {6, 0};
  ASSERT_EQ(cuMemcpyHtoD_v2(Data, Host, sizeof Host), CUDA_SUCCESS);
  ASSERT_EQ(launch(F, Data, S), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamSynchronize(S), CUDA_SUCCESS) << failure();
  std::uint64_t Back[2];
  ASSERT_EQ(cuMemcpyDtoH_v2(Back, Data, 16), CUDA_SUCCESS);
  EXPECT_EQ(Back[1], 7u);
}

} // namespace
