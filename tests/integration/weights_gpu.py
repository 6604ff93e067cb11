#!/usr/bin/env python3
"""Weight lists and GPUs, against the fake driver.

    weights_gpu.py VEGASC LIBFAKECUDA

The GPU sampler does not accumulate weight lists yet: a run of an
integrand with lists on fake GPUs, alone or beside a CPU thread, is an
error naming the integrand and its first list, not a result without
them. CPU threads run it, bitwise the same integral as the integrand
without its lists (the lists leave the samples alone), and an integrand
without lists still runs on the fake GPUs.
"""
import sys

from vftest import check, expect, finish, vegasc, with_env, write_source

BODY = ("    let f = x[0] * x[1] + 1\n"
        "{lists}"
        "    return f\n")
LISTS = ("    weights scales(k in 0..7: f * (1 + k / 10))\n"
         "    weights more(k in 0..3: f * k)\n")


def source(name, lists):
    return write_source(name, "integrand f(x in [0, 1]^2) {\n" +
                        BODY.format(lists=lists) + "}\n")


def fingerprint(doc):
    res = doc["result"]
    return (res["mean"], res["error"],
            [(it["mean"], it["error"]) for it in doc["iterations"]])


def main(exe, fake):
    with_lists, plain = source("with_lists", LISTS), source("plain", "")
    base = ["-q", "--seed", 5, "--calls", 20000, "--iterations", 2,
            "--warmup", 1]
    with_env(VF_CUDA_LIBRARY=fake, VF_FAKE_CUDA_DEVICES=2)
    for devs in ("gpu", "cpu:1,gpu:0"):
        expect(exe, [with_lists] + base + ["--devices", devs], 1,
               f"lists on --devices {devs}",
               r"integrand 'f' has the weight list 'scales'",
               r"does not accumulate",
               r"--devices cpu")
    ref = vegasc(exe, [plain] + base + ["--devices", "cpu:1"])
    gpu = vegasc(exe, [plain] + base + ["--devices", "gpu"])
    cpu = vegasc(exe, [with_lists] + base + ["--devices", "cpu:3"])
    ran = [r for r in (ref, gpu, cpu) if r.rc == 0 and r.doc is not None]
    if not check(len(ran) == 3, "the CPU runs and the GPU run without lists"):
        for r in (ref, gpu, cpu):
            print(r)
        return
    check(fingerprint(gpu.doc) == fingerprint(ref.doc),
          "without lists, fake GPUs: bitwise the CPU's result")
    check(fingerprint(cpu.doc) == fingerprint(ref.doc),
          "with lists, 3 CPU threads: bitwise the integrand without them")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
    finish()
