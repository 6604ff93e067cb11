//===- runtime/devices/cuda/mini_cuda.h - CUDA driver API subset -*- C++ -*-===//
//
// The few CUDA driver API types and constants vegasflow uses, declared here
// so that building needs no CUDA toolkit (values from the driver API's
// public documentation). The functions themselves are bound at run time by
// CudaDriver from libcuda.so.1.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_DEVICES_CUDA_MINI_CUDA_H
#define VF_RUNTIME_DEVICES_CUDA_MINI_CUDA_H

#include <cstddef>

extern "C" {

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

enum : CUresult {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_NO_DEVICE = 100,
};

// CUdevice_attribute values used.
enum CUdevice_attribute_vf : int {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
};

// CUjit_option values used with cuModuleLoadDataEx.
enum CUjit_option_vf : int {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

enum : unsigned { CU_STREAM_NON_BLOCKING = 1 };
enum : unsigned { CU_EVENT_DISABLE_TIMING = 2 };
}

#endif // VF_RUNTIME_DEVICES_CUDA_MINI_CUDA_H
