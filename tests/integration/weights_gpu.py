#!/usr/bin/env python3
"""Weight lists and GPUs, against the fake driver.

    weights_gpu.py VEGASC LIBFAKECUDA

The GPU sampler accumulates weight lists of any length the language
allows (each lane's values in the tile's scratch in global memory): on
fake GPUs, alone or beside a CPU thread, the lists, ratios, histograms
and integral are bitwise those of one CPU thread, for two lists of 7 and
3 entries, for 30 entries beside two histograms (more than a thread's
32 values) and for 1024 entries, the limit.
"""
import sys

from vftest import check, finish, vegasc, with_env, write_source

BODY = ("    let f = x[0] * x[1] + 1\n"
        "{lists}"
        "    return f\n")
LISTS = ("    weights scales(k in 0..7: f * (1 + k / 10))\n"
         "    weights more(k in 0..3: f * (1 + k * (x[0] - 0.5)))\n")
HISTS = ("    hist h1(x[0], 0, 1, 4)\n"
         "    hist h2(x[1], 0, 1, 3)\n")


def source(name, lists):
    return write_source(name, "integrand f(x in [0, 1]^2) {\n" +
                        BODY.format(lists=lists) + "}\n")


def fingerprint(doc):
    res = doc["result"]
    return (res["mean"], res["error"], doc.get("weight_lists"),
            doc.get("histograms"),
            [(it["mean"], it["error"]) for it in doc["iterations"]])


def bitwise(exe, src, base, what):
    ref = vegasc(exe, [src] + base + ["--devices", "cpu:1"])
    if not check(ref.rc == 0 and ref.doc and ref.doc.get("weight_lists"),
                 f"{what}: one CPU thread"):
        print(ref)
        return
    for devs in ("gpu", "cpu:1,gpu:0"):
        r = vegasc(exe, [src] + base + ["--devices", devs])
        ok = r.rc == 0 and r.doc and fingerprint(r.doc) == fingerprint(
            ref.doc)
        if not check(ok, f"{what}, --devices {devs}: bitwise one thread"):
            print(r)


def main(exe, fake):
    base = ["-q", "--seed", 5, "--calls", 6000, "--iterations", 2,
            "--warmup", 1]
    with_env(VF_CUDA_LIBRARY=fake, VF_FAKE_CUDA_DEVICES=2)
    bitwise(exe, source("with_lists", LISTS), base, "lists of 7 and 3")
    full = HISTS + "    weights w(k in 0..29: f * (1 + k / 29))\n"
    bitwise(exe, source("full", full), base, "29 entries, 2 histograms")
    over = HISTS + "    weights w(k in 0..30: f * (1 + k / 30))\n"
    bitwise(exe, source("over", over), base, "30 entries, 2 histograms")
    most = HISTS + ("    weights w(k in 0..1000: f * (1 + k / 1000))\n"
                    "    weights v(k in 0..24: f * (1 + k * (x[0] - 0.5)))\n")
    bitwise(exe, source("most", most), base, "1024 entries, 2 histograms")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
    finish()
