#!/usr/bin/env python3
#===- bench/heavytail/sweep.py - Pulls of heavy-tailed integrands ---------===#
#
# Usage: sweep.py VEGASC [--seeds N] [--out FILE.json] [--only NAME,...]
#                 [--extra ARG ...]
#
# Integrates each heavy-tailed integrand of issue #22 (and two more of the
# same class) for seeds 1..N (30 by default) with 5 warm-up and 15
# measured iterations, and prints per integrand the mean and RMS pull of
# the combined result, how often the run said its error bar is unreliable
# (result.variance_unstable), and the median relative error. With --out,
# every run's iterations (mean, error, largest-weight share) are kept, so
# other combination rules can be evaluated offline on the same samples.
# The full sweep of docs/algorithm.md's tables; tests/integration/
# heavytail.py is its small-budget version.
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

# name: (source, calls, kind). Exact value 1 for each.
INTEGRANDS = {
    "pow4_045": ("integrand f(x in [0,1]^4) = prod(i in 0..4: 0.55*x[i]^-0.45)",
                 100000, "infinite 4th moment"),
    "pow1_05": ("integrand f(x in [0,1]) = 0.5*x^-0.5", 20000,
                "infinite variance"),
    "pow2_03": ("integrand f(x in [0,1]^2) = prod(i in 0..2: 0.7*x[i]^-0.3)",
                100000, "infinite 4th moment (milder)"),
    "pow3_04": ("integrand f(x in [0,1]^3) = prod(i in 0..3: 0.6*x[i]^-0.4)",
                50000, "infinite 4th moment"),
    "pow2_06": ("integrand f(x in [0,1]^2) = prod(i in 0..2: 0.4*x[i]^-0.6)",
                50000, "infinite variance"),
}


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
    ap.add_argument("--seeds", type=int, default=30)
    ap.add_argument("--out")
    ap.add_argument("--only")
    ap.add_argument("--extra", nargs="*", default=[])
    o = ap.parse_args()
    names = o.only.split(",") if o.only else list(INTEGRANDS)
    kept = {}
    with tempfile.TemporaryDirectory() as wd:
        print(f"{'integrand':10} {'kind':30} {'mean pull':>9} {'RMS pull':>8}"
              f" {'unreliable':>10} {'rel err':>8}")
        for name in names:
            text, calls, kind = INTEGRANDS[name]
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
