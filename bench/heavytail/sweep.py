#!/usr/bin/env python3
#===- bench/heavytail/sweep.py - Pulls of heavy-tailed integrands ---------===#
#
# Usage: sweep.py VEGASC [--seeds N] [--out FILE.json] [--only NAME,...]
#                 [--extra ARG ...]
#
# Integrates each heavy-tailed integrand of tests/testdata/heavy_tailed.toml
# (the three of issue #22 and two more of the same class) for seeds 1..N
# (100 by default) with 5 warm-up and 15 measured iterations, and prints per integrand the mean and RMS pull of
# the combined result, how often the run said its error bar is unreliable
# (result.variance_unstable), and the median relative error. With --out,
# every run's iterations (mean, error, largest-weight share) are kept, so
# other combination rules can be evaluated offline on the same samples.
# The full sweep of docs/algorithm.md's tables; tests/integration/
# heavytail.py checks the same integrands over 30 seeds.
#
#===----------------------------------------------------------------------===#
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import tomllib

HEAVY_TAILED = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "..", "..", "tests", "testdata", "heavy_tailed.toml")


def run(exe, src, calls, seed, workdir, extra):
    out = os.path.join(workdir, "r.json")
    args = [exe, src, "-q", "--seed", str(seed), "--calls", str(calls),
            "--iterations", "15", "--warmup", "5", "--json", out] + extra
    env = dict(os.environ, VF_CACHE_DIR=os.path.join(workdir, "cache"))
    p = subprocess.run(args, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"{' '.join(args)}: exit {p.returncode}\n{p.stderr}")
    with open(out) as f:
        return json.load(f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("vegasc")
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--out")
    ap.add_argument("--only")
    ap.add_argument("--extra", nargs="*", default=[])
    o = ap.parse_args()
    with open(HEAVY_TAILED, "rb") as f:
        table = tomllib.load(f)
    names = o.only.split(",") if o.only else list(table)
    kept = {}
    with tempfile.TemporaryDirectory() as wd:
        print(f"{'integrand':10} {'kind':30} {'mean pull':>9} {'RMS pull':>8}"
              f" {'unreliable':>10} {'rel err':>8}")
        for name in names:
            e = table[name]
            text, calls, kind = e["source"], e["calls"], "infinite " + e["kind"]
            src = os.path.join(wd, name + ".vf")
            with open(src, "w") as f:
                f.write(text + "\n")
            pulls, flagged, rel, runs = [], 0, [], []
            for seed in range(1, o.seeds + 1):
                doc = run(o.vegasc, src, calls, seed, wd, o.extra)
                res = doc["result"]
                pulls.append((res["mean"] - 1.0) / res["error"])
                rel.append(res["error"])
                flagged += bool(res.get("variance_unstable"))
                runs.append({"seed": seed, "result": res,
                             "iterations": [
                                 {k: it.get(k) for k in
                                  ("warmup", "mean", "error", "max_share")}
                                 for it in doc["iterations"]]})
            kept[name] = runs
            rms = math.sqrt(statistics.fmean(p * p for p in pulls))
            print(f"{name:10} {kind:30} {statistics.fmean(pulls):+9.2f}"
                  f" {rms:8.2f} {flagged:>7}/{o.seeds:<2}"
                  f" {statistics.median(rel):8.2g}", flush=True)
    if o.out:
        with open(o.out, "w") as f:
            json.dump(kept, f)


if __name__ == "__main__":
    main()
