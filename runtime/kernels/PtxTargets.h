//===- runtime/kernels/PtxTargets.h - GPU targets and their PTX ISA -*- C -*-===//
//
// The one place that says which PTX ISA vegasflow compiles each NVIDIA
// architecture for, and which driver that ISA needs. clang and LLVM must be
// told the ISA: left to itself, clang takes its default from whatever CUDA
// toolkit it finds on the build machine (none on most users' machines,
// where that default is too old for the kernels' *_sync intrinsics), so
// the embedded bitcode would depend on the build machine.
//
// Read by the CMake bitcode rule (cmake/Bitcode.cmake parses the
// VF_BITCODE_* lines), by the compiler's NVPTX target (backends/Targets.cpp)
// and by the runtime's driver check (devices/cuda/CudaDevice.cpp). The
// lowest ISA per architecture is taken (PTX ISA release notes, "PTX ISA
// version / target architecture"), so the PTX runs on the oldest driver
// that knows the architecture; sm_90 needs 7.8.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_PTXTARGETS_H
#define VF_RUNTIME_KERNELS_PTXTARGETS_H

/// The bitcode libraries (kernels, math) are built for this architecture
/// and ISA (the lowest the kernels' warp intrinsics allow); at link time
/// their functions take the integrand module's target instead.
#define VF_BITCODE_GPU_ARCH sm_70
#define VF_BITCODE_PTX_ISA 60

/// X(architecture, PTX ISA as major * 10 + minor), oldest first.
#define VF_PTX_TARGETS(X)                                                      \
  X("sm_50", 60) X("sm_52", 60) X("sm_53", 60) X("sm_60", 60) X("sm_61", 60)   \
  X("sm_62", 60) X("sm_70", 60) X("sm_72", 61) X("sm_75", 63) X("sm_80", 70)   \
  X("sm_86", 71) X("sm_87", 74) X("sm_89", 78) X("sm_90", 78) X("sm_90a", 80)

/// The newest architecture vegasflow compiles for; newer GPUs JIT-compile
/// its PTX (the driver does, at module load).
#define VF_PTX_NEWEST_ARCH 90

/// The oldest CUDA driver (cuDriverGetVersion's 1000 * major + 10 * minor)
/// that accepts PTX ISA \p isa (major * 10 + minor): ISA 6.0 came with
/// CUDA 9.0, 6.1 with 9.1, 6.2 with 9.2, 6.3 to 6.5 with 10.0 to 10.2,
/// 7.0 to 7.8 with 11.0 to 11.8, 8.x with 12.x.
static inline int vf_ptx_min_driver(unsigned isa) {
  const unsigned major = isa / 10, minor = isa % 10;
  if (major >= 7)
    return (int)((major + 4) * 1000 + minor * 10);
  if (isa >= 63)
    return (int)(10000 + (isa - 63) * 10);
  return (int)(9000 + (isa > 60 ? isa - 60 : 0) * 10);
}

#endif // VF_RUNTIME_KERNELS_PTXTARGETS_H
