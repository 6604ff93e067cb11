//===- codegen/DensityGen.h - density(NAME, u) in IR ------------*- C++ -*-===//
//
// A channel's `density(NAME, u)` (LANGUAGE.md v3, "Channels"): the density,
// with respect to the unit cube, of the points channel NAME's VEGAS map
// produces, at u. The kernels' parameter block carries every channel's map
// after the user's parameters and the weights (RunState::kernelParams):
//   params[Slot]                   N, the increments per axis (as a double)
//   params[Slot + 1 + c dim (N+1)] channel c's edges, dim x (N + 1),
//                                  axis-major (AdaptiveMap::edges)
// Per axis the increment i with e_i <= u_d < e_{i+1} is the one
// vf_map_invert_axis finds (runtime/kernels/Channel.h: past zero-width
// increments, u_d = 1 in the last, clamped to the map), and
//   density = 1 / (((N w_0) (N w_1)) ... (N w_{dim-1})),  w_d = e_{i+1} - e_i
// the reciprocal of the Jacobian vf_channel_invert reports on the unit box.
// Plain IR (a bisection per axis whose steps depend on N alone), so every
// target computes the same bits.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CODEGEN_DENSITYGEN_H
#define VF_COMPILER_CODEGEN_DENSITYGEN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/IRBuilder.h"

namespace vf {

/// Channel \p Channel's density at the point \p U (one value per axis) from
/// the block at \p Params whose maps start at \p Slot (N there).
llvm::Value *emitChannelDensity(llvm::IRBuilderBase &B, llvm::Module &M,
                                llvm::Value *Params, unsigned Slot,
                                unsigned Channel,
                                llvm::ArrayRef<llvm::Value *> U);

} // namespace vf

#endif // VF_COMPILER_CODEGEN_DENSITYGEN_H
