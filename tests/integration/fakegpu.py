#!/usr/bin/env python3
"""The CUDA backend's host logic against the fake driver (tests/fakecuda).

    fakegpu.py VEGASC LIBFAKECUDA

The fake driver runs each launch through the GPU kernel's own code under
warp emulation (tests/fakecuda/WarpEmulator.h), so the kernel and
everything around it are real: discovery, PTX loading, device buffers, the
two-slot pipeline, copy-back, commit in tile order, failure and requeue.
Emulated lanes are slow (a few microseconds per sample), so the budgets
are small but still span several launches, slots and groups.

1. Same seed -> bitwise the same result for fake GPUs alone, with CPU
   threads, with simulated devices, under every policy, for a scalar and a
   vector-valued integrand.
   A complex-valued integrand (LANGUAGE.md v3, arrays of complex values
   too) as well, also on 2 and 3 CPU threads.
2. A launch failing on one GPU mid-run: same answer, the failure reported
   (JSON `failed`/`error`, a warning naming the driver call); every device
   failing: a clear error, exit 1.
3. No driver: `--devices gpu` fails naming why; `--devices all` runs on the
   CPU with a note. Bad GPU lists are usage errors; a missing index is an
   input error naming the GPUs there are.
"""
import os
import sys

from vftest import check, finish, vegasc, with_env, workdir, write_source

LEPAGE = ("param a = 0.1\n"
          "integrand f(x in [0, 1]^4) = prod(i in 0..4: "
          "exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))\n")
MOMENTS = ("integrand m(x in [0, 1]^3) -> [3] = "
           "[exp(-8 * ((x[0] - 0.4)^2 + (x[1] - 0.6)^2 + x[2]^2)), "
           "x[0] * exp(-8 * ((x[0] - 0.4)^2 + x[1]^2)), x[1]^2 + x[2]]\n")

# Every slow path of the math library on a share of the samples: exp's for
# x0 > 0.708, log's for x1 < 0.022 (subnormal), sin's, cos's for x2 > 0.54
# and tan's for x0 > 0.36 (|argument| >= 2^30).
SLOW_PATHS = ("integrand s(x in [0, 1]^3) = exp(-1000 * x[0]) + "
              "0.001 * log(x[1] * 1e-306) + sin(2e9 * x[2]) + "
              "cos(2e9 * x[2]) + 0.001 * tan(3e9 * x[0])\n")

# Complex values: Smith's division, exp, sqrt and an integer power, and
# arrays of them ('+ - * /' with real arrays and scalars mixed in, a
# slice), lowered to pairs of doubles on both targets.
PHASES = " + ".join(f"exp(complex(0, {6 * k} * x[0]))" for k in range(1, 5))
COMPLEX = ("integrand c(x in [0, 1]^2) {\n"
           "  let z = complex(x[0] - 0.5, x[1])\n"
           f"  let w = {PHASES}\n"
           "  let a = [z, w, z * w]\n"
           "  let b = (a + [x[0], x[1], 1]) / (z + 2) - a * x[1]\n"
           "  let c = b[1..3] * w - x * z\n"
           "  return norm(w) + re(sqrt(z) / (z + 1)) + abs(z^3) + arg(z) +\n"
           "         norm(c[0]) + im(c[1])\n"
           "}\n")


def fingerprint(doc):
    res = doc["result"]
    return (res["mean"], res["error"], res.get("covariance"),
            res["max_share"], res.get("largest_weight_at"),
            [(it["mean"], it["error"], it["samples"], it["max_share"])
             for it in doc["iterations"]])


def determinism(exe, name, text):
    src = write_source(name, text)
    base = ["-q", "--seed", 11, "--calls", 60000, "--iterations", 2,
            "--warmup", 2]
    with_env(VF_CUDA_LIBRARY="/nonexistent/libcuda.so.1")
    ref = vegasc(exe, [src, "--devices", "cpu:1"] + base)
    check(ref.rc == 0 and ref.doc, f"{name}: CPU reference")
    with_env(VF_CUDA_LIBRARY=FAKE, VF_FAKE_CUDA_DEVICES=2)
    gpu_samples = 0
    for devices, schedule in (("gpu:0", "adaptive"), ("gpu", "static"),
                              ("cpu:1,gpu", "adaptive"),
                              ("gpu:1,cpu:2", "guided"),
                              ("all", "dynamic:3"),
                              ("cpu:1,gpu:0,sim:5", "adaptive")):
        r = vegasc(exe, [src, "--devices", devices, "--schedule", schedule]
                   + base)
        ok = check(r.rc == 0 and r.doc is not None and
                   fingerprint(r.doc) == fingerprint(ref.doc),
                   f"{name}: --devices {devices} --schedule {schedule}: "
                   f"bitwise the CPU's result")
        if not ok:
            print(r)
            continue
        gpus = [d for d in r.doc["devices"] if d["kind"] == "gpu"]
        check(gpus and all(not d["failed"] for d in r.doc["devices"]),
              f"{name}: --devices {devices}: GPUs {[d['name'] for d in gpus]} "
              f"listed, none failed")
        gpu_samples += sum(d["samples"] for d in gpus)
        if "cpu" not in devices and devices != "all":
            check(sum(d["samples"] for d in gpus) == r.doc["result"]["evaluations"],
                  f"{name}: --devices {devices}: the GPUs evaluated every sample")
    check(gpu_samples > 0, f"{name}: the fake GPUs ran samples ({gpu_samples})")
    # Whole groups of tiles are folded on the device, the rest on the host.
    with_env(VF_FAKE_CUDA_TRACE=1)
    r = vegasc(exe, [src, "--devices", "gpu:0"] + base)
    with_env(VF_FAKE_CUDA_TRACE=None)
    check(r.rc == 0 and fingerprint(r.doc) == fingerprint(ref.doc) and
          "launch vf_fold_groups_gpu" in r.err and
          "launch vf_sample_tiles_gpu_" in r.err and
          "(emulated)" in r.err and "block 128 (emulated)" in r.err,
          f"{name}: the training histograms are folded on the device by the "
          f"emulated GPU kernels, and the result is still the CPU's")
    # Other launch geometries (the occupancy query's block size) and the
    # host-kernel shortcut give the same bits.
    for env in ({"VF_FAKE_CUDA_BLOCK": 32}, {"VF_FAKE_CUDA_BLOCK": 256,
                                             "VF_FAKE_CUDA_MIN_GRID": 1},
                {"VF_FAKE_CUDA_KERNELS": "host"}):
        with_env(**env)
        r = vegasc(exe, [src, "--devices", "gpu"] + base)
        with_env(**{k: None for k in env})
        check(r.rc == 0 and fingerprint(r.doc) == fingerprint(ref.doc),
              f"{name}: {env}: bitwise the CPU's result")


def dimensions(exe):
    """The GPU kernel keeps each lane's hypercube coordinates and map
    increments in local arrays of 32 words up to d = 32 and of the largest
    dimension beyond (GpuSampler.c): d = 12 (several strata per axis, so
    the coordinates step) and d = 40 (one hypercube, 40 training axes) on
    the fake GPU give the CPU's bits."""
    for dim, calls in ((12, 40000), (40, 3000)):
        src = write_source(f"wide{dim}", f"integrand w(x in [0, 1]^{dim}) = "
                           f"prod(i in 0..{dim}: 0.5 + x[i])\n")
        base = ["-q", "--seed", 7, "--calls", calls, "--iterations", 2]
        with_env(VF_CUDA_LIBRARY="/nonexistent/libcuda.so.1")
        ref = vegasc(exe, [src, "--devices", "cpu:1"] + base)
        with_env(VF_CUDA_LIBRARY=FAKE, VF_FAKE_CUDA_DEVICES=1)
        r = vegasc(exe, [src, "--devices", "gpu"] + base)
        check(ref.rc == 0 and r.rc == 0 and
              fingerprint(r.doc) == fingerprint(ref.doc) and
              r.doc["devices"][0]["kind"] == "gpu",
              f"d = {dim}: the fake GPU's result is bitwise the CPU's")


def slow_paths(exe):
    """The GPU kernel evaluates the integrand on its math functions' fast
    paths and again, exactly and out of line, for a sample where one of
    them needed its slow path (compiler/bitcode/FastIntegrand.h). Here some
    samples take each of exp's, log's, sin's, cos's and tan's: a slow path
    that failed to raise the flag would put the fast copy's stand-in value
    into the sums, and the bits would differ from the CPU's."""
    src = write_source("slow_paths", SLOW_PATHS)
    ptx = vegasc(exe, [src, "--emit=ptx"], json_out=False)
    check(ptx.rc == 0 and ".func vf_integrand_s_$_exact(" in ptx.out,
          "slow paths: the PTX has the out-of-line exact integrand")
    base = ["-q", "--seed", 9, "--calls", 20000, "--iterations", 2]
    with_env(VF_CUDA_LIBRARY="/nonexistent/libcuda.so.1")
    ref = vegasc(exe, [src, "--devices", "cpu:1"] + base)
    with_env(VF_CUDA_LIBRARY=FAKE, VF_FAKE_CUDA_DEVICES=1)
    r = vegasc(exe, [src, "--devices", "gpu"] + base)
    check(ref.rc == 0 and r.rc == 0 and
          fingerprint(r.doc) == fingerprint(ref.doc),
          "slow paths: the fake GPU's result is bitwise the CPU's")


def faults(exe):
    """A deliberately wrong GPU kernel (the emulator injects the bug) must
    not pass: a shuffle reading the next lane, or match.any finding every
    lane alone (lanes sharing a training bin then each add to it, and all
    but one update is lost), changes the bits. The kernel's warp syncs
    order the training pairs' memory between blocks on hardware; in the
    emulator the lanes also meet at every shuffle, so dropping them is not
    visible here (WarpEmulatorTest shows the emulator catches a kernel
    that relies on them)."""
    src = write_source("lepage4_faults", LEPAGE)
    base = ["-q", "--seed", 5, "--calls", 30000, "--iterations", 3]
    with_env(VF_CUDA_LIBRARY="/nonexistent/libcuda.so.1")
    ref = vegasc(exe, [src, "--devices", "cpu:1"] + base)
    with_env(VF_CUDA_LIBRARY=FAKE, VF_FAKE_CUDA_DEVICES=1)
    r = vegasc(exe, [src, "--devices", "gpu"] + base)
    check(r.rc == 0 and fingerprint(r.doc) == fingerprint(ref.doc),
          "faults: without an injected bug, bitwise the CPU's result")
    for fault in ("match-any-alone", "shfl-off-by-one"):
        with_env(VF_FAKE_CUDA_FAULT=fault)
        r = vegasc(exe, [src, "--devices", "gpu"] + base)
        with_env(VF_FAKE_CUDA_FAULT=None)
        check(r.rc != 0 or fingerprint(r.doc) != fingerprint(ref.doc),
              f"a GPU kernel with the injected bug {fault} is caught")


def races(exe):
    """The iteration's uploads against the kernels, under the asynchronous
    fake driver: with slots small enough (a 1 MiB fake GPU) that a chunk
    spans both slots and streams, and a seeded random delay on every
    stream operation, the result is bitwise the CPU's and the fake's race
    detector finds nothing (the old NULL-stream uploads fail here, see
    FakeDriverTest)."""
    src = write_source("lepage4_race", LEPAGE)
    base = ["-q", "--seed", 5, "--calls", 30000, "--iterations", 2,
            "--warmup", 1]
    with_env(VF_CUDA_LIBRARY="/nonexistent/libcuda.so.1")
    ref = vegasc(exe, [src, "--devices", "cpu:1"] + base)
    with_env(VF_CUDA_LIBRARY=FAKE, VF_FAKE_CUDA_DEVICES=2,
             VF_FAKE_CUDA_MEMORY_MB=1)
    for seed in range(1, 9):
        devices = "gpu" if seed % 2 else "cpu:1,gpu:1"
        with_env(VF_FAKE_CUDA_JITTER=seed)
        r = vegasc(exe, [src, "--devices", devices, "--schedule",
                         "dynamic:8"] + base)
        check(r.rc == 0 and fingerprint(r.doc) == fingerprint(ref.doc)
              and "race" not in r.err,
              f"jitter seed {seed}, --devices {devices}: no race, bitwise "
              f"the CPU's result ({r.err.strip()[-300:]})")
    with_env(VF_FAKE_CUDA_JITTER=None, VF_FAKE_CUDA_MEMORY_MB=None)


def failures(exe):
    src = write_source("lepage4_fail", LEPAGE)
    base = ["-q", "--seed", 4, "--calls", 60000, "--iterations", 3,
            "--warmup", 1]
    with_env(VF_CUDA_LIBRARY=FAKE, VF_FAKE_CUDA_DEVICES=2,
             VF_FAKE_CUDA_FAIL_LAUNCH=None)
    ref = vegasc(exe, [src, "--devices", "gpu:0,1", "--schedule", "dynamic:2"]
                 + base)
    check(ref.rc == 0 and ref.doc, "two fake GPUs, no failure")
    # With a CPU thread the GPU's share is static: emulated lanes are slow,
    # and a dynamic schedule may leave the GPU nothing to launch.
    for devices, k, schedule in (("gpu:0,1", 3, "dynamic:2"),
                                 ("cpu:1,gpu:0", 2, "static"),
                                 ("gpu:0,1", 40, "dynamic:2")):
        with_env(VF_FAKE_CUDA_FAIL_LAUNCH=k)
        r = vegasc(exe, [src, "--devices", devices, "--schedule", schedule]
                   + base)
        what = f"--devices {devices}, launch {k} fails"
        if not check(r.rc == 0 and r.doc, f"{what}: the run completes"):
            print(r)
            continue
        check(fingerprint(r.doc) == fingerprint(ref.doc),
              f"{what}: bitwise the same result")
        failed = [d for d in r.doc["devices"] if d["failed"]]
        check(len(failed) == 1 and "CUDA_ERROR_LAUNCH_FAILED" in failed[0]["error"]
              and "cuLaunchKernel" in failed[0]["error"],
              f"{what}: one device reported failed with the driver's error "
              f"({[d.get('error') for d in failed]})")
        per_it = [d["name"] for it in r.doc["iterations"] for d in it["devices"]
                  if d["failed"]]
        check(per_it == [failed[0]["name"]] if failed else False,
              f"{what}: the iteration it failed in says so ({per_it})")
        check("warning: gpu:" in r.err and "computed by the other devices" in r.err,
              f"{what}: a warning on stderr")
    with_env(VF_FAKE_CUDA_DEVICES=1, VF_FAKE_CUDA_FAIL_LAUNCH=1)
    r = vegasc(exe, [src, "--devices", "gpu"] + base)
    check(r.rc == 1 and "every device failed" in r.err and "gpu:0" in r.err
          and "CUDA_ERROR_LAUNCH_FAILED" in r.err,
          f"the only device fails: exit 1 with the reason (rc {r.rc}: "
          f"{r.err.strip()[-200:]})")
    with_env(VF_FAKE_CUDA_FAIL_LAUNCH=None)


def no_gpu(exe):
    src = write_source("lepage4_nogpu", LEPAGE)
    base = [src, "--calls", 20000, "--iterations", 2]
    with_env(VF_CUDA_LIBRARY="/nonexistent/libcuda.so.1")
    r = vegasc(exe, base + ["--devices", "gpu"])
    check(r.rc == 1 and "no GPU" in r.err and "cannot load the NVIDIA driver" in r.err,
          f"no driver, --devices gpu: exit 1 naming why ({r.err.strip()})")
    r = vegasc(exe, base + ["--devices", "gpu:0"])
    check(r.rc == 1 and "no GPU" in r.err,
          f"no driver, --devices gpu:0: exit 1 ({r.err.strip()})")
    r = vegasc(exe, base + ["--devices", "all"])
    check(r.rc == 0 and "note:" not in r.err,
          "no driver, --devices all: no note without -v")
    r = vegasc(exe, base + ["--devices", "all", "-v"])
    check(r.rc == 0 and r.doc and "note: no GPU" in r.err and
          all(d["kind"] == "cpu" for d in r.doc["devices"]),
          f"no driver, --devices all: runs on the CPU with a note ({r.err.strip()})")
    with_env(VF_CUDA_LIBRARY=FAKE, VF_FAKE_CUDA_DEVICES=2)
    r = vegasc(exe, base + ["--devices", "gpu:0,7"])
    check(r.rc == 1 and "gpu:7: no such GPU; this machine has 2" in r.err,
          f"gpu:7 of 2: exit 1 naming the GPUs there are ({r.err.strip()})")
    for bad in ("gpu:x", "gpu:", "gpu,gpu:1", "gpu:0,-1", "all,gpu"):
        r = vegasc(exe, base + ["--devices", bad])
        check(r.rc == 2 and "--devices" in r.err,
              f"--devices {bad}: usage error ({r.err.strip()})")
    # A GPU that is there but too old is worth a note without -v; the run
    # goes on without it.
    with_env(VF_FAKE_CUDA_MAJOR=6)
    r = vegasc(exe, base + ["--devices", "all"])
    check(r.rc == 0 and "note: gpu:0 (vegasflow fake GPU 0) has compute capability 6.0" in r.err
          and "running without it" in r.err
          and all(d["kind"] == "cpu" for d in r.doc["devices"]),
          f"a GPU too old, --devices all: CPU with a note even without -v ({r.err.strip()})")
    with_env(VF_FAKE_CUDA_MAJOR=None)
    # The driver must know the PTX ISA the kernel is compiled with for the
    # GPU's architecture (runtime/kernels/PtxTargets.h: 7.8 for sm_90,
    # which came with CUDA 11.8); both versions are named.
    with_env(VF_FAKE_CUDA_DRIVER=11040)
    r = vegasc(exe, base + ["--devices", "gpu"])
    check(r.rc == 1 and "the NVIDIA driver supports CUDA 11.4" in r.err
          and "ISA 7.8 for sm_90) needs CUDA 11.8 or newer" in r.err,
          f"a driver older than the PTX ISA: exit 1 naming both versions ({r.err.strip()})")
    r = vegasc(exe, base + ["--devices", "all"])
    check(r.rc == 0 and "needs CUDA 11.8" in r.err
          and all(d["kind"] == "cpu" for d in r.doc["devices"]),
          f"a driver older than the PTX ISA, --devices all: CPU with a note ({r.err.strip()})")
    with_env(VF_FAKE_CUDA_DRIVER=8000)
    r = vegasc(exe, base + ["--devices", "all", "-v"])
    check(r.rc == 0 and "supports CUDA 8.0; vegasflow needs CUDA 9.0 or newer" in r.err,
          f"a driver older than any PTX ISA: no GPU, with the reason ({r.err.strip()})")
    with_env(VF_FAKE_CUDA_DRIVER=None)
    with_env(VF_FAKE_CUDA_FAIL_INIT=1)
    r = vegasc(exe, base + ["--devices", "all", "--verbose"])
    check(r.rc == 0 and "note: no GPU (cuInit failed" in r.err,
          f"driver fails cuInit, --devices all: CPU with a note ({r.err.strip()})")
    with_env(VF_FAKE_CUDA_FAIL_INIT=None)


def batch(exe):
    """A batch's `devices` reaches GPUs as --devices does."""
    src = os.path.join(workdir(), "gpu_batch.toml")
    with open(src, "w") as f:
        f.write("""[defaults]
calls = 20000
iterations = 2
[[run]]
name = "cpu"
source = "integrand f(x in [0, 1]^2) = x[0] * x[1]"
devices = "cpu:1"
[[run]]
name = "gpu"
source = "integrand f(x in [0, 1]^2) = x[0] * x[1]"
devices = "gpu"
[[run]]
name = "all"
source = "integrand f(x in [0, 1]^2) = x[0] * x[1]"
devices = "cpu:1,gpu:1"
""")
    with_env(VF_CUDA_LIBRARY=FAKE, VF_FAKE_CUDA_DEVICES=2,
             VF_FAKE_CUDA_FAIL_LAUNCH=None)
    r = vegasc(exe, [src])
    if not check(r.rc == 0 and r.doc, "a batch with GPU runs"):
        print(r)
        return
    runs = {x["name"]: x for x in r.doc["runs"]}
    check([d["name"] for d in runs["gpu"]["devices"]] == ["gpu:0", "gpu:1"] and
          [d["name"] for d in runs["all"]["devices"]] == ["cpu:0", "gpu:1"],
          "batch `devices` selects the GPUs")
    check(runs["gpu"]["result"] == runs["cpu"]["result"] | {"wall_s": runs["gpu"]["result"]["wall_s"]},
          "batch: the GPU run's result is bitwise the CPU run's")


def threads(exe, name, text):
    """1, 2 and 3 CPU threads: bitwise the same result."""
    src = write_source(name, text)
    with_env(VF_CUDA_LIBRARY="/nonexistent/libcuda.so.1")
    base = ["-q", "--seed", 11, "--calls", 60000, "--iterations", 2,
            "--warmup", 2]
    runs = [vegasc(exe, [src, "--devices", f"cpu:{n}"] + base)
            for n in (1, 2, 3)]
    check(all(r.rc == 0 and r.doc for r in runs) and
          fingerprint(runs[1].doc) == fingerprint(runs[0].doc) and
          fingerprint(runs[2].doc) == fingerprint(runs[0].doc),
          f"{name}: 1, 2 and 3 CPU threads give the same bits")


if __name__ == "__main__":
    exe, FAKE = sys.argv[1], os.path.abspath(sys.argv[2])
    determinism(exe, "lepage4_gpu", LEPAGE)
    determinism(exe, "moments3_gpu", MOMENTS)
    determinism(exe, "complex_gpu", COMPLEX)
    threads(exe, "complex_threads", COMPLEX)
    dimensions(exe)
    slow_paths(exe)
    faults(exe)
    races(exe)
    failures(exe)
    batch(exe)
    no_gpu(exe)
    finish()
