#!/usr/bin/env python3
#===- bench/python/overhead.py - The cost of going through Python ----------===#
#
# Two measurements, printed as Markdown tables for docs/benchmarks.md:
#
# 1. Python-call overhead per iteration: the same run (lepage.vf, 8
#    dimensions, fixed seed) through vegasflow.Integrator and through
#    vegasc --json. The library's own time is the JSON's wall_s (the same
#    in both, the results being bitwise equal); the overhead is Python's
#    wall time around run() (the Integrator made beforehand) minus its
#    wall_s, per iteration. vegasc's
#    process time includes start-up and the cached compile.
#    And per call, as a vegas user calls: one Integrator, called again and
#    again with nitn=1 (each call its own statistics, the map kept), the
#    wall time of a call against its wall_s.
# 2. A .vf integrand through Python against the same function as a numpy
#    batch integrand through vegasflow (the GIL taken per batch of <= 64
#    points), samples per second, on 1 and 2 CPU threads.
#
# Lepage's vegas is not installable on this machine (no Debian package,
# no network for pip): its column is left out, and docs/benchmarks.md
# says so.
#
#   PYTHONPATH=build/release/python python3 bench/python/overhead.py \
#       build/release/bin/vegasc
#
#===------------------------------------------------------------------------===#
import json
import math
import pathlib
import subprocess
import sys
import time

import numpy as np

import vegasflow as vf

ROOT = pathlib.Path(__file__).resolve().parents[2]
LEPAGE = ROOT / "examples" / "lepage.vf"


def best(fn, repeat=3):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - start, out))
    return min(times, key=lambda t: t[0])


def overhead(vegasc, calls, iterations):
    opts = dict(calls=calls, iterations=iterations, warmup=0, seed=1,
                devices="cpu:2")
    f = vf.compile(LEPAGE).lepage

    def python():  # run() alone: the integrator is made beforehand
        integ = vf.Integrator(f, **opts)
        start = time.perf_counter()
        r = integ()
        return time.perf_counter() - start, r
    py_s, r = min((python() for _ in range(3)), key=lambda t: t[0])

    def cli():
        args = [vegasc, str(LEPAGE), "-q", "--json", "-"]
        for k, v in opts.items():
            args += [f"--{k}", str(v)]
        return json.loads(subprocess.run(args, capture_output=True,
                                         text=True, check=True).stdout)
    cli_s, doc = best(cli)
    assert doc["result"]["mean"] == r.mean  # the same run, bit for bit
    per = 1e6 / iterations
    print(f"| {calls:.0e} | {iterations} | {r.wall_s * per:.0f} | "
          f"{doc['result']['wall_s'] * per:.0f} | {py_s * per:.0f} | "
          f"{(py_s - r.wall_s) * per:.1f} | {cli_s * 1e3:.0f} |")


def per_call(calls, repeat=50):
    """vegas's idiom: integ(f, nitn=1, neval=calls) over and over on one
    integrator; each call's wall time against the library's wall_s."""
    f = vf.compile(LEPAGE).lepage
    integ = vf.Integrator(f, seed=1, devices="cpu:2", warmup=0)
    integ(nitn=1, neval=calls)  # the first call's set-up aside
    walls, libs = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        r = integ(nitn=1, neval=calls)
        walls.append(time.perf_counter() - start)
        # The call's own iteration: wall_s also counts the previous call's
        # last one, which stays in the rows (as warm-up) to weight it.
        libs.append(sum(row.seconds for row in r.itn_results))
    wall, lib = sorted(walls)[repeat // 2], sorted(libs)[repeat // 2]
    print(f"| {calls:.0e} | {repeat} | {wall * 1e6:.0f} | {lib * 1e6:.0f} | "
          f"{(wall - lib) * 1e6:.0f} |")


def gauss_numpy(x):
    a = 0.1
    return np.prod(np.exp(-((x - 0.5) / a) ** 2) / (a * math.sqrt(math.pi)),
                   axis=1)


def throughput(threads, calls=400_000, iterations=5):
    opts = dict(calls=calls, iterations=iterations, warmup=0, seed=1,
                devices=f"cpu:{threads}")
    compiled = vf.compile(LEPAGE).lepage
    rows = []
    for what, f, extra in (("lepage.vf", compiled, {}),
                           ("numpy", gauss_numpy, dict(dim=8))):
        s, r = best(lambda: vf.Integrator(f, **opts, **extra)(), repeat=2)
        rows.append((what, r.evaluations / s))
    for what, rate in rows:
        print(f"| {what} | {threads} | {rate / 1e6:.2f} | "
              f"{rows[0][1] / rate:.0f}x |")


def main():
    vegasc = sys.argv[1]
    print("| calls | iterations | library us/itn (Python) | library us/itn "
          "(vegasc) | Python run() us/itn | overhead us/itn | vegasc process"
          " ms |")
    print("|---|---|---|---|---|---|---|")
    for calls, iterations in ((2000, 200), (100_000, 50), (1_000_000, 10)):
        overhead(vegasc, calls, iterations)
    print()
    print("| calls | calls made | Python call us (median) | library us "
          "(median) | overhead us per call |")
    print("|---|---|---|---|---|")
    for calls in (2000, 100_000):
        per_call(calls)
    print()
    print("| integrand | CPU threads | M samples/s | slower than .vf |")
    print("|---|---|---|---|")
    for threads in (1, 2):
        throughput(threads)


if __name__ == "__main__":
    main()
