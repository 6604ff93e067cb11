#!/usr/bin/env python3
"""Parton densities on every device, against the fake driver.

    pdfgpu.py VEGASC LIBFAKECUDA

An integrand with xfx and alphas of two members (tests/testdata/pdf's
test set, found by name in LHAPDF_DATA_PATH): 1 and 3 CPU threads, fake
GPUs alone and beside a CPU thread give bitwise the same result; each GPU
gets the members once, where it loads the module, and a driver that cannot
find the module's table global is an error naming the GPU. A program with
a pdf it never calls runs on a GPU as well (its module has the global).
"""
import os
import sys

from vftest import check, finish, vegasc, with_env, write_source

SETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                    "testdata", "pdf")
DRELL_YAN_LIKE = (
    'pdf p = "VFToyLO"\n'
    'pdf q = "VFToyLO" member 1\n'
    "param mu = 91.1876\n"
    "integrand dy(x in [0.001, 1]^2) {\n"
    "    let lum = xfx(p, 2, x[0], mu * (1 + x[1])) * xfx(q, -2, x[1], mu, 0)\n"
    "    return lum * alphas(p, mu * x[0] + 2) / (x[0] * x[1])\n"
    "}\n")


def fingerprint(doc):
    res = doc["result"]
    return (res["mean"], res["error"],
            [(it["mean"], it["error"], it["samples"])
             for it in doc["iterations"]])


def devices(exe, fake):
    src = write_source("dy_pdf", DRELL_YAN_LIKE)
    base = [src, "-q", "--seed", 11, "--calls", 40000, "--iterations", 2,
            "--warmup", 2]
    with_env(LHAPDF_DATA_PATH=SETS, VF_CUDA_LIBRARY="/nonexistent/libcuda.so.1")
    ref = vegasc(exe, base + ["--devices", "cpu:1"])
    check(ref.rc == 0 and ref.doc is not None, "the CPU reference runs")
    if ref.doc is None:
        print(ref)
        return
    three = vegasc(exe, base + ["--devices", "cpu:3"])
    check(three.rc == 0 and fingerprint(three.doc) == fingerprint(ref.doc),
          "3 CPU threads: bitwise the 1-thread result")
    with_env(VF_CUDA_LIBRARY=fake, VF_FAKE_CUDA_DEVICES=2)
    for devs in ("gpu", "cpu:1,gpu:0"):
        r = vegasc(exe, base + ["--devices", devs])
        ok = check(r.rc == 0 and r.doc is not None and
                   fingerprint(r.doc) == fingerprint(ref.doc),
                   f"--devices {devs}: bitwise the CPU's result")
        if not ok:
            print(r)
            continue
        gpus = [d for d in r.doc["devices"] if d["kind"] == "gpu"]
        check(gpus and all(d["samples"] > 0 and not d["failed"] for d in gpus),
              f"--devices {devs}: every GPU ran samples")
    unused = write_source("unused_pdf", 'pdf p = "VFToyLO"\n'
                          "integrand f(x in [0, 1]) = x\n")
    r = vegasc(exe, [unused, "-q", "--calls", 4000, "--devices", "gpu"])
    check(r.rc == 0 and r.doc is not None,
          "a pdf no code calls: the GPU finds the global all the same")
    with_env(VF_FAKE_CUDA_DEVICES=1, VF_FAKE_CUDA_FAIL_GLOBAL=1)
    r = vegasc(exe, base + ["--devices", "gpu"], json_out=False)
    with_env(VF_FAKE_CUDA_FAIL_GLOBAL=None)
    check(r.rc != 0 and "gpu:0: copying the parton densities" in r.err and
          "cuModuleGetGlobal_v2" in r.err,
          "a table global the driver cannot find: an error naming the GPU "
          "and the driver call")


if __name__ == "__main__":
    devices(sys.argv[1], os.path.abspath(sys.argv[2]))
    finish()
