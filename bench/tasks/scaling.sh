#!/usr/bin/env bash
#===- bench/tasks/scaling.sh - Task engines against MPI and one process ---===#
#
# lepage8 (examples/lepage.vf), CALLS x 10 iterations after 2 warm-up,
# seed 1, wall time of the whole command (start-up included): one process
# on 1 and 2 threads, mpirun -np 2 (1 thread each), the Dask driver on a
# LocalCluster of 2 worker processes with 2 and 8 parts per iteration (1
# thread each), and the cost of one part and one merge (vegasc --task-*
# for a single iteration against that iteration alone); then unequal
# workers (one a simulated device of SLOW million samples/s, the other a
# CPU thread): the Dask driver with 2 equal parts, 2 parts sized by the
# workers' measured throughput, and 8 equal parts. Checks that every run
# gave bitwise the same result (docs/benchmarks.md, "Task engines").
#
#   bench/tasks/scaling.sh [VEGASC] [CALLS] [SLOW]
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/../.."
V=$(readlink -f "${1:-build/release/bin/vegasc}")
CALLS=${2:-1e6}
SLOW=${3:-1}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
S=(--calls "$CALLS" --iterations 10 --warmup 2 --seed 1)
F=examples/lepage.vf
export PYTHONPATH=$(dirname "$V")/../python${PYTHONPATH:+:$PYTHONPATH}
wall() { # NAME COMMAND...: seconds of COMMAND
  local t0 t1
  t0=$(date +%s.%N)
  "${@:2}" > /dev/null 2>&1
  t1=$(date +%s.%N)
  echo "$1 $(echo "$t1 - $t0" | bc)" >> "$T/times"
}
"$V" $F "${S[@]}" -q --devices cpu:1 --json "$T/warm.json" # compile cache
wall "1 process, 1 thread" "$V" $F "${S[@]}" -q --devices cpu:1 --json "$T/a.json"
wall "1 process, 2 threads" "$V" $F "${S[@]}" -q --devices cpu:2 --json "$T/b.json"
wall "mpirun -np 2, 1 thread each" mpirun --allow-run-as-root --oversubscribe \
  -np 2 "$V" $F "${S[@]}" -q --devices cpu:1 --json "$T/c.json"
for n in 2 8; do
  wall "dask, 2 workers, $n parts" /usr/bin/python3 -m vegasflow.dask $F \
    --scheduler local --workers 2 --parts "$n" --vegasc "$V" \
    --json "$T/d$n.json" "${S[@]}" --devices cpu:1
done
# One iteration: alone, as one part, and its merge.
O=(--calls "$CALLS" --iterations 1 --warmup 0 --seed 1 --devices cpu:1)
"$V" $F "${O[@]}" --task-init "$T/s0"
wall "one iteration alone" "$V" $F "${O[@]}" -q
wall "the same as one part" "$V" $F "${O[@]}" --task-part 0/1 --state "$T/s0" --out "$T/p"
wall "its merge" "$V" $F "${O[@]}" --task-merge "$T/p" --state "$T/s0" --out "$T/s1" -q
echo "part file: $(stat -c %s "$T/p") bytes"
# Unequal workers: the first worker to run a part is the slow one.
cat > "$T/unequal" <<EOF
#!/bin/sh
case " \$* " in *' --task-part '*)
  mkdir "\$UNEQUAL.d" 2>/dev/null && echo \$PPID > "\$UNEQUAL"
  while [ ! -s "\$UNEQUAL" ]; do sleep 0.01; done
  [ "\$(cat "\$UNEQUAL")" = \$PPID ] && exec "$V" "\$@" --devices sim:$SLOW
  exec "$V" "\$@" --devices cpu:1;;
esac
exec "$V" "\$@"
EOF
chmod +x "$T/unequal"
for run in "2 --equal-parts" "2" "8 --equal-parts"; do
  set -- $run
  export UNEQUAL="$T/slow-$1${2:-}"
  label="$1 parts sized by throughput"
  [ -n "${2:-}" ] && label="$1 equal parts"
  wall "dask, unequal workers, $label" \
    /usr/bin/python3 -m vegasflow.dask $F --scheduler local --workers 2 \
    --parts "$1" ${2:-} --vegasc "$T/unequal" --json "$T/u$1${2:-}.json" \
    "${S[@]}"
done
/usr/bin/python3 - "$T" <<'PY'
import json, os, sys
t = sys.argv[1]
for line in open(os.path.join(t, "times")):
    name, s = line.rsplit(" ", 1)
    print(f"{name:46} {float(s):8.2f} s")
res = {(d["result"]["mean"], d["result"]["error"]) for d in
       (json.load(open(os.path.join(t, f))) for f in
        ("a.json", "b.json", "c.json", "d2.json", "d8.json",
         "u2--equal-parts.json", "u2.json", "u8--equal-parts.json"))}
print("results bitwise equal:", len(res) == 1)
PY
