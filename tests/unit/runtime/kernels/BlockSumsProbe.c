//===- tests/unit/runtime/kernels/BlockSumsProbe.c - BlockSums.h in C -----===//
//
// The host's block step (runtime/kernels/BlockSums.h) is C with clang
// vector extensions; this wrapper runs it over a tile's blocks for
// BlockSumsTest.cpp, the way Sampler.c's tile loop does; in single
// precision too (BlockSumsProbeF32.c).
//
//===----------------------------------------------------------------------===//

#include "BlockSums.h"

#ifndef VF_BLOCK_PROBE
#define VF_BLOCK_PROBE vf_test_block_tile
#endif

void VF_BLOCK_PROBE(unsigned nout, unsigned nblocks, const unsigned *nb,
                    const vf_u64 *hb, const double *v, vf_u64 first,
                    double *hcube_segments, double *edge_segments, vf_real *dev,
                    int wide) {
  vf_tile_result result;
  const vf_tile_outputs out = {
      hcube_segments, edge_segments, 0, &result, 0, 0, 0};
  vf_open_segment sg;
  sg.h = first;
  sg.open = 0;
  for (unsigned b = 0; b < nblocks; ++b) {
    // The lanes that start a run, as Sampler.c's step (1) marks them.
    const vf_u64 *h = hb + b * VF_BLOCK;
    vf_u32 heads = 1;
    for (unsigned l = 1; l < nb[b]; ++l)
      if (h[l] != h[l - 1])
        heads |= 1u << l;
    vf_block_segments(&out, first, &sg, h, heads, v + b * VF_BLOCK * nout,
                      nb[b], nout, dev + b * VF_BLOCK, wide);
  }
  if (sg.open)
    vf_segment_store(sg.h == first ? edge_segments
                                   : edge_segments + VF_SEGMENT_STRIDE(nout),
                     sg.sums, nout);
}
