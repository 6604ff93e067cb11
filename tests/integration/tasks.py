#!/usr/bin/env python3
"""The task-engine protocol (runtime/tasks, vegasc --task-*).

    tasks.py VEGASC LIBFAKECUDA

1. An iteration split into 1, 2, 3 and 7 parts, merged in shuffled order,
   one part computed twice, parts computed on other devices (one CPU
   thread, a simulated device, a fake GPU), parts of unequal sizes
   (--task-weights): every iteration and the result bitwise those of
   vegasc alone; the same for an integrand with histograms, every bin
   included.
2. The state after each merge is a checkpoint: vegasc --resume finishes
   the run from it bitwise as the uninterrupted run.
3. Bad input refused with a message: overlapping and missing ranges, a
   part of another state, of another version, truncated, a differing
   duplicate, a state edited by hand, a range beyond the groups, more
   parts than groups, bad weights.
"""
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys

from vftest import check, expect, finish, vegasc, workdir, write_source

SRC = ("param a = 0.1\n"
       "integrand f(x in [0, 1]^4) = prod(i in 0..4: "
       "exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))\n")
SETTINGS = ["--seed", 5, "--calls", 200000, "--iterations", 3,
            "--warmup", 1]
ITERATIONS = 4
# An integrand with a 1-D and a 2-D histogram (as in histograms.py).
HIST_SRC = """const w = 0.1
const norm = 1 / (w * sqrt(pi) * erf(0.5 / w))
integrand ee(x in [-1, 1] * [0, 1]) {
    let c = x[0]
    hist costheta(c, -0.8, 0.8, 8)
    hist map2(c, -1, 1, 3, x[1], 0.3, 0.7, 2)
    return 3/8 * (1 + c^2) * norm * exp(-((x[1] - 0.5) / w)^2)
}
"""


def fingerprint(doc, rows=None):
    its = doc["iterations"][:rows]
    return ([(it["mean"].hex() if isinstance(it["mean"], float) else it["mean"],
              it["error"], it["cumulative_mean"], it["cumulative_error"],
              it["samples"]) for it in its],
            None if rows is not None else
            (doc["result"]["mean"], doc["result"]["error"],
             doc["result"]["chi2_dof"], doc["result"]["Q"],
             doc["result"]["stopped_because"], doc["result"]["target_met"],
             doc.get("histograms")))


def path(name):
    return os.path.join(workdir(), name)


def task(exe, src, args, env=None, json_out=False):
    saved = dict(os.environ)
    os.environ.update(env or {})
    try:
        return vegasc(exe, [src] + SETTINGS + args, json_out=json_out)
    finally:
        os.environ.clear()
        os.environ.update(saved)


def run_parts(exe, src, tag, nparts, ref, seed, duplicate=False,
              devices=None, weights=None):
    """The whole run as parts (cut by weights if given); checks every
    merged state against ref."""
    rng = random.Random(seed)
    state = path(f"{tag}.s0")
    r = task(exe, src, ["--task-init", state])
    if not check(r.rc == 0, f"{tag}: initial state written"):
        print(r)
        return None
    for it in range(1, ITERATIONS + 1):
        parts = []
        for i in range(nparts):
            extra, env = (devices or {}).get(i, ([], {}))
            out = path(f"{tag}.it{it}.p{i}")
            cut = ["--task-weights", ",".join(map(repr, weights))] \
                if weights else []
            r = task(exe, src, ["--task-part", f"{i}/{nparts}", "--state",
                                state, "--out", out] + cut + extra, env)
            if not check(r.rc == 0, f"{tag}: iteration {it} part {i}"):
                print(r)
                return None
            parts.append(out)
        if weights:
            sizes = [part_groups(p) for p in parts]
            check(len(set(sizes)) > 1 and all(
                sizes[i] <= sizes[j] for i in range(nparts)
                for j in range(nparts) if weights[i] < weights[j]),
                  f"{tag}: iteration {it}'s parts sized by the weights "
                  f"({sizes} groups)")
        if duplicate:
            again = path(f"{tag}.it{it}.again")
            r = task(exe, src, ["--task-part", f"0/{nparts}", "--state", state,
                                "--out", again])
            parts.append(again)
        rng.shuffle(parts)
        nxt = path(f"{tag}.s{it}")
        r = task(exe, src, ["--task-merge"] + parts +
                 ["--state", state, "--out", nxt, "-q"], json_out=True)
        if not check(r.rc == 0 and r.doc is not None,
                     f"{tag}: iteration {it} merged"):
            print(r)
            return None
        check(fingerprint(r.doc, it) == fingerprint(ref, it),
              f"{tag}: iterations 1..{it} bitwise those of vegasc alone")
        state = nxt
    r = task(exe, src, ["--task-result", "--state", state, "-q"],
             json_out=True)
    check(r.rc == 0 and fingerprint(r.doc) == fingerprint(ref),
          f"{tag}: the result bitwise that of vegasc alone")
    return state


def part_groups(part):
    """How many groups a part file holds (its one pass's End - Begin)."""
    with open(part, "rb") as f:
        _, _, _, begin, end = struct.unpack("<5Q", f.read(52)[12:])
    return end - begin


def fnv1a(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h


def rewrite(src_path, dst_path, edit):
    """A copy of a part with `edit` applied to its body, checksum redone."""
    with open(src_path, "rb") as f:
        body = bytearray(f.read()[:-8])
    edit(body)
    with open(dst_path, "wb") as f:
        f.write(bytes(body) + struct.pack("<Q", fnv1a(body)))
    return dst_path


def bad_inputs(exe, src):
    s0, s1 = path("ok.s0"), path("ok.s1")
    parts = [path(f"ok.it2.p{i}") for i in range(3)]
    merge = ["--state", s1, "--out", path("bad.next")]
    refused = 1
    expect(exe, [src] + SETTINGS + ["--task-merge", parts[0], parts[2]] + merge,
           refused, "a missing range", r"groups \d+:\d+ are missing")
    wide = path("bad.wide")
    r = task(exe, src, ["--task-part", "0:30", "--state", s1, "--out", wide])
    check(r.rc == 0, "a part by group range (0:30)")
    expect(exe, [src] + SETTINGS + ["--task-merge", wide] + parts[1:] + merge,
           refused, "overlapping ranges", r"parts overlap: groups \d+:\d+")
    expect(exe, [src] + SETTINGS + ["--task-merge"] +
           [path(f"ok.it1.p{i}") for i in range(3)] + merge, refused,
           "parts of another state", r"belongs to another state")
    expect(exe, [src, "--seed", 6] + SETTINGS[2:] + ["--task-merge"] + parts +
           merge, refused, "another seed than the state's",
           r"does not belong to this run.*seed 5 vs 6")
    trunc = path("bad.trunc")
    with open(parts[1], "rb") as f:
        data = f.read()
    with open(trunc, "wb") as f:
        f.write(data[:len(data) // 2])
    expect(exe, [src] + SETTINGS + ["--task-merge", parts[0], trunc, parts[2]]
           + merge, refused, "a truncated part", r"truncated")
    version = rewrite(parts[1], path("bad.version"),
                      lambda b: b.__setitem__(8, 9))
    expect(exe, [src] + SETTINGS + ["--task-merge", parts[0], version,
                                   parts[2]] + merge,
           refused, "a part of another version", r"version 9")
    differ = rewrite(parts[1], path("bad.differ"),
                     lambda b: b.__setitem__(len(b) - 3, b[len(b) - 3] ^ 1))
    expect(exe, [src] + SETTINGS + ["--task-merge"] + parts + [differ] + merge,
           refused, "a differing duplicate",
           r"two parts of the same range differ")
    edited = path("bad.state")
    shutil.copy(s1, edited)
    with open(edited, "r+b") as f:
        f.seek(40)
        b = f.read(1)
        f.seek(40)
        f.write(bytes([b[0] ^ 0x10]))
    expect(exe, [src] + SETTINGS + ["--task-part", "0/3", "--state", edited,
                                   "--out", path("bad.p")],
           refused, "a state edited by hand", r"damaged|checksum|hash")
    expect(exe, [src] + SETTINGS + ["--task-part", "0:99", "--state", s1,
                                   "--out", path("bad.p")],
           refused, "a range beyond the groups", r"has groups 0:\d+")
    expect(exe, [src] + SETTINGS + ["--task-part", "0/65", "--state", s1,
                                   "--out", path("bad.p")],
           refused, "more parts than groups",
           r"65 parts, but the state's next iteration has only \d+ groups"
           r".*give at most \d+ parts")
    for weights, why in (("1,2", "2 weights for 3 parts"),
                         ("1,0,1", "'0' is not a positive finite number"),
                         ("1,inf,1", "'inf' is not a positive"),
                         ("1,,1", "'' is not a positive")):
        expect(exe, [src] + SETTINGS + ["--task-part", "0/3", "--state", s1,
                                       "--out", path("bad.p"),
                                       "--task-weights", weights],
               refused if "parts" in why else 2, f"--task-weights {weights}",
               re.escape(why))
    expect(exe, [src] + SETTINGS + ["--task-weights", "1,2"], 2,
           "--task-weights without --task-part",
           r"--task-weights cuts the parts of --task-part I/N")
    expect(exe, [src] + SETTINGS + ["--task-part", "0/3", "--out",
                                   path("bad.p")],
           refused, "a part without a state", r"--state")
    expect(exe, [src, "--check", "--task-part", "0/3", "--state", s1,
                 "--out", path("bad.p")], 2, "a task command with --check",
           r"integrate a \.vf file")
    expect(exe, [src] + SETTINGS + ["--task-init", path("bad.p"),
                                   "--task-part", "0/3"], 2,
           "two task commands at once", r"give one of")
    check(not os.path.exists(path("bad.next")) and
          not os.path.exists(path("bad.p")), "nothing written when refused")


def slurm_local(exe, src, ref):
    """scripts/slurm-tasks.sh with its array tasks as local processes."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "..", "..", "scripts", "slurm-tasks.sh")
    folder = path("slurm")
    env = dict(os.environ, VEGASC=os.path.abspath(exe),
               VF_CACHE_DIR=os.path.join(workdir(), "cache"))
    settings = [str(a) for a in SETTINGS]

    def run(*args):
        return subprocess.run([script] + [str(a) for a in args],
                              capture_output=True, text=True, env=env,
                              timeout=300)

    def result():
        out = path("slurm.json")
        r = run("result", folder, "--json", out, "-q")
        if r.returncode != 0:
            print(r.stdout, r.stderr)
            return None
        with open(out) as f:
            return json.load(f)

    r = run("local", folder, 4, src, *settings)
    check(r.returncode == 0 and "iterations done" in r.stdout,
          "slurm-tasks.sh local: 4 array tasks per iteration ran")
    doc = result()
    check(doc is not None and fingerprint(doc) == fingerprint(ref),
          "slurm-tasks.sh: bitwise the result of vegasc alone")
    # A chain stopped before its last merges resumes from the last state.
    os.remove(os.path.join(folder, f"state.{ITERATIONS}"))
    os.remove(os.path.join(folder, f"state.{ITERATIONS - 1}"))
    r = run("local", folder, 4, src, *settings)
    doc = result()
    check(r.returncode == 0 and doc is not None and
          fingerprint(doc) == fingerprint(ref),
          "slurm-tasks.sh: resumed after its last two merges were lost, "
          "still bitwise")
    r = run("local", folder, 3, src, *settings)
    check(r.returncode != 0 and "holds another run" in r.stderr,
          "slurm-tasks.sh: a folder of another run is refused")


def bitwise_suite(exe, fake, src, ref, prefix=""):
    """Every way of cutting, ordering and computing parts against ref."""
    for n in (1, 2, 3, 7):
        run_parts(exe, src, f"{prefix}parts{n}", n, ref, seed=n)
    run_parts(exe, src, f"{prefix}ok", 3, ref, seed=11, duplicate=True)
    gpu = {"VF_CUDA_LIBRARY": fake, "VF_FAKE_CUDA_DEVICES": "1"}
    run_parts(exe, src, f"{prefix}devices", 3, ref, seed=3, devices={
        0: (["--devices", "cpu:1"], {}),
        1: (["--devices", "cpu:1,sim:5"], {}),
        2: (["--devices", "gpu"], gpu)})
    run_parts(exe, src, f"{prefix}weighted", 3, ref, seed=4,
              weights=[2.5, 0.01, 1 / 3])


def main():
    exe, fake = sys.argv[1], sys.argv[2]
    src = write_source("lepage", SRC)
    ref = vegasc(exe, [src] + SETTINGS + ["-q"])
    hsrc = write_source("ee_hist", HIST_SRC)
    href = vegasc(exe, [hsrc] + SETTINGS + ["-q"])
    if not check(ref.rc == 0 and ref.doc and href.rc == 0 and
                 len(href.doc.get("histograms", [])) == 2,
                 "vegasc alone (with and without histograms)"):
        print(ref, href)
        finish()
    bitwise_suite(exe, fake, src, ref.doc)
    bitwise_suite(exe, fake, hsrc, href.doc, prefix="hist.")
    # The state after iteration 2 is the run's checkpoint.
    r = vegasc(exe, [src] + SETTINGS + ["-q", "--resume", path("ok.s2")])
    check(r.rc == 0 and fingerprint(r.doc) == fingerprint(ref.doc),
          "vegasc --resume from a merged state ends bitwise where vegasc "
          "alone does")
    slurm_local(exe, src, ref.doc)
    bad_inputs(exe, src)
    finish()


if __name__ == "__main__":
    main()
