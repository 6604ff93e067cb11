#!/usr/bin/env python3
"""Histograms of observables (`hist` statements) end to end.

    histograms.py VEGASC LIBFAKECUDA [MPIEXEC]

1. Bitwise: a 1-D and a 2-D histogram (and the integral) are the same bits
   for 1, 2 and 3 CPU threads, every schedule, simulated devices, fake
   GPUs (tests/fakecuda runs the GPU launches with the host kernel) alone
   and mixed with CPU threads, and mpirun -np 2 (when MPIEXEC is given);
   also in 20 dimensions, where one hypercube spans every tile.
2. The bins with their under/overflow add up to the integral to rounding,
   for every seed below.
3. Honesty: over 30 seeds at a small budget, each bin's pull
   (value - exact) / error, and the under- and overflow's, has a mean
   within +-0.5 and a standard deviation in [0.7, 1.3]. The distribution
   is dsigma/dcos(theta) ~ 3/8 (1 + c^2) times a factor in a second
   variable that VEGAS must adapt to, binned on [-0.8, 0.8) so both flows
   are populated; the exact bin contents are 3/8 [(b - a) + (b^3 - a^3)/3].
4. Outputs: --hist-csv has the JSON's cells bit for bit, the table a
   summary line per histogram.
"""
import math
import os
import statistics
import subprocess
import sys

from vftest import check, finish, vegasc, with_env, workdir, write_source

SOURCE = """# The angular distribution of e+e- -> mu+mu- (QED) times a peak in y
# whose integral over [0, 1] is 1.
const w = 0.1
const norm = 1 / (w * sqrt(pi) * erf(0.5 / w))
integrand ee(x in [-1, 1] * [0, 1]) {
    let c = x[0]
    let peak = norm * exp(-((x[1] - 0.5) / w)^2)
    hist costheta(c, -0.8, 0.8, 8)
    hist map2(c, -1, 1, 3, x[1], 0.3, 0.7, 2)
    return 3/8 * (1 + c^2) * peak
}
"""
LO, HI, BINS = -0.8, 0.8, 8


def exact(a, b):
    return 3 / 8 * ((b - a) + (b ** 3 - a ** 3) / 3)


def fingerprint(doc):
    res = doc["result"]
    return (res["mean"], res["error"],
            [(it["mean"], it["error"]) for it in doc["iterations"]],
            doc["histograms"])


def flat(values):
    return [v for row in values for v in row] if values and \
        isinstance(values[0], list) else list(values)


def total(h):
    flows = [h[k]["value"] for k in ("underflow", "overflow", "outside")
             if k in h]
    return math.fsum(flat(h["values"]) + flows)


def bitwise(exe, fake, mpiexec):
    src = write_source("ee_hist", SOURCE)
    # 300000 calls: 74 tiles, so hypercubes split across tiles and groups.
    base = ["-q", "--seed", 3, "--calls", 300000, "--iterations", 3,
            "--warmup", 1]
    with_env(VF_CUDA_LIBRARY="/nonexistent/libcuda.so.1")
    ref = vegasc(exe, [src, "--devices", "cpu:1"] + base)
    if not check(ref.rc == 0 and ref.doc and "histograms" in ref.doc,
                 "reference run with histograms"):
        print(ref)
        return
    hs = ref.doc["histograms"]
    check([h["name"] for h in hs] == ["costheta", "map2"] and
          len(hs[0]["values"]) == BINS and
          [len(r) for r in hs[1]["values"]] == [2, 2, 2] and
          hs[0]["axes"][0]["edges"][0] == LO and
          hs[0]["axes"][0]["edges"][-1] == HI and
          "outside" in hs[1] and "underflow" in hs[0],
          "the JSON has both histograms with their shapes, edges and flows")
    mean = ref.doc["result"]["mean"]
    for h in hs:
        check(abs(total(h) - mean) <= 1e-13 * abs(mean),
              f"{h['name']}: bins and flows add up to the integral "
              f"({total(h)!r} vs {mean!r})")
    runs = [("cpu:2", "adaptive"), ("cpu:3", "static"), ("cpu:3", "guided"),
            ("cpu:2", "dynamic:1"), ("cpu:1,sim:5,sim:50", "adaptive")]
    for devices, schedule in runs:
        r = vegasc(exe, [src, "--devices", devices, "--schedule", schedule]
                   + base)
        check(r.rc == 0 and r.doc and fingerprint(r.doc) ==
              fingerprint(ref.doc),
              f"--devices {devices} --schedule {schedule}: histograms "
              f"bitwise the single thread's")
    with_env(VF_CUDA_LIBRARY=fake, VF_FAKE_CUDA_DEVICES=2)
    for devices, schedule in (("gpu:0", "adaptive"), ("gpu", "static"),
                              ("cpu:1,gpu:1", "guided"), ("all", "dynamic:3")):
        r = vegasc(exe, [src, "--devices", devices, "--schedule", schedule]
                   + base)
        gpus = [d for d in (r.doc or {}).get("devices", [])
                if d["kind"] == "gpu" and d["samples"] > 0]
        check(r.rc == 0 and r.doc and gpus and
              fingerprint(r.doc) == fingerprint(ref.doc),
              f"fake GPUs --devices {devices} --schedule {schedule}: "
              f"histograms bitwise the CPU's")
    with_env(VF_CUDA_LIBRARY="/nonexistent/libcuda.so.1",
             VF_FAKE_CUDA_DEVICES=None)
    if not mpiexec:
        return
    import json
    js = os.path.join(workdir(), "np2.json")
    env = dict(os.environ, VF_CACHE_DIR=os.path.join(workdir(), "cache"))
    p = subprocess.run([mpiexec, "--allow-run-as-root", "--oversubscribe",
                        "--mca", "mpi_yield_when_idle", "1", "-np", "2", exe]
                       + [str(a) for a in [src, "--devices", "cpu:1"] + base]
                       + ["--json", js], capture_output=True, text=True,
                       env=env, timeout=600)
    if check(p.returncode == 0 and os.path.exists(js),
             f"mpirun -np 2 runs ({p.stderr.strip()[-300:]})"):
        with open(js) as f:
            doc = json.load(f)
        check(fingerprint(doc) == fingerprint(ref.doc) and
              len(doc.get("mpi", {}).get("per_rank", [])) == 2,
              "mpirun -np 2: histograms bitwise the single process's")


def one_hypercube(exe, fake):
    """In 20 dimensions there is one hypercube, spanning every tile: its
    cells are merged across all tiles and groups before they are folded."""
    src = write_source("hd_hist", "integrand g(x in [0, 1]^20) {\n"
                       "    hist one(x[0], 0, 1, 3)\n"
                       "    return 2 * x[0]\n}\n")
    base = ["-q", "--seed", 4, "--calls", 100000, "--iterations", 3,
            "--warmup", 1]
    ref = vegasc(exe, [src, "--devices", "cpu:1"] + base)
    if not check(ref.rc == 0 and ref.doc, "20-D reference run"):
        print(ref)
        return
    h = ref.doc["histograms"][0]
    exact = [1 / 9, 3 / 9, 5 / 9]
    check(all(abs(v - x) <= 5 * e
              for v, e, x in zip(h["values"], h["errors"], exact)),
          f"20-D: the bins {h['values']} within 5 sigma of {exact}")
    check(abs(total(h) - ref.doc["result"]["mean"]) <= 1e-13,
          "20-D: the bins add up to the integral")
    with_env(VF_CUDA_LIBRARY=fake, VF_FAKE_CUDA_DEVICES=1)
    for devices in ("cpu:3", "cpu:1,gpu:0"):
        r = vegasc(exe, [src, "--devices", devices] + base)
        check(r.rc == 0 and r.doc and fingerprint(r.doc) ==
              fingerprint(ref.doc), f"20-D --devices {devices}: bitwise")
    with_env(VF_CUDA_LIBRARY="/nonexistent/libcuda.so.1",
             VF_FAKE_CUDA_DEVICES=None)


def outputs(exe):
    """--hist-csv has every cell of the JSON, bit for bit; the table has a
    summary line per histogram; --json - with --hist-csv - is refused."""
    import csv
    src = write_source("ee_hist_csv", SOURCE)
    path = os.path.join(workdir(), "hists.csv")
    r = vegasc(exe, [src, "--calls", 20000, "--iterations", 2, "--warmup", 1,
                     "--hist-csv", path])
    if not check(r.rc == 0 and r.doc and os.path.exists(path),
                 "--hist-csv writes the file"):
        print(r)
        return
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    want = []
    for h in r.doc["histograms"]:
        two = len(h["axes"]) == 2
        for i, v in enumerate(flat(h["values"])):
            cell = f"{i // 2},{i % 2}" if two else str(i)
            want.append((h["name"], cell, v, flat(h["errors"])[i]))
        for k in ("underflow", "overflow", "outside"):
            if k in h:
                want.append((h["name"], k, h[k]["value"], h[k]["error"]))
    got = [(x["histogram"], x["cell"], float(x["value"]), float(x["error"]))
           for x in rows]
    check(got == want, f"--hist-csv: {len(got)} rows, the JSON's cells bit "
                       f"for bit")
    check(rows[0]["x_lo"] == "-0.8" and rows[0]["y_lo"] == ""
          and rows[8]["cell"] == "underflow",
          "--hist-csv: the edges of each bin, empty y edges in 1-D")
    # Each edge is the JSON's (the binning's own) in its shortest text that
    # reads back as it: no %.17g noise (-0.80000000000000004) where the
    # edge is the double nearest a short decimal.
    texts = []
    for h in r.doc["histograms"]:
        ax = h["axes"]
        n = ax[1]["bins"] if len(ax) == 2 else 1
        for i in range(ax[0]["bins"] * n):
            e = [ax[0]["edges"][i // n], ax[0]["edges"][i // n + 1]]
            if len(ax) == 2:
                e += [ax[1]["edges"][i % n], ax[1]["edges"][i % n + 1]]
            # Python's repr is the shortest round trip too, with ".0" on
            # whole numbers.
            texts.append([repr(float(x)).removesuffix(".0") for x in e])
    got = [[x[k] for k in ("x_lo", "x_hi", "y_lo", "y_hi") if x[k]]
           for x in rows if x["x_lo"]]
    check(got == texts, "--hist-csv: every edge is the JSON's, in its "
                        "shortest round-trip text")
    check("hist costheta: 8 bins on [-0.8, 0.8), sum " in r.out and
          "hist map2: 3 bins on [-1, 1) x 2 bins on [0.3, 0.7)" in r.out and
          ", outside " in r.out,
          "the table ends with a summary line per histogram")
    bad = write_source("hist_param", "param top = 1\n"
                       "integrand f(x in [0, 1]) {\n"
                       "    hist h(x, 0, top, 4)\n"
                       "    return x\n}\n")
    r = vegasc(exe, [bad, "--param", "top=0", "--calls", 10000], json_out=False)
    check(r.rc == 1 and "hist_param.vf:3:5: the range [0, 0] of histogram "
          "'h' is empty or not finite" in r.err,
          "a parameter that empties a histogram's range is an error at the "
          "statement")
    r = vegasc(exe, [src, "--json", "-", "--hist-csv", "-"], json_out=False)
    check(r.rc == 2 and "cannot both write to standard output" in r.err,
          "--json - with --hist-csv - is a usage error")


def honesty(exe):
    src = write_source("ee_hist_honesty", SOURCE)
    edges = [LO + (HI - LO) * i / BINS for i in range(BINS + 1)]
    want = [exact(edges[i], edges[i + 1]) for i in range(BINS)]
    want += [exact(-1, LO), exact(HI, 1)]
    names = [f"bin {i}" for i in range(BINS)] + ["underflow", "overflow"]
    pulls = [[] for _ in want]
    sums_ok = True
    for seed in range(1, 31):
        r = vegasc(exe, [src, "-q", "--seed", seed, "--calls", 20000,
                         "--iterations", 4, "--warmup", 2])
        if not check(r.rc == 0 and r.doc, f"seed {seed} runs"):
            print(r)
            return
        h = r.doc["histograms"][0]
        got = h["values"] + [h["underflow"]["value"], h["overflow"]["value"]]
        err = h["errors"] + [h["underflow"]["error"], h["overflow"]["error"]]
        for k in range(len(want)):
            pulls[k].append((got[k] - want[k]) / err[k])
        mean = r.doc["result"]["mean"]
        sums_ok &= abs(total(h) - mean) <= 1e-13 * abs(mean)
    check(sums_ok, "for every seed the bins and flows add up to the integral")
    for name, p in zip(names, pulls):
        m, sd = statistics.fmean(p), statistics.stdev(p)
        check(abs(m) <= 0.5 and 0.7 <= sd <= 1.3,
              f"{name}: pulls over 30 seeds have mean {m:+.2f} (within "
              f"+-0.5) and standard deviation {sd:.2f} (in [0.7, 1.3])")


def decimal_edges(exe):
    """Edges of a range written in short decimals are the doubles nearest
    the decimal edges, in the binning as in the output, for constant ends
    and for parameters alike (the compiled code computes the decimal scale
    from the parameters' values): -0.6 is edge 1 of [-0.8, 0.8] in 8, so
    the double just below it is in bin 0 (lo + (hi - lo) i / n put the edge
    at that double, and it in bin 1), and -0.6 itself in bin 1."""
    below = repr(math.nextafter(-0.6, -1))
    src = write_source("decimal_edges",
                       "param lo = -0.8\nparam hi = 0.8\n"
                       "integrand f(x in [0, 1]) {\n"
                       f"    hist fixed({below}, -0.8, 0.8, 8)\n"
                       f"    hist byparam({below}, lo, hi, 8)\n"
                       "    hist at(-0.6, lo, hi, 8)\n"
                       "    return 1 + x\n}\n")
    r = vegasc(exe, [src, "-q", "--calls", 2000, "--iterations", 2])
    if not check(r.rc == 0 and r.doc, "decimal edges: the run"):
        print(r)
        return
    hs = {h["name"]: h for h in r.doc["histograms"]}
    for name, want in (("fixed", 0), ("byparam", 0), ("at", 1)):
        h = hs[name]
        vals = h["values"]
        check(h["axes"][0]["edges"][1] == -0.6 and vals[want] > 0 and
              all(v == 0 for k, v in enumerate(vals) if k != want),
              f"decimal edges: '{name}' edge 1 is -0.6, its value in bin "
              f"{want} alone")


def main():
    exe, fake = sys.argv[1:3]
    mpiexec = sys.argv[3] if len(sys.argv) > 3 else None
    bitwise(exe, fake, mpiexec)
    one_hypercube(exe, fake)
    outputs(exe)
    honesty(exe)
    decimal_edges(exe)
    finish()


if __name__ == "__main__":
    main()
