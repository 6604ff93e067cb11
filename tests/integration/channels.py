#!/usr/bin/env python3
"""The multi-channel runtime's guarantees (issue 37, docs/algorithm.md
"Multi-channel integration"), end to end through vegasc.

    channels.py VEGASC LIBFAKECUDA [MPIEXEC]

Two 2-D integrands written here: `kp`, three channels (a falling and a
rising exponential map in x, and the identity) combined with Kleiss-Pittau
shares (alpha()), each filling the histogram `hx`; `split`, two channels
that are plain parts of the integrand (no alpha(): the sigma rule).

1. Bitwise: the whole result (every iteration's mean, error and channel
   rows, the channels, the histogram) is the same bits for 1, 2 and 3 CPU
   threads, every schedule, simulated devices, fake GPUs (the GPU kernel
   under warp emulation) alone and mixed with CPU threads, mpirun -np 2
   (when MPIEXEC is given), 2 and 3 task parts per iteration (each part
   holds its groups of every channel's pass); another seed gives other
   bits. A part of a single-channel run and one of a multi-channel run
   are refused by each other's merge.
2. The weights follow the documented rules from one iteration's channel
   rows to the next (sqrt(n V + I^2) with alpha(), sqrt(n V) without, the
   floor 0.1/m); --channel-weights holds them (1,3: 0.25 and 0.75) every
   iteration.
3. Resume: a run killed by SIGKILL after its checkpoint of iteration 3,
   resumed with --resume, is bitwise the uninterrupted run; --resume with
   other channel options is refused as not belonging.
4. Grid files: a multi-channel run's holds every channel's map and the
   weights, which a new run's first iteration samples with; a grid of
   another channel count is refused. Bad input: the wrong count of
   --channel-weights, a channel that is NaN with
   --on-nonfinite stop (the error names the channel, its value there and
   a point where it is NaN) and zero (counted, the rest of the integral
   kept).
"""
import json
import math
import os
import re
import signal
import struct
import subprocess
import sys

from checkpoint import kill_after
from vftest import check, expect, finish, vegasc, with_env, workdir, \
    write_source

SOURCE = """import "std/channels"

# (1 + y) times two exponentials and a constant in x; the exact integral
# is 3/2 ((1 - e^-6) / 3 + 1/5).
fn f(x, y) = (1 + y) * (exp(-6 * x) + exp(6 * (x - 1)) + 0.2)
fn g_fall(x) = exp_density(x, -6, 0, 1)
fn g_rise(x) = exp_density(x, 6, 0, 1)

integrand kp(u in [0, 1]^2) {
    channel falling {
        let m = exp_map(u[0], -6, 0, 1)
        hist hx(m[0], 0, 1, 4)
        return f(m[0], u[1]) * m[1] *
               kp_share3(1, alpha(falling), g_fall(m[0]), alpha(rising),
                         g_rise(m[0]), alpha(flat), 1)
    }
    channel rising {
        let m = exp_map(u[0], 6, 0, 1)
        hist hx(m[0], 0, 1, 4)
        return f(m[0], u[1]) * m[1] *
               kp_share3(2, alpha(falling), g_fall(m[0]), alpha(rising),
                         g_rise(m[0]), alpha(flat), 1)
    }
    channel flat {
        hist hx(u[0], 0, 1, 4)
        return f(u[0], u[1]) *
               kp_share3(3, alpha(falling), g_fall(u[0]), alpha(rising),
                         g_rise(u[0]), alpha(flat), 1)
    }
}

integrand split(x in [0, 1]^2) {
    channel peak {
        return exp(-50 * ((x[0] - 0.3)^2 + (x[1] - 0.6)^2))
    }
    channel smooth {
        return 1 + x[0] * x[1]
    }
}
"""
KP_EXACT = 1.5 * ((1 - math.exp(-6)) / 3 + 0.2)
# sqrt(x[0] - 0.25) is NaN on a quarter of the square.
NAN_SOURCE = """integrand nanny(x in [0, 1]^2) {
    channel fine {
        return 1 + x[1]
    }
    channel bad {
        return sqrt(x[0] - 0.25)
    }
}
"""
BASE = ["-q", "--seed", 3, "--calls", 30000, "--iterations", 3,
        "--warmup", 1]
NO_GPU = "/nonexistent/libcuda.so.1"


def fingerprint(doc):
    """Everything the seed fixes: not the timings, devices or ranks."""
    res = {k: v for k, v in doc["result"].items() if k != "wall_s"}
    rows = [{k: v for k, v in it.items()
             if k not in ("time_s", "devices", "ranks")}
            for it in doc["iterations"]]
    return res, rows, doc.get("channels"), doc.get("histograms")


def same(what, r, ref):
    ok = r.rc == 0 and r.doc is not None and \
        fingerprint(r.doc) == fingerprint(ref)
    if not check(ok, f"{what}: bitwise the single thread's result"):
        print(r)
    return ok


def mpirun(mpiexec, n, args):
    """mpirun -np n VEGASC args --json FILE: (process, parsed document)."""
    js = os.path.join(workdir(), f"mpi{n}.json")
    env = dict(os.environ, VF_CACHE_DIR=os.path.join(workdir(), "cache"))
    p = subprocess.run([mpiexec, "--allow-run-as-root", "--oversubscribe",
                        "--mca", "mpi_yield_when_idle", "1", "-np", str(n)]
                       + [str(a) for a in args] + ["--json", js],
                       capture_output=True, text=True, env=env, timeout=300)
    doc = None
    if p.returncode == 0 and os.path.exists(js):
        with open(js) as f:
            doc = json.load(f)
    return p, doc


def bitwise(exe, fake, mpiexec, src, name):
    args = [src, "--integrand", name] + BASE
    with_env(VF_CUDA_LIBRARY=NO_GPU, VF_FAKE_CUDA_DEVICES=None)
    ref = vegasc(exe, args + ["--devices", "cpu:1"])
    if not check(ref.rc == 0 and ref.doc and ref.doc.get("channels"),
                 f"{name}: the single-thread reference has channels"):
        print(ref)
        return None
    for devices, schedule in (("cpu:2", "adaptive"), ("cpu:3", "static"),
                              ("cpu:3", "guided"), ("cpu:2", "dynamic:3"),
                              ("cpu:1,sim:5,sim:50", "adaptive")):
        r = vegasc(exe, args + ["--devices", devices, "--schedule",
                                schedule])
        same(f"{name} --devices {devices} --schedule {schedule}", r, ref.doc)
    with_env(VF_CUDA_LIBRARY=fake, VF_FAKE_CUDA_DEVICES=2)
    for devices, schedule in (("gpu:0", "adaptive"), ("gpu", "static"),
                              ("cpu:1,gpu:1", "guided"),
                              ("all", "dynamic:3")):
        r = vegasc(exe, args + ["--devices", devices, "--schedule",
                                schedule])
        if not same(f"{name} fake GPUs --devices {devices} --schedule "
                    f"{schedule}", r, ref.doc):
            continue
        used = r.doc["devices"]
        # Beside CPU threads a loaded machine may leave a GPU no tile.
        gpu_samples = sum(d["samples"] for d in used if d["kind"] == "gpu")
        check(not any(d["failed"] for d in used) and
              ("cpu" in devices or devices == "all" or
               gpu_samples == r.doc["result"]["evaluations"]),
              f"{name} --devices {devices}: no device failed, and GPUs "
              f"alone evaluated every sample")
    with_env(VF_CUDA_LIBRARY=NO_GPU, VF_FAKE_CUDA_DEVICES=None)
    if mpiexec:
        p, doc = mpirun(mpiexec, 2, [exe] + args + ["--devices", "cpu:1"])
        if check(doc is not None,
                 f"{name}: mpirun -np 2 runs ({p.stderr.strip()[-300:]})"):
            check(fingerprint(doc) == fingerprint(ref.doc) and
                  len(doc.get("mpi", {}).get("per_rank", [])) == 2,
                  f"{name}: mpirun -np 2 bitwise the single process's")
    else:
        print(f"{name}: no MPIEXEC given, mpirun -np 2 not checked")
    other = vegasc(exe, [src, "--integrand", name, "--seed", 4] + BASE[3:])
    if check(other.rc == 0 and other.doc, f"{name}: seed 4 runs"):
        a, b = ref.doc["iterations"], other.doc["iterations"]
        check(all(x["mean"] != y["mean"] and
                  all(c["integral"] != d["integral"]
                      for c, d in zip(x["channels"], y["channels"]))
                  for x, y in zip(a, b)),
              f"{name}: seed 4 gives other bits in every iteration and "
              f"channel than seed 3")
    return ref.doc


def task_parts(exe, src, ref):
    """The whole run as 2 and 3 task parts per iteration (in-process
    engine: vegasc's --task-* commands), each part holding its groups of
    every channel's pass, merged into each iteration: bitwise vegasc
    alone. A part of a single-channel run and one of this run are refused
    by each other's merge (another state)."""
    args = [src, "--integrand", "kp"] + BASE[1:]
    iterations = 4  # the warm-up and 3
    last = {}
    for n in (2, 3):
        state = os.path.join(workdir(), f"kp{n}.s0")
        r = vegasc(exe, args + ["--task-init", state], json_out=False)
        if not check(r.rc == 0, f"kp: --task-init for {n} parts"):
            print(r)
            return
        for it in range(1, iterations + 1):
            parts = [os.path.join(workdir(), f"kp{n}.it{it}.p{i}")
                     for i in range(n)]
            for i, part in enumerate(parts):
                r = vegasc(exe, args + ["--task-part", f"{i}/{n}", "--state",
                                        state, "--out", part], json_out=False)
                if not check(r.rc == 0, f"kp: iteration {it} part {i}/{n}"):
                    print(r)
                    return
            nxt = os.path.join(workdir(), f"kp{n}.s{it}")
            r = vegasc(exe, args + ["--task-merge"] + parts[::-1] +
                       ["--state", state, "--out", nxt, "-q"])
            if not check(r.rc == 0 and r.doc is not None,
                         f"kp: iteration {it} of {n} parts merged"):
                print(r)
                return
            state = nxt
        last[n] = parts
        with open(parts[0], "rb") as f:
            passes = struct.unpack_from("<Q", f.read(28), 20)[0]
        check(passes == 3, f"kp: a part holds one pass per channel "
                           f"({passes})")
        check(fingerprint(r.doc) == fingerprint(ref),
              f"kp: {n} task parts per iteration bitwise vegasc alone "
              f"(every iteration's rows and channels, the histogram)")
    plain = [write_source("plain", "integrand plain(x in [0, 1]^2) = "
                          "1 + x[0] * x[1]\n")] + BASE[1:]
    s0, p0 = (os.path.join(workdir(), f"plain.{x}") for x in ("s0", "p0"))
    r = vegasc(exe, plain + ["--task-init", s0], json_out=False)
    check(r.rc == 0, "plain: --task-init")
    r = vegasc(exe, plain + ["--task-part", "0/1", "--state", s0, "--out",
                             p0], json_out=False)
    check(r.rc == 0, "plain: its one part")
    expect(exe, args + ["--task-merge", p0, "--state",
                        os.path.join(workdir(), "kp2.s3"), "--out",
                        os.path.join(workdir(), "mixed.s")], 1,
           "a single-channel run's part merged into a multi-channel run",
           "belongs to another state")
    expect(exe, plain + ["--task-merge", last[2][0], "--state", s0, "--out",
                         os.path.join(workdir(), "mixed.s")], 1,
           "a multi-channel run's part merged into a single-channel run",
           "belongs to another state")


def expected_weights(row, kleiss_pittau):
    """The next iteration's weights from \\p row's channels (ChannelWeights.h;
    the 40-bit rounding aside)."""
    raw = []
    for c in row["channels"]:
        per_sample = c["samples"] * c["error"] ** 2
        raw.append(math.sqrt(per_sample + c["integral"] ** 2
                             if kleiss_pittau else per_sample))
    floor = 0.1 / len(raw)
    return [floor + (1 - len(raw) * floor) * w / math.fsum(raw) for w in raw]


def weights(exe, src, docs):
    for name, kp in (("kp", True), ("split", False)):
        doc = docs.get(name)
        if doc is None:
            continue
        its = doc["iterations"]
        got = [[c["alpha"] for c in it["channels"]] for it in its]
        m = len(got[0])
        check(got[0] == [1 / m] * m, f"{name}: the first iteration's weights "
                                     f"are 1/{m}")
        rule = "sqrt(n V + I^2)" if kp else "sqrt(n V)"
        for k in range(1, len(its)):
            want = expected_weights(its[k - 1], kp)
            check(all(abs(a - b) <= 1e-9 for a, b in zip(got[k], want)),
                  f"{name}: iteration {k + 1}'s weights {got[k]} follow "
                  f"{rule} of iteration {k}'s channels ({want})")
        # A channel's share is max(2, floor(alpha N)) calls; its strata
        # place at most that many samples (as VEGAS+ places at most N),
        # losing less than one per hypercube to rounding down; there are
        # at most half the share's hypercubes (sized at four samples each
        # for a share up to twice this one), so at least half is placed.
        calls = doc["settings"]["calls"]
        for k, it in enumerate(its):
            n = [c["samples"] for c in it["channels"]]
            share = [max(2, math.floor(a * calls)) for a in got[k]]
            check(all(0.5 * b <= a <= b for a, b in zip(n, share)) and
                  sum(n) == it["samples"],
                  f"{name}: iteration {k + 1}'s channel samples {n} are "
                  f"from half of floor(alpha N) {share} to it, adding up to "
                  f"the iteration's")
    for name, spec, want in (("split", "1,3", [0.25, 0.75]),
                             ("kp", "1,1,2", [0.25, 0.25, 0.5])):
        r = vegasc(exe, [src, "--integrand", name, "--channel-weights", spec]
                   + BASE)
        if not check(r.rc == 0 and r.doc, f"{name} --channel-weights {spec}"):
            print(r)
            continue
        held = [[c["alpha"] for c in it["channels"]]
                for it in r.doc["iterations"]]
        check(all(h == want for h in held) and
              [c["alpha"] for c in r.doc["channels"]] == want,
              f"{name} --channel-weights {spec}: the weights are {want} in "
              f"every iteration and the result ({held})")


def resume(exe, src):
    """kill -9 after the checkpoint of iteration 3, then --resume. A slow
    simulated device (0.2 million samples/s: 0.1 s an iteration) makes the
    kill land mid-run; the devices do not change the bits."""
    args = [src, "--integrand", "kp", "-q", "--seed", 8, "--calls", 20000,
            "--iterations", 6, "--warmup", 2]
    whole = vegasc(exe, args + ["--devices", "cpu:1"])
    if not check(whole.rc == 0 and whole.doc, "the uninterrupted run"):
        print(whole)
        return
    ckpt = os.path.join(workdir(), "kp.ckpt")
    env = dict(os.environ, VF_CACHE_DIR=os.path.join(workdir(), "cache"))
    p = subprocess.Popen([exe] + [str(a) for a in args] +
                         ["--devices", "sim:0.2", "--checkpoint", ckpt],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         env=env)
    state = kill_after(p, ckpt, 3, 60)
    if not check(p.returncode == -signal.SIGKILL and state is not None and
                 3 <= state[0] < state[1],
                 f"killed by SIGKILL with a partial checkpoint "
                 f"(rc {p.returncode}, done/total {state})"):
        return
    # Not quiet: the table says where the resumed run starts.
    r = vegasc(exe, [a for a in args if a != "-q"] +
               ["--devices", "cpu:2", "--resume", ckpt])
    if check(r.rc == 0 and r.doc, "--resume runs"):
        check(re.search(rf"{state[0]} of 8 iterations done", r.out),
              f"--resume starts after iteration {state[0]}")
        check(fingerprint(r.doc) == fingerprint(whole.doc),
              "resumed: the result, every row (channels included), the "
              "channels and the histogram bitwise the uninterrupted run's")
    expect(exe, args + ["--resume", ckpt, "--channel-weights", "1,1,2"], 1,
           "--resume with other --channel-weights", "does not belong",
           r"channel_weights adapt vs 1,1,2")
    expect(exe, args + ["--resume", ckpt, "--channel-floor", "0.05"], 1,
           "--resume with another --channel-floor", "does not belong",
           r"channel_floor 0 vs 0\.05")


def bad_inputs(exe, src):
    small = ["--calls", 4000, "--iterations", 2, "--warmup", 1, "-q"]
    expect(exe, [src, "--integrand", "kp", "--channel-weights", "1,2"] +
           small, 1, "two weights for three channels",
           "--channel-weights has 2 weights, but integrand 'kp' has 3 "
           "channels")
    expect(exe, [src, "--integrand", "split", "--channel-weights", "1,2,3"]
           + small, 1, "three weights for two channels",
           "--channel-weights has 3 weights, but integrand 'split' has 2 "
           "channels")
    grid = os.path.join(workdir(), "split.grid")
    plain = write_source("plain2", "integrand p(x in [0, 1]^2) = x[0]\n")
    made = vegasc(exe, [plain, "--save-grid", grid] + small, json_out=False)
    check(made.rc == 0 and os.path.exists(grid), "a plain integrand's grid")
    expect(exe, [src, "--integrand", "split", "--load-grid", grid] + small,
           1, "--load-grid of one map into a multi-channel integrand",
           "holds one map .*integrand 'split' has 2 channels")
    grids(exe, src, small, plain)


def grids(exe, src, small, plain):
    """A multi-channel run's grid file holds every channel's map and the
    weights: loaded into a new run, its first iteration samples with them
    (bitwise the run that continues from a checkpoint would, in its maps
    and weights: the strata start uniform); into an integrand with other
    channels it is refused."""
    grid = os.path.join(workdir(), "kp.grid")
    saved = vegasc(exe, [src, "--integrand", "kp", "--save-grid", grid] +
                   small)
    if not check(saved.rc == 0 and os.path.exists(grid),
                 "--save-grid of a multi-channel run"):
        print(saved)
        return
    alpha = [c["alpha"] for c in saved.doc["channels"]]
    loaded = vegasc(exe, [src, "--integrand", "kp", "--load-grid", grid,
                          "--warmup", 0] + small[:4] + ["-q"])
    fresh = vegasc(exe, [src, "--integrand", "kp", "--warmup", 0] +
                   small[:4] + ["-q"])
    if check(loaded.rc == 0 and fresh.rc == 0, "--load-grid runs"):
        first = [c["alpha"] for c in loaded.doc["iterations"][0]["channels"]]
        check(first == alpha, f"the loaded weights {first} are the saved "
                              f"run's {alpha}")
        check(loaded.doc["iterations"][0]["error"] <
              fresh.doc["iterations"][0]["error"],
              "the loaded maps sample better than fresh ones in the first "
              "iteration")
    eval_from_state(exe, small)
    expect(exe, [src, "--integrand", "split", "--load-grid", grid] + small,
           1, "--load-grid of three channels' maps into two",
           "holds the maps of 3 channels .*'split' has 2 channels")
    expect(exe, [plain, "--load-grid", grid] + small, 1,
           "--load-grid of channels' maps into an integrand without",
           "has no channels")


def eval_from_state(exe, small):
    """--eval takes alpha = 1/m, unless --load-grid or --resume gives the
    weights: on a sum that depends on them, a_w x0 + a_v (1 + x1)."""
    src = write_source("weighted", """integrand w(x in [0, 1]^2) {
    channel a { return alpha(a) * x[0] }
    channel b { return alpha(b) * (1 + x[1]) }
}
""")
    grid = os.path.join(workdir(), "w.grid")
    ckpt = os.path.join(workdir(), "w.ckpt")
    run = vegasc(exe, [src, "--save-grid", grid, "--checkpoint", ckpt] +
                 small)
    if not check(run.rc == 0, "the weighted sum integrates"):
        print(run)
        return
    a = [c["alpha"] for c in run.doc["channels"]]
    at = ["--eval", "--at", "0.25,0.5"]
    for extra, w, what in (([], [0.5, 0.5], "alpha = 1/2"),
                           (["--load-grid", grid], a, "the grid's weights"),
                           (["--resume", ckpt] + small[:6], a,
                            "the checkpoint's weights")):
        r = vegasc(exe, [src] + at + extra, json_out=False)
        want = w[0] * 0.25 + w[1] * 1.5
        got = float(r.out.split()[0]) if r.rc == 0 and r.out else None
        check(got is not None and abs(got - want) <= 1e-15 * want,
              f"--eval {' '.join(map(str, extra[:2]))}: {got} is the sum "
              f"with {what} ({want})")


def nonfinite(exe):
    src = write_source("nanny", NAN_SOURCE)
    small = ["--calls", 20000, "--iterations", 3, "--warmup", 1, "-q"]
    for policy in ([], ["--on-nonfinite", "stop"]):
        r = expect(exe, [src] + small + policy, 1,
                   f"a NaN in channel 'bad' {' '.join(policy) or 'by default'}",
                   r"channel 'bad' of integrand 'nanny' is -?nan at "
                   r"x = \[", "--on-nonfinite=zero")
        m = re.search(r"at x = \[([^,]+),", r.err)
        check(m is not None and float(m.group(1)) < 0.25,
              f"the point reported is one where channel 'bad' is NaN "
              f"(x[0] < 0.25: {m.group(1) if m else None})")
    r = vegasc(exe, [src, "--on-nonfinite", "zero"] + small)
    if not check(r.rc == 0 and r.doc, "--on-nonfinite zero runs"):
        print(r)
        return
    its = r.doc["iterations"]
    first = its[0]
    bad = first["channels"][1]["samples"]
    check(0.2 * bad < first["nonfinite"] < 0.3 * bad,
          f"the first iteration counts a quarter of channel 'bad''s "
          f"{bad} samples as non-finite ({first['nonfinite']})")
    last = its[-1]["channels"]
    for c, exact in zip(last, (1.5, 2 / 3 * 0.75 ** 1.5)):
        check(abs(c["integral"] - exact) <= 5 * c["error"],
              f"each channel's last integral {c['integral']!r} +- "
              f"{c['error']:.3g} within 5 sigma of {exact!r}")


def main():
    exe, fake = sys.argv[1], os.path.abspath(sys.argv[2])
    mpiexec = sys.argv[3] if len(sys.argv) > 3 else None
    src = write_source("channels", SOURCE)
    docs = {}
    for name in ("kp", "split"):
        docs[name] = bitwise(exe, fake, mpiexec, src, name)
    kp = docs.get("kp")
    if kp:
        m, e = kp["result"]["mean"], kp["result"]["error"]
        check(abs(m - KP_EXACT) <= 5 * e,
              f"kp: {m!r} +- {e:.3g} within 5 sigma of {KP_EXACT!r}")
    if kp:
        task_parts(exe, src, kp)
    weights(exe, src, docs)
    resume(exe, src)
    bad_inputs(exe, src)
    nonfinite(exe)
    finish()


if __name__ == "__main__":
    main()
