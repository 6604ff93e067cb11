#!/usr/bin/env python3
#===- tests/integration/checkpoint.py - Checkpoints, grids, progress ------===#
#
# Usage: checkpoint.py VEGASC
#
# The CLI polish of docs/user-guide.md ("Checkpoints, resuming and grids"):
#  1. kill -9 a run that writes --checkpoint once the file shows two
#     iterations done, --resume it (with another thread count), and compare
#     the final JSON result and every iteration's mean and error bitwise
#     with an uninterrupted run;
#  2. a checkpoint of another integrand, seed or number of calls is refused
#     (exit 1, a message naming the difference); --resume with --load-grid
#     is a usage error (exit 2);
#  3. --save-grid / --load-grid: a trained grid gives a smaller first
#     iteration error than a uniform start; a grid of another dimension is
#     refused;
#  4. the progress line: never when standard error is not a terminal, shown
#     under a pseudo-terminal, and not with --quiet;
#  5. --help lists the options, a checkpoint/resume example and the exit
#     codes.
#
#===----------------------------------------------------------------------===#
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import time

from vftest import check, expect, finish, vegasc, workdir, write_source

LEPAGE = """param a = 0.1
integrand lepage(x in [0, 1]^6) =
    prod(i in 0..6: exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))
"""
# 12 iterations of 10^6 calls: a few seconds, so the kill lands mid-run.
RUN = ["--calls", "1e6", "--iterations", 10, "--warmup", 2, "--seed", 5]


def checkpoint_done(path):
    """(iterations done, planned total) read from a checkpoint file, format
    version 3 to 5 (runtime/integrator/Checkpoint.h: the same fields up to
    the plan), or None if unreadable."""
    try:
        with open(path, "rb") as f:
            b = f.read(4096)  # the header; the map and allocation follow
    except OSError:
        return None
    if b[:8] != b"VFSTATE\0" or struct.unpack_from("<I", b, 8)[0] not in (3, 4, 5):
        return None
    pos = 12

    def take(fmt):
        nonlocal pos
        v = struct.unpack_from(fmt, b, pos)
        pos += struct.calcsize(fmt)
        return v[0]

    def skip_str():
        nonlocal pos
        pos += 8 + take("<Q")

    skip_str()                      # name
    take("<I"), take("<I")          # dim, outputs
    skip_str()                      # module hash
    take("<Q"), take("<d"), take("<d"), take("<I"), take("<Q"), take("<B")
    for _ in range(take("<Q")):     # parameters
        skip_str()
        take("<d")
    iterations, calls, warmup, done = (take("<I"), take("<Q"), take("<I"),
                                       take("<I"))
    return done, iterations + warmup


def kill_after(p, path, done, timeout):
    """Kills process \p p with SIGKILL once its checkpoint \p path holds
    \p done iterations (or after \p timeout seconds, or when it ended
    first); returns checkpoint_done(path) after the kill."""
    deadline = time.time() + timeout
    while time.time() < deadline and p.poll() is None:
        state = checkpoint_done(path)
        if state and state[0] >= done:
            break
        time.sleep(0.005)
    p.send_signal(signal.SIGKILL)
    p.wait()
    return checkpoint_done(path)


def bits(x):
    return None if x is None else float(x).hex()


def fingerprint(doc):
    """Everything of a run's JSON that must be bitwise reproducible (not
    the timings)."""
    r = doc["result"]
    res = {k: bits(r[k]) if isinstance(r[k], float) else r[k]
           for k in r if k != "wall_s"}
    rows = [(i["index"], i["warmup"], bits(i["mean"]), bits(i["error"]),
             bits(i["cumulative_mean"]), bits(i["cumulative_error"]),
             i["samples"]) for i in doc["iterations"]]
    return res, rows


def kill_and_resume(exe, src):
    whole = vegasc(exe, [src] + RUN + ["-q"])
    if not check(whole.rc == 0, "uninterrupted run succeeds"):
        print(whole)
        return
    ckpt = os.path.join(workdir(), "run.ckpt")
    env = dict(os.environ, VF_CACHE_DIR=os.path.join(workdir(), "cache"))
    p = subprocess.Popen([exe, src] + [str(a) for a in RUN] +
                         ["--devices", "cpu:2", "-q", "--checkpoint", ckpt],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         env=env)
    state = kill_after(p, ckpt, 2, 120)
    check(p.returncode == -signal.SIGKILL,
          f"the checkpointing run was killed by SIGKILL (rc {p.returncode})")
    if not check(state is not None and 2 <= state[0] < state[1],
                 f"the checkpoint holds a partial run (done, total: {state})"):
        return

    resumed = vegasc(exe, [src] + RUN + ["--devices", "cpu:1",
                                         "--resume", ckpt])
    if not check(resumed.rc == 0, "--resume succeeds"):
        print(resumed)
        return
    check(f"resuming from '{ckpt}': {state[0]} of {state[1]}" in resumed.out,
          "--resume says how many iterations were already done")
    a, b = fingerprint(whole.doc), fingerprint(resumed.doc)
    check(a[0] == b[0], f"resumed result is bitwise the uninterrupted one "
                        f"({a[0]} vs {b[0]})")
    check(a[1] == b[1], "every iteration's mean and error is bitwise the same")
    check(len(b[1]) == 12, "the resumed JSON lists all 12 iterations")

    # Resuming a finished checkpoint reports the same result again.
    final = os.path.join(workdir(), "final.ckpt")
    r = vegasc(exe, [src] + RUN + ["-q", "--checkpoint", final])
    r2 = vegasc(exe, [src] + RUN + ["-q", "--resume", final])
    check(r.rc == 0 and r2.rc == 0 and
          fingerprint(r.doc) == fingerprint(r2.doc) == a,
          "resuming a finished run reports its result unchanged")
    return ckpt


def refusals(exe, src):
    small = ["--calls", 4000, "--iterations", 3, "--warmup", 1, "-q"]
    ckpt = os.path.join(workdir(), "small.ckpt")
    r = vegasc(exe, [src] + small + ["--checkpoint", ckpt], json_out=False)
    check(r.rc == 0 and os.path.exists(ckpt), "--checkpoint writes the file")
    other = write_source("other", "integrand g(x in [0, 1]^6) = x[0]\n")
    expect(exe, [other] + small + ["--resume", ckpt], 1,
           "checkpoint of another integrand", "does not belong",
           "integrand 'lepage' vs 'g'")
    expect(exe, [src] + small + ["--seed", 2, "--resume", ckpt], 1,
           "checkpoint with another seed", "seed 1 vs 2")
    expect(exe, [src] + small + ["--param", "a=0.2", "--resume", ckpt], 1,
           "checkpoint with another parameter value",
           r"parameter a 0\.1\d* vs 0\.2")
    expect(exe, [src, "--calls", 8000, "--iterations", 3, "--warmup", 1,
                 "--resume", ckpt], 1,
           "checkpoint with other --calls", "4000 calls", "8000 calls",
           "another number of --calls")
    expect(exe, [src] + small + ["--resume", ckpt + ".none"], 1,
           "missing checkpoint", "cannot read")
    expect(exe, [src] + small + ["--resume", src], 1,
           "a source file given as checkpoint", "not a vegasflow checkpoint")
    expect(exe, [src] + small + ["--resume", ckpt, "--load-grid", ckpt], 2,
           "--resume with --load-grid", "cannot be combined")


def grids(exe, src):
    grid = os.path.join(workdir(), "lepage.grid")
    train = vegasc(exe, [src, "--calls", 2e5, "--iterations", 5, "--warmup",
                         3, "-q", "--save-grid", grid])
    check(train.rc == 0 and os.path.exists(grid), "--save-grid writes FILE")
    one = ["--calls", 2e5, "--iterations", 1, "--warmup", 0, "-q",
           "--seed", 9]
    uniform = vegasc(exe, [src] + one)
    loaded = vegasc(exe, [src] + one + ["--load-grid", grid])
    if check(uniform.rc == 0 and loaded.rc == 0, "--load-grid runs"):
        eu = uniform.doc["iterations"][0]["error"]
        el = loaded.doc["iterations"][0]["error"]
        check(el < 0.2 * eu, f"a trained grid: first error {el:.3g} is well "
                             f"below the uniform start's {eu:.3g}")
    flat = write_source("flat", "integrand h(x in [0, 1]^2) = x[0] * x[1]\n")
    expect(exe, [flat] + one + ["--load-grid", grid], 1,
           "grid of another dimension", "6 dimensions", "'h' has 2")
    expect(exe, [src] + one + ["--load-grid", src], 1,
           "a source file given as grid", "not a vegasflow grid")


def under_pty(exe, args):
    """Runs vegasc with standard error on a pseudo-terminal; returns
    (exit code, what the terminal received)."""
    master, slave = pty.openpty()
    env = dict(os.environ, VF_CACHE_DIR=os.path.join(workdir(), "cache"))
    p = subprocess.Popen([exe] + [str(a) for a in args],
                         stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    got = b""
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            got += data
        elif p.poll() is not None:
            break
    p.wait()
    os.close(master)
    return p.returncode, got.decode(errors="replace")


def progress(exe, src):
    args = [src, "--calls", 4e5, "--iterations", 3, "--warmup", 1]
    r = vegasc(exe, args, json_out=False)
    check(r.rc == 0 and "\r" not in r.err and "ETA" not in r.err and
          "samples " not in r.err,
          "no progress line when standard error is not a terminal")
    rc, tty = under_pty(exe, args)
    check(rc == 0 and "\r" in tty and "ETA" in tty and
          re.search(r"itn \d+w? \(\d+/4\) \[[#-]+\]", tty) is not None,
          "a progress line (iteration, bar, samples, ETA) on a terminal")
    check("\x1b[K" in tty, "the progress line is erased, not left behind")
    rc, tty = under_pty(exe, args + ["--quiet"])
    check(rc == 0 and "\r" not in tty and "ETA" not in tty,
          "no progress line with --quiet, even on a terminal")


def help_text(exe):
    r = vegasc(exe, ["--help"], json_out=False)
    for needle in ("--checkpoint FILE", "--resume FILE", "--save-grid FILE",
                   "--load-grid FILE", "--checkpoint run.ckpt --resume "
                   "run.ckpt", "Exit codes: 0 success", "2 usage error"):
        check(r.rc == 0 and needle in r.out, f"--help shows '{needle}'")


def unwritable(exe, src):
    """A checkpoint that cannot be written fails before any iteration."""
    r = vegasc(exe, [src, "--calls", 10000, "--iterations", 3, "--warmup", 0,
                     "--checkpoint", "/nonexistent-dir/run.ckpt"],
               json_out=False)
    check(r.rc == 1 and "cannot write the checkpoint" in r.err
          and "itn" not in r.out + r.err,
          "unwritable --checkpoint: exit 1 before the first iteration")


def main():
    exe = sys.argv[1]
    help_text(exe)
    src = write_source("lepage6", LEPAGE)
    kill_and_resume(exe, src)
    refusals(exe, src)
    unwritable(exe, src)
    grids(exe, src)
    progress(exe, src)
    finish()


if __name__ == "__main__":
    main()
