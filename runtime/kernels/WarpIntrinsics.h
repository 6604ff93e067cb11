//===- runtime/kernels/WarpIntrinsics.h - Warp intrinsics shim ----*- C -*-===//
//
// What GpuSampler.c needs below it: the special registers, shuffles,
// ballots, match.any and warp syncs it uses, spelled as clang's NVPTX
// builtins. On nvptx64 they are those builtins and this header adds
// nothing. Under warp emulation (VF_GPU_EMULATION, the sampler_emu
// bitcode the tests compile for the host so that their fake CUDA driver
// can run the kernel's own code; never in a shipped binary) each becomes a call
// through a table of functions the emulator provides (tests/fakecuda,
// WarpEmulator.h). The emulator runs each lane as its own fiber and makes the
// lanes of a warp meet at every collective, so a missing sync or a wrong lane
// mask changes the result or is reported, as on hardware.
//
// The table is bound once per compiled module, before any launch
// (vf_gpu_emu_bind, tests/fakecuda/GpuEmulation.h); the kernels then read it
// without synchronisation. This header knows nothing of the kernels above it.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_WARPINTRINSICS_H
#define VF_RUNTIME_KERNELS_WARPINTRINSICS_H

#include "Philox.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The special registers the kernels read (PTX %tid.x, %ntid.x, ...).
enum vf_gpu_emu_sreg {
  VF_EMU_TID_X,
  VF_EMU_NTID_X,
  VF_EMU_CTAID_X,
  VF_EMU_CTAID_Y,
};

/// One function per intrinsic, with the PTX instruction's operands: the
/// member mask first, then the value, the lane operand and the clamp (c).
typedef struct vf_gpu_emu_ops {
  vf_u32 (*sreg)(int which);
  int (*shfl_idx)(vf_u32 mask, int value, int src_lane, int c);
  int (*shfl_bfly)(vf_u32 mask, int value, int lane_mask, int c);
  vf_u32 (*match_any)(vf_u32 mask, int value);
  vf_u32 (*ballot)(vf_u32 mask, int predicate);
  void (*bar_warp_sync)(vf_u32 mask);
} vf_gpu_emu_ops;

#ifdef VF_GPU_EMULATION
extern const vf_gpu_emu_ops *vf_gpu_emu;
#define __nvvm_read_ptx_sreg_tid_x() vf_gpu_emu->sreg(VF_EMU_TID_X)
#define __nvvm_read_ptx_sreg_ntid_x() vf_gpu_emu->sreg(VF_EMU_NTID_X)
#define __nvvm_read_ptx_sreg_ctaid_x() vf_gpu_emu->sreg(VF_EMU_CTAID_X)
#define __nvvm_read_ptx_sreg_ctaid_y() vf_gpu_emu->sreg(VF_EMU_CTAID_Y)
#define __nvvm_shfl_sync_idx_i32(m, v, l, c) vf_gpu_emu->shfl_idx(m, v, l, c)
#define __nvvm_shfl_sync_bfly_i32(m, v, l, c) vf_gpu_emu->shfl_bfly(m, v, l, c)
#define __nvvm_match_any_sync_i32(m, v) vf_gpu_emu->match_any(m, v)
#define __nvvm_vote_ballot_sync(m, p) vf_gpu_emu->ballot(m, p)
#define __nvvm_bar_warp_sync(m) vf_gpu_emu->bar_warp_sync(m)
#endif

#ifdef __cplusplus
} // extern "C"
#endif

#endif // VF_RUNTIME_KERNELS_WARPINTRINSICS_H
