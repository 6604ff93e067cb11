#!/usr/bin/env bash
#===- bench/mpi/strong_scaling.sh - MPI strong scaling on this machine ----===#
#
# lepage8 (examples/lepage.vf), 10^6 calls x 10 iterations after 2 warm-up,
# seed 1: one process on 1 thread, mpirun -np 1 and -np 2 (1 thread each),
# and one process on 2 threads, in one command, so the ratios compare runs
# on the same machine at the same time. Prints samples/s of the measured
# iterations, the efficiency against one process on one thread, the bytes
# each rank contributes to the exchange per iteration, and checks that
# every run gave bitwise the same result (docs/benchmarks.md, "MPI").
#
#   bench/mpi/strong_scaling.sh [VEGASC] [CALLS]
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/../.."
V=${1:-build/release/bin/vegasc}
CALLS=${2:-1e6}
T=$(mktemp -d)
MR="mpirun --allow-run-as-root --oversubscribe"
A="examples/lepage.vf -q --calls $CALLS --iterations 10 --warmup 2 --seed 1"
"$V" $A --devices cpu:1 --json "$T/one.json" > /dev/null
$MR -np 1 "$V" $A --devices cpu:1 --json "$T/np1.json" > /dev/null
$MR -np 2 "$V" $A --devices cpu:1 --json "$T/np2.json" > /dev/null
"$V" $A --devices cpu:2 --json "$T/threads2.json" > /dev/null
python3 - "$T" <<'PY'
import json, os, sys
t = sys.argv[1]
rows = [("one", "1 process, 1 thread", 1), ("np1", "mpirun -np 1, 1 thread", 1),
        ("np2", "mpirun -np 2, 1 thread each", 2), ("threads2", "1 process, 2 threads", 2)]
base, means = None, set()
print(f"{'run':30} {'samples/s':>12} {'efficiency':>10} {'exchange B/iter':>16}")
for f, name, workers in rows:
    d = json.load(open(os.path.join(t, f + ".json")))
    its = [i for i in d["iterations"] if not i["warmup"]]
    r = sum(i["samples"] for i in its) / sum(i["time_s"] for i in its)
    base = base or r
    means.add((d["result"]["mean"], d["result"]["error"]))
    print(f"{name:30} {r:12.3e} {r / (base * workers):10.2f} "
          f"{d.get('mpi', {}).get('exchange_bytes_per_iteration', 0):16d}")
print("results bitwise equal:", len(means) == 1)
PY
rm -rf "$T"
