#!/usr/bin/env python3
"""--precision f32 leaves the GPU kernel's per-sample work no f64 arithmetic.

    ptx_precision_test.py VEGASC PTX_LOOPS

The PTX of the sampling kernel (vegasc --emit=ptx) of lepage8 (eight
exponentials, squares, divisions) and of a plain product of the
coordinates, in double and in single precision, its floating-point
arithmetic counted as bench/gpu/ptx_loops.py counts it. In f32 the two
kernels hold the same f64 arithmetic, so lepage8's integrand adds none,
and it computes in f32; and that f64 arithmetic is only the once-per-block
accumulation into the segment's doubles (docs/gpu-benchmarks.md, "Single
precision"): per run of a hypercube in a block its count, its S_c (the
compensated pair's hi + lo, then the sum) and its C_ce, and per block the
comparison with the tile's largest deviation - 5 instructions for one
output, where the per-sample sampler (uniforms, map, Jacobian, terms,
tree, training) had 148. In f64 lepage8 adds f64 arithmetic: the count
sees an integrand's.
"""
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

SOURCES = {
    "lepage8": "param a = 0.1\nintegrand f(x in [0, 1]^8) = prod(i in 0..8: "
               "exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))\n",
    "prod8": "integrand f(x in [0, 1]^8) = prod(i in 0..8: x[i])\n",
}

failures = []


def check(ok, what):
    print(("ok:   " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def counts(vegasc, loops, path, precision):
    """The kernel's f64 and f32 arithmetic instructions."""
    p = subprocess.run([vegasc, "--no-cache", "--emit=ptx", "--precision",
                        precision, path], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"vegasc failed on {path}: {p.stderr}")
    _, lines = loops.entry_body(p.stdout, "vf_sample_tiles_gpu")
    kinds = dict(loops.KINDS)
    # IEEE arithmetic: no flush to zero, no approximate division or root.
    loose = sum(1 for l in lines if re.search(r"\.ftz\b|\.approx\b", l))
    return tuple(sum(1 for l in lines if kinds[k].search(l))
                 for k in ("f64 arith", "f32 arith")) + (loose,)


def main(vegasc, script):
    spec = importlib.util.spec_from_file_location("ptx_loops", script)
    loops = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loops)
    with tempfile.TemporaryDirectory() as d:
        n = {}
        for name, text in SOURCES.items():
            path = os.path.join(d, name + ".vf")
            with open(path, "w") as f:
                f.write(text)
            for precision in ("f64", "f32"):
                n[name, precision] = counts(vegasc, loops, path, precision)
    print(n)
    check(n["lepage8", "f32"][0] == n["prod8", "f32"][0],
          "f32: lepage8's kernel has the plain product's f64 arithmetic "
          "(the sampler's), its integrand none")
    check(n["lepage8", "f32"][1] > 100,
          "f32: lepage8's integrand computes in f32")
    check(n["prod8", "f32"][0] <= 5,
          "f32: the kernel's only f64 arithmetic is the per-block "
          f"accumulation (5 for one output, got {n['prod8', 'f32'][0]})")
    check(n["lepage8", "f64"][0] > n["prod8", "f64"][0] + 100,
          "f64: lepage8's integrand adds f64 arithmetic (the count sees it)")
    check(n["prod8", "f64"][1] == 0, "f64: no f32 arithmetic")
    check(all(c[2] == 0 for c in n.values()),
          "no .ftz or .approx instruction: IEEE rounding, subnormals kept")
    if failures:
        print(f"\n{len(failures)} check(s) failed")
        sys.exit(1)


if __name__ == "__main__":
    main(*sys.argv[1:3])
