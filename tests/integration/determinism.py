#!/usr/bin/env python3
#===- tests/integration/determinism.py - Same seed, same bits -------------===#
#
# Usage: determinism.py VEGASC KNOWN_INTEGRALS.toml
#
# The runtime promises (docs/user-guide.md) that a seed fixes the result
# bit for bit whatever the number of CPU threads: samples are drawn from
# Philox keyed by (seed; iteration, sample index) and per-tile sums are
# reduced in tile order. With 200000 calls an iteration has 25 tiles, so 2,
# 3 and 8 threads really split it differently. JSON numbers are written in
# shortest round-trip form, so equal parsed floats mean equal bits.
# Checked on a scalar (lepage4) and a vector-valued (moments3) integrand,
# including every iteration's mean and error and the covariance; then a
# different seed must give a different answer.
#
#===----------------------------------------------------------------------===#
import sys

from vftest import check, finish, load_known, vegasc, write_source

BUDGET = ["--calls", 200000, "--iterations", 3, "--warmup", 2]


def fingerprint(doc):
    """Everything the seed must fix: the result and every iteration."""
    res = {k: v for k, v in doc["result"].items() if k != "wall_s"}
    its = [(it["index"], it["warmup"], it["mean"], it["error"],
            it["cumulative_mean"], it["cumulative_error"], it["chi2_dof"],
            it["Q"], it["samples"], it["nonfinite"], it["max_share"])
           for it in doc["iterations"]]
    return res, its


def main():
    exe, toml_path = sys.argv[1:3]
    known = load_known(toml_path)
    for name in ("lepage4", "moments3"):
        src = write_source(name, known[name]["source"])
        prints = {}
        for devices in ("cpu:1", "cpu:2", "cpu:3", "cpu:8"):
            r = vegasc(exe, [src, "-q", "--seed", 7, "--devices", devices]
                       + BUDGET)
            if not check(r.rc == 0 and r.doc is not None,
                         f"{name} --devices {devices}: vegasc succeeds"):
                print(r)
                continue
            check(len(r.doc["devices"]) == int(devices[4:]),
                  f"{name} --devices {devices}: one device entry per thread")
            check(r.doc["settings"]["cpu_threads"] == int(devices[4:]),
                  f"{name} --devices {devices}: settings.cpu_threads")
            check(sum(d["samples"] for d in r.doc["devices"])
                  == r.doc["result"]["evaluations"],
                  f"{name} --devices {devices}: device samples add up")
            prints[devices] = fingerprint(r.doc)
            print(f"{name} {devices}: mean {r.doc['result']['mean']!r}")
        ref = prints.get("cpu:1")
        for devices, fp in prints.items():
            if devices != "cpu:1":
                check(fp == ref, f"{name}: --devices {devices} bitwise equal "
                                 f"to cpu:1")
        r = vegasc(exe, [src, "-q", "--seed", 8, "--devices", "cpu:2"] + BUDGET)
        if check(r.rc == 0 and r.doc is not None, f"{name} seed 8 succeeds") \
                and ref is not None:
            check(r.doc["result"]["mean"] != ref[0]["mean"],
                  f"{name}: seed 8 differs from seed 7")
    finish()


if __name__ == "__main__":
    main()
