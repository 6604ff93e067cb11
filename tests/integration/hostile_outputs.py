#!/usr/bin/env python3
#===- tests/integration/hostile_outputs.py - Outputs, events, odd values --===#
#
# Usage: hostile_outputs.py VEGASC [LIBVEGASFLOW]
#
# The third hostile round (issue 36), by class:
#   - outputs never replace inputs or each other, in single runs, batches
#     and task commands (the same file by name, by another spelling, by a
#     link); the documented pairs (--checkpoint F --resume F, --save-grid G
#     --load-grid G) stay legal; "{run}" cannot leave the batch's folder;
#   - an event file is complete or absent: streamed under an address-space
#     limit that the whole text would not fit, cut by a file-size limit;
#   - what would stop an event file after a run is said before it;
#   - integrands with more components than integration takes, histogram
#     ranges and infinite-axis scales that overflow or vanish, tiny
#     constants, and the odd values of flags and TOML keys;
#   - with LIBVEGASFLOW, a second thread's vf_run on a busy integrator.
# Each case asserts the exit code, the message and that no file was
# damaged; a case that hangs fails.
#
#===----------------------------------------------------------------------===#
import ctypes
import json
import math
import os
import re
import resource
import signal
import subprocess
import sys
import threading
import time

import hostile
from hostile import expect, path, snapshot, write
from vftest import check, finish, preload_sanitizer, sanitizer_runtime

RUN = hostile.RUN_ARGS
GOOD = hostile.GOOD
EVENTS = ("integrand ok(x in [0,1]^2) = 1 + x[0]\n"
          "integrand ok_event(x in [0,1]^2) -> [12] = "
          "[11,-1,50,0,0,50, 13,1,50,0,0,50]\n")
USAGE, INPUT = 2, 1


def intact(p, before, what):
    check(snapshot(p) == before, f"{what}: '{os.path.basename(p)}' intact")


#===--------------------------------------------------------------------===#
# Outputs that would replace inputs or each other
#===--------------------------------------------------------------------===#

def single_runs():
    src = write("lep.vf", GOOD)
    keep = snapshot(src)
    for flag in ("--json", "--checkpoint", "--save-grid", "--hist-csv",
                 "--report"):
        expect([src, flag, src] + RUN, USAGE, f"{flag} names the source",
               rf"{flag} '.*lep\.vf' is the source file")
        intact(src, keep, f"{flag} lep.vf")
    expect([src, "--json", "./" + os.path.basename(src)] + RUN, USAGE,
           "--json names the source by another spelling",
           "is the source file", cwd=os.path.dirname(src))
    link = path("link.json")
    if not os.path.lexists(link):
        os.symlink(src, link)
    expect([src, "--json", link] + RUN, USAGE,
           "--json names a link to the source", "is the source file")
    intact(src, keep, "a link to the source")
    for a, b in (("--json", "--checkpoint"), ("--save-grid", "--checkpoint"),
                 ("--report", "--json"), ("--hist-csv", "--json")):
        out = path("s1")
        expect([src, a, out, b, out] + RUN, USAGE, f"{a} X {b} X",
               rf"'.*s1' and .*'.*s1' are the same file")
        check(not os.path.exists(out), f"{a} X {b} X: nothing written")
    helper = write("helper.vf", "fn twice(a) = 2 * a\n")
    main = write("uses.vf", 'import "helper"\n'
                 "integrand f(x in [0, 1]) = twice(x[0])\n")
    keep_helper = snapshot(helper)
    expect([main, "--json", helper] + RUN, USAGE,
           "--json names an imported file", "is the source file")
    intact(helper, keep_helper, "--json on an import")
    documented_pairs(src)


def documented_pairs(src):
    ck, grid = path("pair.ckpt"), path("pair.grid")
    expect([src, "--checkpoint", ck, "--save-grid", grid] + RUN, 0,
           "a first run writes a checkpoint and a grid")
    expect([src, "--checkpoint", ck, "--resume", ck, "--calls", "2000",
            "--iterations", "3", "--warmup", "1"], 0,
           "--checkpoint F --resume F stays legal")
    expect([src, "--save-grid", grid, "--load-grid", grid] + RUN, 0,
           "--save-grid G --load-grid G stays legal")
    expect([src, "--save-grid", ck, "--resume", ck] + RUN, USAGE,
           "--save-grid over the checkpoint --resume reads",
           "is the checkpoint --resume reads")


def batches():
    src = write("b.vf", GOOD)
    keep = snapshot(src)
    me = path("self.toml")
    write("self.toml", '[defaults]\noutput = "self.toml"\ncalls = 2000\n'
          'iterations = 2\n[[run]]\nfile = "b.vf"\n')
    before = snapshot(me)
    expect([me], USAGE, "TOML output = the batch file",
           r"'output' in \[defaults\] '.*self\.toml' is the batch file")
    intact(me, before, "output = self.toml")
    write("csv.toml", '[defaults]\ncsv = "b.vf"\ncalls = 2000\n'
          'iterations = 2\n[[run]]\nfile = "b.vf"\n')
    expect([path("csv.toml")], USAGE, "TOML csv = a source",
           r"'csv' in \[defaults\] '.*b\.vf' is the source file")
    intact(src, keep, "csv = b.vf")
    ev = write("ev.vf", EVENTS)
    write("twice.toml", "[defaults]\ncalls = 2000\niterations = 2\n"
          'events = 10\n[[run]]\nname = "one"\nfile = "ev.vf"\n'
          'integrand = "ok"\nevents_out = "a.lhe"\n'
          '[[run]]\nname = "two"\nfile = "ev.vf"\nintegrand = "ok"\n'
          'events_out = "./a.lhe"\n')
    expect([path("twice.toml")], USAGE, "two runs' events_out a.lhe, ./a.lhe",
           "are the same file")
    write("escape.toml", "[defaults]\ncalls = 2000\niterations = 2\n"
          'events = 10\n[[run]]\nname = "../escaped"\nfile = "ev.vf"\n'
          'integrand = "ok"\nevents_out = "{run}.lhe"\n')
    expect([path("escape.toml")], INPUT, "a run name leaving the folder",
           "would leave the output's folder")
    check(not os.path.exists(os.path.join(os.path.dirname(hostile.workdir()),
                                          "escaped.lhe")),
          "{run} = ../escaped: nothing written outside the folder")
    del ev


def tasks():
    src = write("t.vf", GOOD)
    plan = ["--calls", "200000", "--iterations", "2", "--warmup", "0"]
    s0 = path("s0.state")
    expect([src, "--task-init", s0] + plan, 0, "a task state")
    keep = snapshot(s0)
    expect([src, "--task-part", "0/2", "--state", s0, "--out", s0] + plan,
           USAGE, "--task-part --out the state", "is the state --state reads")
    intact(s0, keep, "--task-part --out s0")
    p0, p1 = path("p0.part"), path("p1.part")
    for i, p in ((0, p0), (1, p1)):
        expect([src, "--task-part", f"{i}/2", "--state", s0, "--out", p]
               + plan, 0, f"part {i}")
    keep_p0 = snapshot(p0)
    expect([src, "--task-merge", p0, p1, "--state", s0, "--out", p0] + plan,
           USAGE, "--task-merge --out a part", "is a part --task-merge reads")
    intact(p0, keep_p0, "--task-merge --out p0")
    expect([src, "--task-init", src] + plan, USAGE, "--task-init the source",
           "is the source file")


#===--------------------------------------------------------------------===#
# Event files: complete or absent, checked before the run
#===--------------------------------------------------------------------===#

def limited(args, **limits):
    """vegasc ARGS under resource limits (bytes), SIGXFSZ at its default
    (vegasc ignores it itself, so that a write past RLIMIT_FSIZE fails)."""
    def pre():
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
        for name, value in limits.items():
            resource.setrlimit(getattr(resource, name), (value, value))
    env = dict(os.environ, VF_CACHE_DIR=path("cache"))
    p = subprocess.run([hostile.EXE] + [str(a) for a in args], env=env,
                       capture_output=True, text=True, timeout=120,
                       preexec_fn=pre, stdin=subprocess.DEVNULL)
    return p


def lhe_complete(p, n):
    with open(p, "rb") as f:
        data = f.read()
    return (data.rstrip().endswith(b"</LesHouchesEvents>") and
            data.count(b"<event>") == n)


def events_streamed():
    ev = write("ev.vf", EVENTS)
    if sanitizer_runtime(hostile.EXE):
        print("skipped: ulimit -v under AddressSanitizer (its shadow memory "
              "alone reserves terabytes of address space)")
        return
    base = [ev, "--integrand", "ok", "--calls", "10000", "--iterations", "2",
            "--devices", "cpu:1", "-q"]
    out = path("limited.lhe")
    # The least address space a run with a few events needs, to 25 MiB.
    need = None
    for mib in range(150, 4000, 25):
        r = limited(base + ["--events", "100", "--events-out", out],
                    RLIMIT_AS=mib << 20)
        if r.returncode == 0:
            need = mib
            break
    if not check(need is not None, "a run with events under some ulimit -v"):
        return
    # 300,000 events: about 100 MB of text (its string would need twice
    # that) and 27 MB held as events; 120 MiB more fits the second only.
    n = 300000
    r = limited(base + ["--events", str(n), "--events-out", out],
                RLIMIT_AS=(need + 120) << 20)
    complete = os.path.exists(out) and lhe_complete(out, n)
    check((r.returncode == 0 and complete) or
          (r.returncode != 0 and not os.path.exists(out)),
          f"ulimit -v {need + 120} MiB, {n} events: a complete file or none "
          f"(exit {r.returncode}): {r.stderr.strip()[-300:]}")
    check(r.returncode == 0,
          "the events are streamed: the file fits where its text would not")
    os.remove(out) if os.path.exists(out) else None
    r = limited(base + ["--events", "20000", "--events-out", out],
                RLIMIT_FSIZE=1 << 20)
    check(r.returncode == INPUT and "cannot write the events file" in r.stderr
          and "Stack dump" not in r.stderr and "#0 " not in r.stderr
          and not os.path.exists(out) and
          not any(f.startswith("limited.lhe.tmp")
                  for f in os.listdir(hostile.workdir())),
          f"a write cut short (ulimit -f): exit 1, no file, no temporary "
          f"(exit {r.returncode}: {r.stderr.strip()[-300:]})")


def events_checked_before_the_run():
    ev = write("ev.vf", EVENTS)
    base = [ev, "--integrand", "ok"] + RUN
    expect(base + ["--events", "-5", "--events-out", path("e.lhe")], USAGE,
           "--events -5", "--events must be a whole number")
    fifo, folder = path("e.fifo.lhe"), path("e.dir.lhe")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    os.makedirs(folder, exist_ok=True)
    for what, out in (("a FIFO", fifo), ("a directory", folder),
                      ("a missing folder", path("no/such/e.lhe"))):
        r = expect(base + ["--events", "10", "--events-out", out], INPUT,
                   f"--events-out into {what}", "the events file")
        check("iteration" not in r.out.lower() and "|" not in r.out,
              f"--events-out into {what}: refused before the run")
    bad = write("bad_record.vf", "integrand ok(x in [0,1]^2) = x[0]\n"
                "integrand ok_event(x in [0,1]^2) -> [5] = [1,2,3,4,5]\n")
    r = expect([bad, "--integrand", "ok"] + RUN +
               ["--events", "10", "--events-out", path("e.lhe")], INPUT,
               "an event record of 5 values", "6 per particle")
    check("|" not in r.out, "a record of the wrong size: before the run")
    r = expect(base + ["--events", "1e15", "--events-out", path("e.lhe")],
               INPUT, "10^15 events", "need .* of memory", "--events")
    check("|" not in r.out, "10^15 events: refused before the run")


#===--------------------------------------------------------------------===#
# Components, ranges, scales and tiny values
#===--------------------------------------------------------------------===#

def values():
    wide = write("wide.vf", "integrand f(x in [0, 1]) -> [20] = "
                 "[" + ", ".join(["x[0]"] * 20) + "]\n")
    r = expect(["--check", wide], 0, "--check of a 20-component integrand")
    check("cannot be integrated" in r.out or "not be integrated" in r.out,
          f"--check says 20 components are not integrated: {r.out}")
    expect([wide] + RUN, INPUT, "integrating 20 components",
           "has 20 components; integration supports 1 to 16")
    hist = write("hist.vf", "integrand f(x in [0, 1]) {\n"
                 "  hist h(x[0], -1e308, 1e308, 10)\n  return 1\n}\n")
    expect(["--check", hist], INPUT, "a histogram range wider than a double",
           r"hist\.vf:2:.*hi - lo overflows")
    phist = write("phist.vf", "param w = 1\nintegrand f(x in [0, 1]) {\n"
                  "  hist h(x[0], -w, w, 10)\n  return 1\n}\n")
    expect([phist, "--param", "w=1e308"] + RUN, INPUT,
           "a parameter's histogram range wider than a double",
           r"phist\.vf:3:.*hi - lo overflows")
    expect(["--eval", phist, "--param", "w=1e308", "--at", "0.5"], INPUT,
           "--eval with a histogram range wider than a double",
           r"phist\.vf:3:.*hi - lo overflows")
    scale = write("scale.vf", "param s = 1\n"
                  "integrand f(x in [0, inf; s]) = exp(-x[0])\n")
    for s in ("0", "-1"):
        expect([scale, "--param", f"s={s}"] + RUN, INPUT,
               f"an infinite axis's scale {s} from a parameter",
               r"scale\.vf:2:.*scale .* must be positive and finite")
        expect([scale, "--param", f"s={s}", "--on-nonfinite=zero"] + RUN,
               INPUT, f"scale {s} with --on-nonfinite=zero", "scale")
    tiny_constants()


def tiny_constants():
    for dim in (1, 3):
        src = write(f"tiny{dim}.vf",
                    f"integrand f(x in [0, 1]^{dim}) = 1e-150\n")
        r = expect([src, "--json", "-", "-q"] + RUN, 0,
                   f"1e-150 in {dim} dimension(s)")
        try:
            doc = json.JSONDecoder().raw_decode(r.out)[0]
            mean, err = doc["result"]["mean"], doc["result"]["error"]
        except (ValueError, KeyError, TypeError):
            check(False, f"1e-150 in {dim}D: JSON result ({r.out[:200]})")
            continue
        check(abs(mean - 1e-150) <= 1e-163 and 0 < err < 1e-162,
              f"1e-150 in {dim}D: the value and the round-off floor as its "
              f"error (got {mean!r} +- {err!r})")
    sub = write("denormal.vf", "integrand f(x in [0, 1]^2) = 5e-324\n")
    expect([sub] + RUN, INPUT, "5e-324", "too small to integrate",
           "Rescale it")


#===--------------------------------------------------------------------===#
# Flags and keys whose odd values were taken
#===--------------------------------------------------------------------===#

def odd_values():
    src = write("odd.vf", GOOD)
    expect([src, "--max-iterations", "0", "--rtol", "1"] + RUN, USAGE,
           "--max-iterations 0", "--max-iterations must be a whole number "
           "from 1")
    r = expect([src, "--devices", "sim:1e-9"] + RUN, USAGE,
               "--devices sim:1e-9", "1e3 to 1e13 samples/s")
    for v in ("nan", "inf", "-inf"):
        expect([src, "--exact", v] + RUN, USAGE, f"--exact {v}",
               "--exact must be a finite number")
    flat = write("flat.vf", "param a = 1\n"
                 "integrand f(x in [0, 1]) = x[0] + 0 * a\n")
    write("logscan.toml", "[defaults]\ncalls = 2000\niterations = 2\n"
          "warmup = 1\n[[run]]\nfile = \"flat.vf\"\n"
          "scan = { a = { from = 1e-320, to = 1e308, steps = 3, "
          "log = true } }\n[[run]]\nfile = \"flat.vf\"\n"
          "scan = { a = { from = -1.7e308, to = 1.7e308, steps = 3 } }\n")
    r = expect([path("logscan.toml"), "--json", "-", "-q"], 0,
               "scans across the whole double range")
    # The points as numbers (a variance warning may say "infinite").
    points = [v for run in json.loads(r.out or "{}").get("runs", [])
              for v in run["point"].values()]
    check(len(points) == 6 and
          all(isinstance(v, float) and math.isfinite(v) for v in points),
          f"no scan point is inf: {points}")
    del flat
    if sanitizer_runtime(hostile.EXE):
        return
    # Below about 110 MB the system cannot load vegasc's image (LLVM and
    # Clang are linked in): the loader says so, or the kernel ends the
    # process before its first instruction (docs/user-guide.md, "Memory").
    # From there on it runs.
    r = limited(["--version"], RLIMIT_AS=128 << 20)
    check(r.returncode == 0 and r.stdout.startswith("vegasc "),
          f"vegasc --version under ulimit -v 131072 "
          f"(exit {r.returncode}: {r.stderr.strip()[-200:]})")


#===--------------------------------------------------------------------===#
# The C API: one call at a time per integrator
#===--------------------------------------------------------------------===#

def c_api_busy(lib_path):
    """A native integrand that holds the first vf_run inside itself until
    the other thread has tried: the second call meets a busy integrator
    whatever the machine's speed."""
    lib = ctypes.CDLL(lib_path)
    vp, dp = ctypes.c_void_p, ctypes.POINTER(ctypes.c_double)
    native = ctypes.CFUNCTYPE(None, dp, ctypes.c_int64, ctypes.c_int32, dp,
                              vp)
    lib.vf_integrator_create_native.argtypes = [
        ctypes.c_char_p, ctypes.c_int32, ctypes.c_int32, dp, dp, native, vp,
        vp, ctypes.POINTER(vp)]
    lib.vf_run.argtypes = [vp, ctypes.c_int32, ctypes.c_int64,
                           ctypes.c_int32]
    lib.vf_result.argtypes = [vp] + [dp] * 4
    lib.vf_last_error.restype = ctypes.c_char_p
    inside, tried = threading.Event(), threading.Event()

    def f(x, n, dim, out, user):
        inside.set()
        tried.wait(60)
        for k in range(n):
            out[k] = 1.0
    fn = native(f)
    lo, hi = (ctypes.c_double * 1)(0.0), (ctypes.c_double * 1)(1.0)
    it = vp()
    if not check(lib.vf_integrator_create_native(
            b"held", 1, 1, lo, hi, fn, None, None, ctypes.byref(it)) == 0,
            "C API: a native integrator"):
        return
    first = {}
    t = threading.Thread(target=lambda: first.setdefault(
        "rc", lib.vf_run(it, 1, 1000, 0)))
    t.start()
    if not check(inside.wait(60), "C API: the first vf_run is under way"):
        tried.set()
        t.join()
        return
    start = time.perf_counter()
    second = lib.vf_run(it, 1, 1000, 0)
    msg = lib.vf_last_error().decode()
    d = ctypes.c_double()
    third = lib.vf_result(it, ctypes.byref(d), None, None, None)
    took = time.perf_counter() - start
    tried.set()
    t.join()
    check(second == 4 and "busy" in msg,
          f"C API: vf_run during another thread's vf_run is VF_ERR_STATE "
          f"(got {second}: {msg})")
    check(third == 4, f"C API: vf_result during a run is VF_ERR_STATE "
          f"(got {third})")
    check(took < 5, f"C API: refused at once, not after a wait ({took:.1f} s)")
    check(first.get("rc") == 0, "C API: the first vf_run finished")
    check(lib.vf_run(it, 1, 1000, 0) == 0, "C API: free again afterwards")


def main():
    hostile.EXE = sys.argv[1]
    if len(sys.argv) > 2:
        preload_sanitizer(sys.argv[2])
    single_runs()
    batches()
    tasks()
    events_checked_before_the_run()
    events_streamed()
    values()
    odd_values()
    if len(sys.argv) > 2:
        c_api_busy(sys.argv[2])
    finish()


if __name__ == "__main__":
    main()
