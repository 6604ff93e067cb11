#!/usr/bin/env bash
#===- tests/integration/no_emulation.sh - No test machinery shipped -------===#
#
# Usage: no_emulation.sh NM VEGASC_EMU SHIPPED...
#
# The fake CUDA driver's warp emulation (tests/fakecuda) is test-only: no
# shipped binary (vegasc, libvegasflow, the Python module) may contain its
# code (a symbol in nm's full table) or its bitcode (the sampler_emu
# module's entry names, embedded as bytes). VEGASC_EMU, which links it,
# must show both, so that the patterns are known to catch them. Nor may
# they hold the GPU machine's checks (tests/gpu), which vf-gpu-check
# carries.
#
#===------------------------------------------------------------------------===#
set -uo pipefail
NM=$1 EMU=$2
shift 2
SYMBOLS='vf_gpu_emu|sampler_emu|WarpEmulat|[Ff]ake[Cc]uda|fakecuda|emulatedSample|registerGpuEmulation|vfGpuMathSelfTest|vfGpuCheckTool'
BYTES='vf_sample_tiles_emu'

# found FILE: which of the two kinds FILE holds, one word each.
found() {
  # Not grep -q: with pipefail, nm killed by an early exit would fail.
  "$NM" "$1" 2> /dev/null | grep -E "$SYMBOLS" > /dev/null && echo symbols
  grep -qaF "$BYTES" "$1" && echo bitcode
}

[ "$(found "$EMU" | tr '\n' ' ')" = "symbols bitcode " ] ||
  { echo "FAIL: $EMU should hold the emulation's symbols and bitcode"; exit 1; }
rc=0
for f in "$@"; do
  kinds=$(found "$f" | tr '\n' ' ')
  if [ -n "$kinds" ]; then
    echo "FAIL: $f holds the warp emulation's $kinds"
    "$NM" "$f" 2> /dev/null | grep -E "$SYMBOLS" | head -n 5
    rc=1
  else
    echo "ok: $f"
  fi
done
[ $rc -eq 0 ] && echo PASS
exit $rc
