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
# including every iteration's mean and error and the covariance, also with
# the JIT compiling for AVX2 only and for SSE2 only (VF_HOST_CPU); then a
# different seed must give a different answer.
#
#===----------------------------------------------------------------------===#
import os
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


def vegasc_with_cpu(exe, cpu, args, json_out=True):
    saved = os.environ.get("VF_HOST_CPU")
    os.environ["VF_HOST_CPU"] = cpu
    try:
        return vegasc(exe, args, json_out=json_out)
    finally:
        if saved is None:
            del os.environ["VF_HOST_CPU"]
        else:
            os.environ["VF_HOST_CPU"] = saved


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
        # The host's vector width must not matter either: the JIT compiled
        # for AVX2 only (x86-64-v3) and for SSE2 only (x86-64) on this CPU.
        # First, that the variable takes effect: the sampler's code for
        # x86-64-v3 has no 512-bit register, for x86-64 no 256-bit one.
        for cpu, wide in (("x86-64-v3", "%zmm"), ("x86-64", "%ymm")):
            r = vegasc_with_cpu(exe, cpu, [src, "--emit", "asm"], json_out=False)
            check(r.rc == 0 and "vf_sample_tile_" in r.out
                  and wide not in r.out,
                  f"{name} VF_HOST_CPU={cpu}: the code uses no {wide}")
        for cpu in ("x86-64-v3", "x86-64"):
            r = vegasc_with_cpu(exe, cpu, [src, "-q", "--seed", 7,
                                           "--devices", "cpu:2", "--no-cache"]
                                + BUDGET)
            if check(r.rc == 0 and r.doc is not None,
                     f"{name} VF_HOST_CPU={cpu}: vegasc succeeds"):
                prints["host " + cpu] = fingerprint(r.doc)
        ref = prints.get("cpu:1")
        for devices, fp in prints.items():
            if devices != "cpu:1":
                check(fp == ref, f"{name}: {devices} bitwise equal to cpu:1")
        r = vegasc(exe, [src, "-q", "--seed", 8, "--devices", "cpu:2"] + BUDGET)
        if check(r.rc == 0 and r.doc is not None, f"{name} seed 8 succeeds") \
                and ref is not None:
            check(r.doc["result"]["mean"] != ref[0]["mean"],
                  f"{name}: seed 8 differs from seed 7")
    r = vegasc_with_cpu(exe, "pentium4", [src, "-q"] + BUDGET, json_out=False)
    check(r.rc == 1 and "VF_HOST_CPU: unknown x86-64 CPU 'pentium4'" in r.err,
          "VF_HOST_CPU=pentium4 (not x86-64): exit 1 naming the variable")
    finish()


if __name__ == "__main__":
    main()
