#!/usr/bin/env bash
#===- scripts/gpu-check.sh - Every GPU check in one go ---------------------===#
#
# Run on a GPU machine (GPU.md): driver and devices, the math library's
# GPU-vs-CPU bit identity, the known-integral suite on --devices gpu and
# --devices all against the CPU, compute-sanitizer on a short run, and the
# GPU throughput. On a machine without a GPU the GPU steps report
# "skipped" with the reason, so the script is tested before GPU time is
# spent. Everything goes to $OUT (default ./gpu-check-out); a short table is
# printed last.
#
#   scripts/gpu-check.sh [BIN_DIR]     (default: gpu-carry, else build/release/bin)
#
# BIN_DIR holds vegasc and vf_gpu_math_check (scripts/gpu-pack.sh fills
# gpu-carry/ with stripped copies to carry to the GPU machine).
#
#===------------------------------------------------------------------------===#
set -u
cd "$(dirname "$0")/.."
BIN=${1:-}
if [ -z "$BIN" ]; then
  if [ -x gpu-carry/vegasc ]; then BIN=gpu-carry; else BIN=build/release/bin; fi
fi
OUT=${OUT:-$PWD/gpu-check-out}
mkdir -p "$OUT"
export VF_CACHE_DIR="$OUT/cache"
VEGASC="$BIN/vegasc"
SUMMARY="$OUT/summary.txt"
: > "$SUMMARY"

# step NAME TIMEOUT_S COMMAND...: runs, logs to $OUT/NAME.log, records status.
step() {
  local name=$1 limit=$2
  shift 2
  local log="$OUT/$name.log"
  timeout "$limit" "$@" > "$log" 2>&1
  local rc=$?
  local status=ok
  if grep -q "skipped" "$log" && [ $rc -eq 0 ]; then status=skipped; fi
  if [ $rc -ne 0 ]; then status="FAILED (exit $rc)"; fi
  printf '%-22s %-18s %s\n' "$name" "$status" "$(tail -n 1 "$log" | cut -c1-100)" >> "$SUMMARY"
}

have_gpu=no
if command -v nvidia-smi > /dev/null 2>&1 && nvidia-smi > "$OUT/nvidia-smi.log" 2>&1; then
  have_gpu=yes
  printf '%-22s %-18s %s\n' nvidia-smi ok "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1)" >> "$SUMMARY"
else
  printf '%-22s %-18s %s\n' nvidia-smi skipped "no nvidia-smi or no GPU" >> "$SUMMARY"
fi

step list-devices 60 "$VEGASC" --list-devices
step math-bit-identity 600 "$BIN/vf_gpu_math_check"

# The known-integral suite on one --devices spec (CPU first, as reference).
suite() { echo python3 scripts/gpu-suite.py "$VEGASC" tests/testdata/known_integrals.toml "$1" "$OUT"; }
step suite-cpu 900 $(suite cpu)
if [ "$have_gpu" = yes ]; then
  step suite-gpu 900 $(suite gpu)
  step suite-all 900 $(suite all)
  step gpu-vs-cpu 60 python3 scripts/gpu-suite.py --compare "$OUT" cpu gpu
  step all-vs-cpu 60 python3 scripts/gpu-suite.py --compare "$OUT" cpu all
  if command -v compute-sanitizer > /dev/null 2>&1; then
    printf 'integrand f(x in [0, 1]^4) = prod(i in 0..4: exp(-(x[i] - 0.5)^2 / 0.01) / (0.1 * sqrt(pi)))\n' > "$OUT/short.vf"
    step compute-sanitizer 600 compute-sanitizer --error-exitcode=3 "$VEGASC" "$OUT/short.vf" --devices gpu --calls 100000 --iterations 2 --warmup 0 -q
  fi
  for d in 4 8; do
    printf 'param a = 0.1\nintegrand f(x in [0, 1]^%d) = prod(i in 0..%d: exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))\n' $d $d > "$OUT/lepage$d.vf"
    step throughput-gpu-d$d 600 "$VEGASC" "$OUT/lepage$d.vf" --devices gpu --calls 1e8 --iterations 3 --warmup 1 --json "$OUT/throughput-gpu-d$d.json"
    step throughput-cpu-d$d 600 "$VEGASC" "$OUT/lepage$d.vf" --devices cpu --calls 1e7 --iterations 3 --warmup 1 --json "$OUT/throughput-cpu-d$d.json"
    step balance-all-d$d 600 "$VEGASC" "$OUT/lepage$d.vf" --devices all --calls 1e8 --iterations 3 --warmup 1 --json "$OUT/balance-all-d$d.json"
  done
  # Samples/s of the measured iterations, and for --devices all the
  # imbalance and the ratio to GPU alone + CPU alone (target >= 0.95).
  step throughput-table 60 python3 - "$OUT" <<'PY'
import json, sys, os
out = sys.argv[1]
def rate(name):
    p = os.path.join(out, name + ".json")
    if not os.path.exists(p):
        return None, None
    doc = json.load(open(p))
    its = [i for i in doc["iterations"] if not i["warmup"]]
    r = sum(i["samples"] for i in its) / sum(i["time_s"] for i in its)
    idle = sum(d["idle_s"] for i in its for d in i["devices"])
    busy = sum(d["busy_s"] for i in its for d in i["devices"])
    return r, idle / (idle + busy) if idle + busy else 0
for d in (4, 8):
    g, _ = rate(f"throughput-gpu-d{d}")
    c, _ = rate(f"throughput-cpu-d{d}")
    a, imb = rate(f"balance-all-d{d}")
    if g and c and a:
        print(f"d={d}: gpu {g:.3e}/s  cpu {c:.3e}/s  all {a:.3e}/s = "
              f"{a / (g + c):.3f} x (gpu + cpu), imbalance {imb:.1%}")
PY
else
  printf '%-22s %-18s %s\n' gpu-steps skipped "no GPU: suite-gpu, suite-all, compute-sanitizer, throughput, balance" >> "$SUMMARY"
fi

echo "gpu-check: $(date -u +%Y-%m-%dT%H:%MZ), outputs in $OUT"
cat "$SUMMARY"
! grep -q FAILED "$SUMMARY"
