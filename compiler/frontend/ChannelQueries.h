//===- frontend/ChannelQueries.h - alpha() and density() in use -*- C++ -*-===//
//
// Where a multi-channel integrand's channels ask for `alpha(NAME)` or
// `density(NAME, u)` (LANGUAGE.md v3, "Channels"). The runtime adapts the
// weights by Kleiss and Pittau's update only when a channel reads them,
// and passes the channels' maps to the kernels only when one calls
// density() (and the host's tile then keeps no copy of the block). The
// queries are parsed only in channel blocks, never in a fn, so the
// channels' own expressions are all there is to search.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_FRONTEND_CHANNELQUERIES_H
#define VF_COMPILER_FRONTEND_CHANNELQUERIES_H

#include "frontend/AST.h"

namespace vf {

/// The first \p Q of \p I's channels (channel after channel: its lets,
/// its hists, its result), or null.
const ChannelExpr *firstChannelQuery(const IntegrandDecl &I, ChannelQuery Q);

} // namespace vf

#endif // VF_COMPILER_FRONTEND_CHANNELQUERIES_H
