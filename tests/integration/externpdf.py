#!/usr/bin/env python3
"""A pdf argument of an extern C/C++ function (vf_pdf, vf_xfx, vf_alphas).

    externpdf.py VEGASC LIBFAKECUDA

tests/testdata/pdfextern/lum.vf writes one luminosity in .vf with xfx and
alphas and passes its pdf to the same luminosity in C++ (lum.cpp) and, with
the gluon pair, in C (lum.c): at 500 points of the unit square the C and
C++ values are the .vf values' bits (vegasc --eval prints every bit); the
integrals agree within 5 sigma; a C++ and a C integrand give bitwise the
same result on 1 and 3 CPU threads and on fake GPUs alone and beside a
CPU thread, whose modules read the handle's block from the same global as
the .vf calls.
"""
import os
import random
import sys

from vftest import check, finish, vegasc, with_env

HERE = os.path.dirname(os.path.abspath(__file__))
SETS = os.path.join(HERE, "..", "testdata", "pdf")
LUM = os.path.join(HERE, "..", "testdata", "pdfextern", "lum.vf")
NO_CLANG = "built without C and C++ integrands"


def pointwise(exe):
    rng = random.Random(39)
    worst = []
    for _ in range(500):
        at = f"{rng.uniform(0.001, 1):.17g},{rng.uniform(0.001, 1):.17g}"
        r = vegasc(exe, ["--eval", LUM, "--integrand", "all_forms", "--at",
                         at], json_out=False)
        vals = r.out.split()
        if r.rc != 0 or len(vals) != 4:
            check(False, f"--eval at {at} prints four values")
            print(r)
            return
        if vals[0] != vals[1] or vals[2] != vals[3]:
            worst.append((at, vals))
    check(not worst, "C++ and C through vf_pdf: the .vf values' bits at 500 "
          f"points ({len(worst)} differ{', first ' + str(worst[0]) if worst else ''})")


def fingerprint(doc):
    res = doc["result"]
    return (res["mean"], res["error"],
            [(it["mean"], it["error"], it["samples"])
             for it in doc["iterations"]])


def run(exe, integrand, devices):
    r = vegasc(exe, [LUM, "--integrand", integrand, "-q", "--seed", 5,
                     "--calls", 40000, "--iterations", 3, "--warmup", 2,
                     "--devices", devices])
    if not check(r.rc == 0 and r.doc is not None,
                 f"{integrand} on {devices} runs"):
        print(r)
        return None
    return r.doc


def integrals(exe):
    for ref, ext in (("vf_form", "cpp_form"), ("vf_gluon", "c_form")):
        a, b = run(exe, ref, "cpu:1"), run(exe, ext, "cpu:1")
        if not a or not b:
            continue
        ra, rb = a["result"], b["result"]
        sigma = (ra["error"] ** 2 + rb["error"] ** 2) ** 0.5
        check(abs(ra["mean"] - rb["mean"]) <= 5 * sigma,
              f"{ext} = {rb['mean']} within 5 sigma of {ref} = {ra['mean']}")


def devices(exe, fake):
    for integrand in ("cpp_form", "c_form"):
        with_env(VF_CUDA_LIBRARY="/nonexistent/libcuda.so.1",
                 VF_FAKE_CUDA_DEVICES=None)
        ref = run(exe, integrand, "cpu:1")
        if ref is None:
            continue
        three = run(exe, integrand, "cpu:3")
        check(three is not None and fingerprint(three) == fingerprint(ref),
              f"{integrand}, 3 CPU threads: bitwise the 1-thread result")
        with_env(VF_CUDA_LIBRARY=fake, VF_FAKE_CUDA_DEVICES=2)
        for devs in ("gpu", "cpu:1,gpu:0"):
            r = run(exe, integrand, devs)
            check(r is not None and fingerprint(r) == fingerprint(ref),
                  f"{integrand}, --devices {devs}: bitwise the CPU's result")


if __name__ == "__main__":
    exe = sys.argv[1]
    with_env(LHAPDF_DATA_PATH=SETS)
    probe = vegasc(exe, ["--check", LUM], json_out=False)
    if NO_CLANG in probe.err:
        print("skipped: " + NO_CLANG)
        sys.exit(0)
    pointwise(exe)
    integrals(exe)
    devices(exe, os.path.abspath(sys.argv[2]))
    finish()
