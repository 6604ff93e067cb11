#!/usr/bin/env bash
#===- scripts/gpu-check.sh - Every GPU check in one go ---------------------===#
#
# Run on a GPU machine (GPU.md) from the carry scripts/gpu-pack.sh makes
# (this script next to vegasc.xz, vf-gpu-check.xz and suite/); needs only
# bash, coreutils, xz and the NVIDIA driver. In one go, each step under a
# timeout of at most 120 s and all of it within 8 minutes: nvidia-smi,
# vegasc --list-devices, the math library's GPU-vs-CPU bit identity in
# double and in single precision (vf-gpu-check gpu-math), the known
# integrals on
# --devices gpu and --devices all compared bit for bit with the CPU (the
# largest relative difference printed where they differ), the same suite
# in single precision (--precision f32) on the CPU and the GPU compared bit
# for bit, compute-sanitizer on a short run, throughput for lepage d = 4
# and 8 at 1e8 and 1e9 calls (and at 1e9 in f32: wall time, and the GPU's
# busy time), and the CPU+GPU balance. A step that
# cannot run says "skipped: WHY". Everything goes to $OUT (default
# ./gpu-check-out); a short table is printed last; the exit status is 1 if
# any step failed.
#
# GPU_CHECK_QUICK=1 shrinks every budget, for CI against the fake driver
# (VF_CUDA_LIBRARY), where the GPU kernel runs under warp emulation: the
# shipped vegasc has none, so GPU_CHECK_VEGASC then names the tests'
# vegasc-emu (tests/fakecuda), which runs every step after the unpack.
#
#===------------------------------------------------------------------------===#
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/gpu-check-out}
QUICK=${GPU_CHECK_QUICK:-0}
TOTAL=480
mkdir -p "$OUT"
export VF_CACHE_DIR="$OUT/cache"
SUMMARY="$OUT/summary.txt"
: > "$SUMMARY"
VEGASC="$OUT/vegasc"
GPUCHECK="$OUT/vf-gpu-check"

row() { printf '%-26s %-8s %s\n' "$1" "$2" "$3" >> "$SUMMARY"; }

skip() {
  echo "$1: skipped: $2" | tee "$OUT/$1.log"
  row "$1" skipped "$2"
}

# step NAME LIMIT COMMAND...: runs COMMAND under min(LIMIT, the time left),
# its output in $OUT/NAME.log; the row shows its last line.
step() {
  local name=$1 limit=$2
  shift 2
  local left=$((TOTAL - SECONDS))
  if [ "$left" -lt 5 ]; then
    skip "$name" "the 8-minute budget is spent"
    return 1
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  local last
  last=$(tail -n 1 "$OUT/$name.log" | cut -c1-110)
  if [ $rc -eq 0 ]; then
    row "$name" ok "$last"
  elif [ $rc -eq 124 ]; then
    row "$name" FAILED "timed out after $limit s"
  else
    row "$name" FAILED "exit $rc: $last"
  fi
  echo "$name: $(tail -n 1 "$SUMMARY" | cut -c36-)"
  return $rc
}

if ! command -v xz > /dev/null 2>&1; then
  row unpack FAILED "no xz to unpack vegasc.xz and vf-gpu-check.xz"
  cat "$SUMMARY"
  exit 1
fi
step unpack 60 sh -c "xz -dc '$HERE/vegasc.xz' > '$VEGASC' && chmod +x '$VEGASC' &&
  xz -dc '$HERE/vf-gpu-check.xz' > '$GPUCHECK' && chmod +x '$GPUCHECK' && '$VEGASC' --version" ||
  { cat "$SUMMARY"; exit 1; }
[ -n "${GPU_CHECK_VEGASC:-}" ] && VEGASC=$GPU_CHECK_VEGASC

if command -v nvidia-smi > /dev/null 2>&1; then
  step nvidia-smi 30 nvidia-smi
else
  skip nvidia-smi "no nvidia-smi on PATH"
fi

step list-devices 30 "$VEGASC" --list-devices
have_gpu=no
grep -q '^gpu:0:' "$OUT/list-devices.log" && have_gpu=yes
why=$(grep '^gpu: none:' "$OUT/list-devices.log" | cut -c12-)

if [ "$QUICK" = 1 ]; then
  SUITE_ARGS=(--calls 4000 --iterations 1 --warmup 1)
  SIZES=(2000 20000)
  SHORT=2000
else
  SUITE_ARGS=(--iterations 2 --warmup 2)
  SIZES=(1e8 1e9)
  SHORT=100000
fi

# suite_run DEVICES [f32]: every known integral on DEVICES (in single
# precision with f32), as JSON in $OUT/suite/NAME.DEVICES.json
# (NAME.DEVICES-f32.json).
suite_run() {
  mkdir -p "$OUT/suite"
  local vf name calls tag=$1 precision=()
  [ -n "${2:-}" ] && tag="$1-$2" && precision=(--precision "$2")
  for vf in "$HERE"/suite/*.vf; do
    name=$(basename "$vf" .vf)
    # Its constant 1e-306 is 0 as a float, which f32 refuses;
    # slow_paths_f32 takes the float library's slow paths.
    [ -n "${2:-}" ] && [ "$name" = slow_paths ] && continue
    calls=()
    [ "$QUICK" = 1 ] || calls=(--calls "$(cat "$HERE/suite/$name.calls")")
    "$VEGASC" "$vf" -q --seed 7 --devices "$1" "${SUITE_ARGS[@]}" \
      "${precision[@]}" "${calls[@]}" --json "$OUT/suite/$name.$tag.json" \
      > /dev/null || {
      echo "$name on $tag: vegasc failed"
      return 1
    }
    echo "$name on $tag: done"
  done
}

# suite_compare DEVICES [f32]: each integral's run on DEVICES against the
# CPU's, in the same precision.
suite_compare() {
  local f name verdict bad=0 n=0 sfx=
  [ -n "${2:-}" ] && sfx="-$2"
  for f in "$OUT"/suite/*.cpu$sfx.json; do
    name=$(basename "$f" ".cpu$sfx.json")
    n=$((n + 1))
    verdict=$("$GPUCHECK" "compare:$OUT/suite/$name.$1$sfx.json:$f")
    [ $? -eq 0 ] || bad=$((bad + 1))
    echo "$name: $1$sfx vs cpu$sfx: $verdict"
  done
  echo "$((n - bad)) of $n integrals bitwise equal on $1$sfx and cpu$sfx"
  [ "$bad" -eq 0 ]
}
export -f suite_run suite_compare
export HERE OUT VEGASC GPUCHECK QUICK
export SUITE_ARGS_TEXT="${SUITE_ARGS[*]}"

if [ "$have_gpu" != yes ]; then
  for s in math-bit-identity suite compute-sanitizer throughput balance; do
    skip "$s" "no GPU: $why"
  done
else
  if [ "$QUICK" = 1 ]; then
    skip math-bit-identity "GPU_CHECK_QUICK: the fake driver runs no math kernel"
  else
    step math-bit-identity 120 "$GPUCHECK" gpu-math --require-gpu
  fi
  # Arrays do not cross export: each bash -c rebuilds SUITE_ARGS.
  for d in cpu gpu all; do
    step "suite-$d" 120 bash -c 'SUITE_ARGS=($SUITE_ARGS_TEXT); suite_run '"$d"
  done
  for d in gpu all; do
    step "suite-$d-vs-cpu" 30 bash -c "suite_compare $d"
    grep DIFFERS "$OUT/suite-$d-vs-cpu.log" | sort -t' ' -k8 -g | tail -n 1
  done
  # Single precision (--precision f32): the same suite, CPU against GPU.
  for d in cpu gpu; do
    step "suite-$d-f32" 120 bash -c 'SUITE_ARGS=($SUITE_ARGS_TEXT); suite_run '"$d f32"
  done
  step "suite-gpu-f32-vs-cpu" 30 bash -c "suite_compare gpu f32"

  sanitizer=$(command -v compute-sanitizer || true)
  [ -z "$sanitizer" ] && [ -x /usr/local/cuda/bin/compute-sanitizer ] &&
    sanitizer=/usr/local/cuda/bin/compute-sanitizer
  if [ -n "$sanitizer" ]; then
    echo "compute-sanitizer: $sanitizer"
    step compute-sanitizer 120 "$sanitizer" --error-exitcode=3 "$VEGASC" \
      "$HERE/suite/lepage4.vf" --devices gpu --calls "$SHORT" \
      --iterations 1 --warmup 0 -q
  else
    skip compute-sanitizer "no compute-sanitizer on PATH or in /usr/local/cuda/bin"
  fi

  for dim in 4 8; do
    vf="$HERE/suite/lepage$dim.vf"
    for calls in "${SIZES[@]}"; do
      json="$OUT/throughput-d$dim-$calls.json"
      step "throughput-d$dim-$calls" 120 "$VEGASC" "$vf" -q --devices gpu \
        --calls "$calls" --iterations 1 --warmup 1 --json "$json" &&
        row "  gpu d=$dim $calls" rate "$("$GPUCHECK" "rates:$json")"
    done
    json="$OUT/throughput-d$dim-${SIZES[1]}-f32.json"
    step "throughput-d$dim-${SIZES[1]}-f32" 120 "$VEGASC" "$vf" -q \
      --devices gpu --precision f32 --calls "${SIZES[1]}" --iterations 1 \
      --warmup 1 --json "$json" &&
      row "  gpu f32 d=$dim ${SIZES[1]}" rate "$("$GPUCHECK" "rates:$json")"
    json="$OUT/balance-d$dim.json"
    step "balance-d$dim" 120 "$VEGASC" "$vf" -q --devices all \
      --calls "${SIZES[0]}" --iterations 2 --warmup 1 --json "$json" &&
      row "  all d=$dim ${SIZES[0]}" rate "$("$GPUCHECK" "rates:$json")"
  done
fi

echo
echo "gpu-check: $(date -u +%Y-%m-%dT%H:%MZ), $SECONDS s, outputs in $OUT"
cat "$SUMMARY"
! grep -q FAILED "$SUMMARY"
