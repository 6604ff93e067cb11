#!/usr/bin/env bash
#===- tests/gpu/carry_test.sh - The GPU carry, as it would run there -------===#
#
# Usage: carry_test.sh SOURCE_DIR WORK_DIR LIBFAKECUDA VEGASC_EMU
#
# Builds the carry with scripts/gpu-pack.sh (its build tree and carry under
# WORK_DIR), checks its size, copies it alone into an empty temporary
# folder, and runs its gpu-check.sh there with nothing but a minimal PATH,
# the fake driver (VF_CUDA_LIBRARY) and small budgets: the exact script
# that would go to a GPU machine, end to end, unpacking the carried
# binary, then running the GPU kernel under warp emulation through
# VEGASC_EMU (GPU_CHECK_VEGASC; the carried vegasc has no emulation). It must pass, compare every known integral
# bit for bit, and say why the steps a fake GPU cannot do were skipped.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
SRC=$1 WORK=$2 FAKE=$3 EMU=$4
mkdir -p "$WORK"
GPU_CARRY="$WORK/carry" GPU_PACK_BUILD="$WORK/build" "$SRC/scripts/gpu-pack.sh" > "$WORK/pack.log" 2>&1 ||
  { cat "$WORK/pack.log"; exit 1; }
size=$(du -sb "$WORK/carry" | cut -f1)
echo "carry: $size bytes"
[ "$size" -le $((60 * 1024 * 1024)) ] || { echo "FAIL: the carry exceeds 60 MiB"; exit 1; }
ls "$WORK/carry/suite"/*.vf > /dev/null
BARE=$(mktemp -d)
trap 'rm -rf "$BARE"' EXIT
cp -r "$WORK/carry/." "$BARE/"
cp "$FAKE" "$BARE/libcuda-fake.so"
cp "$EMU" "$BARE/vegasc-emu"
cd "$BARE"
rc=0
env -i PATH=/usr/bin:/bin HOME="$BARE" OUT="$BARE/out" GPU_CHECK_QUICK=1 \
  VF_CUDA_LIBRARY="$BARE/libcuda-fake.so" VF_FAKE_CUDA_DEVICES=1 \
  GPU_CHECK_VEGASC="$BARE/vegasc-emu" \
  bash ./gpu-check.sh > check.log 2>&1 || rc=$?
cat check.log
[ "$rc" -eq 0 ] || { echo "FAIL: gpu-check.sh exited $rc"; exit 1; }
# The known integrals, slow_paths (every math slow path; slow_paths_f32
# the float library's, the f32 suite's in its place), spinors (complex
# helicity amplitudes), pdf (parton densities), channels (a
# multi-channel integrand) and weights (weight lists), gpu-pack.sh.
n=$(ls "$WORK/carry/suite"/*.vf | wc -l)
for f in slow_paths slow_paths_f32 channels spinors pdf weights; do
  [ -f "$WORK/carry/suite/$f.vf" ] || { echo "FAIL: no $f.vf"; exit 1; }
done
for want in "$n of $n integrals bitwise equal on gpu and cpu" \
            "$n of $n integrals bitwise equal on all and cpu" \
            "$((n - 1)) of $((n - 1)) integrals bitwise equal on gpu-f32 and cpu-f32" \
            "compute-sanitizer: skipped: no compute-sanitizer" \
            "nvidia-smi: skipped: " "samples/s" "s wall; warm-up"; do
  grep -qF "$want" check.log || { echo "FAIL: no '$want' in the output"; exit 1; }
done
[ -s out/summary.txt ] || { echo "FAIL: no summary under \$OUT"; exit 1; }
echo "PASS"
