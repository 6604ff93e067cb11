#!/usr/bin/env python3
#===- bench/multichannel/overhead.py - What a channel costs per sample ----===#
#
# Usage: overhead.py VEGASC [--calls N] [--rounds N]
#
# Issue 37's cost target: the same integrand written as one channel and as
# two channels that each compute it and keep half (so that both do the
# same arithmetic per sample), run alternately on one CPU thread with the
# same samples; the busy time per sample of each (the JSON's devices) and
# their ratio, per round and as the median. Target: the two-channel form
# at most 10% slower per sample. What remains is the channels' own work:
# a pass per channel (its tiles, its reduction, its map and strata), the
# weights, and the dispatch on the channel per tile.
#
#===----------------------------------------------------------------------===#
import argparse
import json
import os
import statistics
import subprocess
import tempfile

SOURCE = """
# Lepage's 8-dimensional Gaussian peak (vegas's test integrand), the
# reference integrand of bench/: as one channel, and as two channels each
# keeping half of it.
const a = 0.1
fn g(x: [8]) = exp(-100 * ((x[0] - 0.5)^2 + (x[1] - 0.5)^2 + (x[2] - 0.5)^2 +
                           (x[3] - 0.5)^2 + (x[4] - 0.5)^2 + (x[5] - 0.5)^2 +
                           (x[6] - 0.5)^2 + (x[7] - 0.5)^2)) * 1e4 / pi^4

integrand one(x in [0, 1]^8) = g(x)

integrand two(x in [0, 1]^8) {
    channel left { return g(x) / 2 }
    channel right { return g(x) / 2 }
}
"""


def busy_per_sample(vegasc, src, integrand, calls, wd):
    out = os.path.join(wd, "r.json")
    env = dict(os.environ, VF_CACHE_DIR=os.path.join(wd, "cache"))
    subprocess.run([vegasc, src, "--integrand", integrand, "-q", "--calls",
                    str(calls), "--iterations", "3", "--warmup", "1",
                    "--devices", "cpu:1", "--json", out],
                   check=True, capture_output=True, env=env)
    with open(out) as f:
        doc = json.load(f)
    busy = sum(d["busy_s"] for d in doc["devices"])
    return busy / doc["result"]["evaluations"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("vegasc")
    ap.add_argument("--calls", type=int, default=1000000)
    ap.add_argument("--rounds", type=int, default=5)
    o = ap.parse_args()
    with tempfile.TemporaryDirectory() as wd:
        src = os.path.join(wd, "overhead.vf")
        with open(src, "w") as f:
            f.write(SOURCE)
        # Compile both once so that no round pays for it.
        for name in ("one", "two"):
            busy_per_sample(o.vegasc, src, name, 10000, wd)
        ratios = []
        for r in range(o.rounds):
            t1 = busy_per_sample(o.vegasc, src, "one", o.calls, wd)
            t2 = busy_per_sample(o.vegasc, src, "two", o.calls, wd)
            ratios.append(t2 / t1)
            print(f"round {r + 1}: one channel {t1 * 1e9:.1f} ns/sample, "
                  f"two channels {t2 * 1e9:.1f} ns/sample, "
                  f"ratio {t2 / t1:.3f}")
        print(f"median ratio {statistics.median(ratios):.3f} "
              f"(target <= 1.10) over {o.rounds} rounds of {o.calls} calls")


if __name__ == "__main__":
    main()
