#!/usr/bin/env python3
#===- tests/integration/gpuproof.py - The GPU kernel is bitwise the CPU's -===#
#
# Usage: gpuproof.py VEGASC KNOWN_INTEGRALS.toml LIBFAKECUDA
#
# Every known integral (moments3 included), on a small budget, through the
# fake driver: the GPU kernel's own code under warp emulation, on
# asynchronous streams, alone and mixed with CPU threads and simulated
# devices, under every schedule policy, several chunk sizes, block sizes
# and grids, slots small enough that chunks span both, and jitter seeds;
# each run must give bitwise the CPU's result (every iteration, the
# covariance) with no device failed. The configurations rotate over the
# integrals, so each integral meets two of them and each configuration
# several integrals.
#
#===----------------------------------------------------------------------===#
import os
import sys

from vftest import check, finish, load_known, vegasc, write_source

BUDGET = ["-q", "--seed", 3, "--calls", 6000, "--iterations", 2,
          "--warmup", 1]

CONFIGS = [
    ("gpu", "adaptive", {}),
    ("cpu:1,gpu", "guided", {"VF_FAKE_CUDA_BLOCK": 32}),
    ("gpu:0,sim:3", "static", {"VF_FAKE_CUDA_BLOCK": 256,
                               "VF_FAKE_CUDA_MIN_GRID": 1}),
    ("all", "dynamic:3", {"VF_FAKE_CUDA_JITTER": 5}),
    ("cpu:1,gpu:1", "adaptive", {"VF_FAKE_CUDA_MEMORY_MB": 1,
                                 "VF_FAKE_CUDA_JITTER": 9}),
    ("gpu", "dynamic:1", {"VF_FAKE_CUDA_BLOCK": 64}),
    ("gpu:1,cpu:1,sim:2", "dynamic:2", {"VF_FAKE_CUDA_MEMORY_MB": 1}),
]


def fingerprint(doc):
    res = doc["result"]
    return (res["mean"], res["error"], res.get("covariance"),
            [(it["mean"], it["error"], it["samples"]) for it in doc["iterations"]])


def main():
    exe, toml_path, fake = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
    known = load_known(toml_path)
    k = 0
    mixed_gpu_samples = 0
    for name, entry in known.items():
        src = write_source(name + "_gpuproof", entry["source"])
        os.environ["VF_CUDA_LIBRARY"] = "/nonexistent/libcuda.so.1"
        ref = vegasc(exe, [src, "--devices", "cpu:1"] + BUDGET)
        if not check(ref.rc == 0 and ref.doc, f"{name}: CPU reference"):
            print(ref)
            continue
        os.environ.update(VF_CUDA_LIBRARY=fake, VF_FAKE_CUDA_DEVICES="2")
        for _ in range(2):
            devices, schedule, env = CONFIGS[k % len(CONFIGS)]
            k += 1
            os.environ.update({key: str(v) for key, v in env.items()})
            r = vegasc(exe, [src, "--devices", devices, "--schedule", schedule]
                       + BUDGET)
            for key in env:
                del os.environ[key]
            what = f"{name}: --devices {devices} --schedule {schedule} {env}"
            if not check(r.rc == 0 and r.doc, f"{what}: runs"):
                print(r)
                continue
            gpus = [d for d in r.doc["devices"] if d["kind"] == "gpu"]
            check(fingerprint(r.doc) == fingerprint(ref.doc)
                  and not any(d["failed"] for d in r.doc["devices"]),
                  f"{what}: bitwise the CPU's result, no device failed")
            samples = sum(d["samples"] for d in gpus)
            if {d["kind"] for d in r.doc["devices"]} == {"gpu"}:
                check(samples == r.doc["result"]["evaluations"],
                      f"{what}: the GPUs ran every sample")
            else:
                mixed_gpu_samples += samples
    check(mixed_gpu_samples > 0,
          f"the GPUs ran samples in the mixed runs too ({mixed_gpu_samples})")
    finish()


if __name__ == "__main__":
    main()
