#!/usr/bin/env python3
#===- tests/integration/hostile.py - Hostile input to vegasc's doors ------===#
#
# Usage: hostile.py VEGASC [LIBVEGASFLOW]
#
# What a hostile but fair new user feeds the driver and the front end, by
# class rather than by example (issue 14): malformed sources and TOML
# files, files that are not regular files (FIFO, device, directory,
# /dev/zero, /proc/self/mem) wherever a file is read, huge, negative and
# non-finite values of every numeric flag and TOML key, empty strings for
# every path flag, outputs that are not regular files, a full disk (a small
# tmpfs; skipped with a message where it cannot be mounted), standard output
# to /dev/full, and the unbounded inputs (exponential inlining, huge scans,
# 100,000 lets). Each case asserts the exit code, the message, that nothing
# hangs (a timeout fails the case) and that no existing file or node was
# damaged or replaced. With LIBVEGASFLOW, the C API's messages too.
#
#===----------------------------------------------------------------------===#
import ctypes
import os
import re
import shutil
import stat
import subprocess
import sys

from vftest import check, finish, preload_sanitizer, workdir

EXE = None
TIMEOUT = 20  # seconds: a case that takes longer is a hang
RUN_ARGS = ["--calls", "2000", "--iterations", "2", "--warmup", "1"]


class Res:
    def __init__(self, rc, out, err):
        self.rc, self.out, self.err = rc, out, err


def run(args, stdout=None, timeout=TIMEOUT, cwd=None):
    """vegasc ARGS; rc -1 when it had to be killed (a hang)."""
    env = dict(os.environ)
    env["VF_CACHE_DIR"] = os.path.join(workdir(), "cache")
    try:
        p = subprocess.run([EXE] + [str(a) for a in args], env=env, cwd=cwd,
                           stdout=stdout if stdout else subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return Res(-1, "", "timed out")
    out = p.stdout.decode(errors="replace") if p.stdout is not None else ""
    return Res(p.returncode, out, p.stderr.decode(errors="replace"))


def aborted(err):
    """An abort, an uncaught exception or a sanitizer's report (the asan
    preset's build exits 1 on one, which an expected exit 1 would hide)."""
    return re.search(r"LLVM ERROR|terminate called|Sanitizer|runtime error:",
                     err) is not None


def expect(args, rc, what, *needles, **kw):
    r = run(args, **kw)
    ok = check(r.rc == rc, f"{what}: exit {rc} (got {r.rc})")
    for n in needles:
        ok &= check(re.search(n, r.err) is not None,
                    f"{what}: message matches /{n}/")
    ok &= check(not aborted(r.err), f"{what}: no abort")
    ok &= check("option '" not in r.err,
                f"{what}: the message names options as flags")
    if not ok:
        print(f"  vegasc {' '.join(map(str, args))}\n  stderr: {r.err[-1500:]}")
    return r


def path(name):
    return os.path.join(workdir(), name)


def write(name, text, mode="w"):
    p = path(name)
    with open(p, mode) as f:
        f.write(text)
    return p


def snapshot(p):
    """What must not change about a node: its type and, for a file, bytes."""
    st = os.lstat(p)
    data = None
    if stat.S_ISREG(st.st_mode):
        with open(p, "rb") as f:
            data = f.read()
    return (stat.S_IFMT(st.st_mode), st.st_rdev, data)


def nodes():
    """Non-regular nodes to read from and write to: a FIFO, a directory, a
    character device (made here when root, so that no real device is ever
    at risk; /dev/null otherwise only for reading), by name."""
    n = {}
    fifo = path("a.fifo")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    n["fifo"] = fifo
    d = path("a_dir.vf")
    os.makedirs(d, exist_ok=True)
    n["directory"] = d
    dev = path("full.dev")
    if not os.path.exists(dev):
        try:
            os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
        except (PermissionError, OSError):
            dev = None
    if dev:
        n["device"] = dev
    return n


#===--------------------------------------------------------------------===#
# Inputs
#===--------------------------------------------------------------------===#

GOOD = "param a = 1\nintegrand f(x in [0, 1]^2) = a * x[0] * x[1]\n"

MALFORMED_SOURCES = {
    "garbage": b"\x00\x01\x02\xff\xfe integrand",
    "nul in a name": b"integrand f\x00(x in [0, 1]) = x\n",
    "missing brace": b"integrand f(x in [0, 1]) {\n let a = x\n return a\n",
    "unterminated string": b'import "std/genz\nintegrand f(x in [0,1]) = x\n',
    "huge literal": b"integrand f(x in [0, 1]) = 1e999 * x\n",
    "huge dimension": b"integrand f(x in [0, 1]^99999999999) = 1\n",
    "negative dimension": b"integrand f(x in [0, 1]^-3) = 1\n",
    "deep nesting": b"integrand f(x in [0, 1]) = " + b"(" * 5000 + b"x" +
                    b")" * 5000 + b"\n",
    "long chain": b"integrand f(x in [0, 1]) = " + b" + ".join(
        [b"x"] * 5000) + b"\n",
    "bound on the variable": b"integrand f(x in [0, 1] * [0, x[0]]) = 1\n",
    "recursion": b"fn g(a) = g(a)\nintegrand f(x in [0, 1]) = g(x)\n",
    "unknown name": b"integrand f(x in [0, 1]) = y\n",
    "utf-8 in a name": "integrand f(x in [0, 1]) = \u00b5 * x\n".encode(),
}


def malformed_sources():
    for what, data in MALFORMED_SOURCES.items():
        p = write("bad.vf", data, "wb")
        for mode in (["--check"], []):
            r = run(mode + [p] + RUN_ARGS)
            check(r.rc in (1, 2) and r.rc != -1,
                  f"source with {what} ({' '.join(mode) or 'integrate'}): "
                  f"refused, exit {r.rc}")
            check(not aborted(r.err) and re.search(r"error", r.err),
                  f"source with {what}: an error message, no abort")
    # A byte-order mark before the text is skipped.
    p = write("bom.vf", b"\xef\xbb\xbf" + GOOD.encode(), "wb")
    expect(["--check", p], 0, "a byte-order mark before the text")


def non_regular_inputs(n):
    readers = {
        "--check": lambda f: ["--check", f],
        "integrate": lambda f: [f] + RUN_ARGS,
        "--emit=tokens": lambda f: ["--emit=tokens", f],
        "--emit=ast": lambda f: ["--emit=ast", f],
        "--eval": lambda f: ["--eval", f, "--at", "0.5,0.5"],
    }
    srcs = dict(n)
    srcs.pop("device", None)  # a made device is only written to
    srcs["/dev/zero"] = "/dev/zero"
    srcs["/dev/null"] = "/dev/null"
    srcs["/proc/self/mem"] = "/proc/self/mem"
    for kind, f in srcs.items():
        for mode, args in readers.items():
            r = expect(args(f), 1, f"{kind} as a source ({mode})",
                       re.escape(f"cannot read '{f}'"))
            check("ok (" not in r.out, f"{kind} as a source: never 'ok'")
    # An import of each, through a link named .vf.
    for kind, f in srcs.items():
        link = path(f"imp_{kind.strip('/').replace('/', '_')}.vf")
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(f, link)
        src = write("importer.vf", f'import "{os.path.basename(link)}"\n'
                    + GOOD)
        expect(["--check", src], 1, f"import of {kind}",
               r"importer\.vf:1:8: error: cannot import")
    # A batch file, and a batch's `file`, of each.
    for kind, f in srcs.items():
        link = path(f"batch_{kind.strip('/').replace('/', '_')}.toml")
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(f, link)
        expect([link], 1, f"{kind} as the batch file",
               re.escape(f"cannot read '{link}'"))
        toml = write("runs.toml", f'[[run]]\nfile = "{f}"\ncalls = 2000\n'
                     'iterations = 1\nwarmup = 0\n')
        expect([toml], 1, f"{kind} as a batch's file", "cannot read")


def malformed_toml():
    cases = {
        "syntax": "[[run]\nfile = 'a.vf'\n",
        "wrong type": "[[run]]\nfile = 3\n",
        "unknown key": "[[run]]\nfiel = 'a.vf'\n",
        "run not a table": "run = 3\n",
        "garbage": "\x00\x01\x02",
        "no runs": "[defaults]\ncalls = 1000\n",
        "scan not a table": "[[run]]\nfile = 'a.vf'\nscan = 3\n",
        "nested arrays": "[[run]]\nfile = 'a.vf'\nscan = { a = [[1]] }\n",
    }
    for what, text in cases.items():
        p = write("bad.toml", text)
        expect([p], 1, f"TOML with {what}", "error")


#===--------------------------------------------------------------------===#
# Values
#===--------------------------------------------------------------------===#

HUGE = ["-1", "-1e23", "1e999", "-inf", "nan", "18446744073709551616",
        "0x10", "1e", "+-3"]
# Values each numeric flag must refuse besides HUGE (which all refuse).
NUMERIC_FLAGS = {
    "--calls": ["0", "1", "1.5", "1e19"],
    "--iterations": ["0", "1.5", "4294967296", "2000000"],
    "--warmup": ["1.5", "4294967296", "2000000"],
    "--seed": ["1.5", "9223372036854775808", "1e23"],
    "--ninc": ["0", "1", "1.5", "1e9"],
    "--alpha": ["1e400"],
    "--beta": ["2", "1e308"],
    "--error-limit": ["1.5", "4294967296"],
}


def numeric_flags(src):
    keep = write("keep.json", '{"old": true}\n')
    before = snapshot(keep)
    for flag, extra in NUMERIC_FLAGS.items():
        for v in HUGE + extra:
            if flag == "--alpha" and v in ("0x10", "18446744073709551616"):
                continue  # any alpha >= 0 is the library's to judge
            r = expect([src, f"{flag}={v}", "--json", keep] + ["-q"], 2,
                       f"{flag} {v}", re.escape(flag))
            check(snapshot(keep) == before,
                  f"{flag} {v}: the --json file is untouched")
    for flag, v in (("--schedule", "dynamic:-1"), ("--schedule", "dynamic:0"),
                    ("--schedule", "dynamic:+3"),
                    ("--schedule", "dynamic:99999999999999999999999"),
                    ("--devices", "cpu:-1"), ("--devices", "cpu:1e3"),
                    ("--devices", "sim:-1"), ("--devices", "sim:1e999"),
                    ("--devices", "sim:nan"), ("--on-nonfinite", "")):
        expect([src, f"{flag}={v}", "-q"], 2, f"{flag} {v}", re.escape(flag))
    for v in ("1e999", "-inf", "nan", "0x10", ""):
        expect([src, "--param", f"a={v}", "-q"], 2, f"--param a={v}",
               "--param")
        expect(["--eval", src, "--at", f"0.5,{v}"], 2, f"--at 0.5,{v}",
               "--at")


TOML_KEYS = {
    "calls": ["-1", "0", "1.5", "1e19", "inf", "nan", "'x'"],
    "iterations": ["-1", "0", "1.5", "4294967296", "inf", "'x'"],
    "warmup": ["-1", "1.5", "4294967296", "2000000", "'x'"],
    "seed": ["-1", "1.5", "1e23", "'x'"],
    "ninc": ["-1", "0", "1", "1e9", "'x'"],
    "alpha": ["-1", "inf", "nan", "'x'"],
    "beta": ["-1", "2", "inf", "'x'"],
    "schedule": ["'dynamic:-1'", "'dynamic:0'", "'bogus'", "3"],
    "devices": ["'cpu:-1'", "'sim:-1'", "''", "3"],
    "on_nonfinite": ["'maybe'", "''", "1"],
}


def toml_values():
    write("t.vf", GOOD)
    for key, values in TOML_KEYS.items():
        for v in values:
            for table in ("[defaults]", "[[run]]\nfile = 't.vf'"):
                body = f"{table}\n{key} = {v}\n"
                if table == "[defaults]":
                    body += "[[run]]\nfile = 't.vf'\n"
                p = write("v.toml", body)
                expect([p], 1, f"TOML {key} = {v} in {table.split()[0]}",
                       rf"v\.toml:\d+:\d+: error: .*'?{key}")
    # A parameter's value.
    for v in ("inf", "nan", "'x'"):
        p = write("v.toml", f"[[run]]\nfile = 't.vf'\nparams = {{ a = {v} }}\n")
        expect([p], 1, f"TOML params a = {v}", r"v\.toml:3:\d+: error: 'a'")


PATH_FLAGS = ["--json", "--checkpoint", "--resume", "--save-grid",
              "--load-grid", "--config", "--cache-dir", "--csv",
              "--hist-csv", "--events-out", "--report"]


def empty_paths(src):
    for flag in PATH_FLAGS:
        expect([src, flag, ""] + RUN_ARGS, 2, f"{flag} ''",
               re.escape(flag) + ": needs a file name")
    expect([""] + RUN_ARGS, 2, "an empty file name", "needs a file name")


#===--------------------------------------------------------------------===#
# Outputs
#===--------------------------------------------------------------------===#


def non_regular_outputs(src, n):
    write("t.vf", GOOD)
    for kind, node in n.items():
        for flag in ("--json", "--checkpoint", "--save-grid"):
            before = snapshot(node)
            r = expect([src, flag, node] + RUN_ARGS, 1, f"{kind} as {flag}",
                       re.escape(flag) + ": cannot write",
                       "outputs replace only regular files")
            check("result =" not in r.out, f"{kind} as {flag}: refused "
                  "before the run")
            check(snapshot(node) == before, f"{kind} as {flag}: not replaced")
        for key in ("output", "csv"):
            before = snapshot(node)
            p = write("o.toml", f"[defaults]\n{key} = '{node}'\n"
                      "[[run]]\nfile = 't.vf'\ncalls = 2000\n"
                      "iterations = 1\nwarmup = 0\n")
            expect([p], 1, f"{kind} as a batch's {key}",
                   f"'{key}' in \\[defaults\\]: cannot write")
            check(snapshot(node) == before,
                  f"{kind} as a batch's {key}: not replaced")
        before = snapshot(node)
        p = write("o.toml", "[[run]]\nfile = 't.vf'\ncalls = 2000\n"
                  "iterations = 1\nwarmup = 0\n")
        expect([p, "--csv", node], 1, f"{kind} as --csv", "--csv: cannot")
        check(snapshot(node) == before, f"{kind} as --csv: not replaced")
    expect([src, "--json", path("no/such/dir/r.json")] + RUN_ARGS, 1,
           "--json in a missing folder", "--json: cannot write")


def stdout_full(src):
    with open("/dev/full", "w") as full:
        for args, what in (([src] + RUN_ARGS, "the table"),
                           ([src, "--json", "-"] + RUN_ARGS, "--json -"),
                           (["--check", src], "--check"),
                           (["--emit=ast", src], "--emit=ast"),
                           (["--eval", src, "--at", "0.5,0.5"], "--eval")):
            r = expect(args, 1, f"{what} to a full standard output",
                       "cannot write (the JSON result to )?standard output",
                       stdout=full)
            check(r.err.count("standard output") == 1,
                  f"{what} to a full standard output: said once")


def mount_small_tmpfs():
    mnt = path("small")
    os.makedirs(mnt, exist_ok=True)
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs",
                        mnt], capture_output=True, text=True)
    if p.returncode != 0:
        print(f"skip: full-disk cases need a small tmpfs, and mount said: "
              f"{p.stderr.strip() or p.returncode}")
        return None
    return mnt


def full_disk(src):
    mnt = mount_small_tmpfs()
    if not mnt:
        return
    try:
        old = os.path.join(mnt, "r.json")
        with open(old, "w") as f:
            f.write('{"old": true}\n')
        with open(os.path.join(mnt, "fill"), "wb") as f:
            try:
                f.write(b"\0" * (128 << 10))
            except OSError:
                pass
        before = snapshot(old)
        grid = path("healthy.grid")
        if os.path.exists(grid):
            os.remove(grid)
        r = expect([src, "--json", old, "--save-grid", grid] + RUN_ARGS, 1,
                   "--json on a full disk", "cannot write the JSON result",
                   "No space left")
        check("result =" in r.out, "--json on a full disk: the result line "
              "is printed")
        check(snapshot(old) == before, "--json on a full disk: the old file "
              "is intact")
        check(os.path.exists(grid), "--json on a full disk: --save-grid on a "
              "healthy disk is still written")
        check(not [x for x in os.listdir(mnt) if ".tmp." in x],
              "--json on a full disk: no temporary left behind")
        ok_json = path("healthy.json")
        r = expect([src, "--save-grid", os.path.join(mnt, "g.grid"),
                    "--json", ok_json] + RUN_ARGS, 1,
                   "--save-grid on a full disk", "No space left")
        check("result =" in r.out and os.path.exists(ok_json),
              "--save-grid on a full disk: the result line and --json are "
              "still written")
        # A batch: its JSON on the full disk, its CSV elsewhere.
        write("t.vf", GOOD)
        csv = path("healthy.csv")
        if os.path.exists(csv):
            os.remove(csv)
        p = write("o.toml", f"[defaults]\noutput = '{old}'\n[[run]]\n"
                  "file = 't.vf'\ncalls = 2000\niterations = 1\nwarmup = 0\n")
        expect([p, "--csv", csv], 1, "a batch's output on a full disk",
               "cannot write the JSON results", "No space left")
        check(snapshot(old) == before, "a batch's output on a full disk: the "
              "old file is intact")
        check(os.path.exists(csv), "a batch's output on a full disk: its CSV "
              "on a healthy disk is written")
    finally:
        subprocess.run(["umount", mnt])


#===--------------------------------------------------------------------===#
# Unbounded inputs
#===--------------------------------------------------------------------===#


def unbounded():
    src = "fn f0(a) = a\n" + "".join(
        f"fn f{i}(a) = f{i - 1}(a) + f{i - 1}(a)\n" for i in range(1, 40)) + \
        "integrand g(x in [0, 1]) = f39(x)\n"
    p = write("exp.vf", src)
    for mode in (["--check"], [], ["--emit=llvm"]):
        expect(mode + [p] + RUN_ARGS, 1, f"exponential inlining "
               f"({' '.join(mode) or 'integrate'})",
               r"exp\.vf:41:28: error: .*f39 -> f38")
    write("five.vf", "param a = 1\nparam b = 1\nparam c = 1\nparam d = 1\n"
          "param e = 1\nintegrand f(x in [0, 1]) = a * b * c * d * e * x\n")
    axes = ", ".join(f"{k} = {{ from = 1, to = 2, steps = 1000 }}"
                     for k in "abcde")
    p = write("scan.toml", f"[[run]]\nfile = 'five.vf'\nscan = {{ {axes} }}\n")
    expect([p], 1, "a scan of 10^15 runs", r"scan\.toml:3:8: error: the scan "
           r"expands to 1000000000000000 runs", "at most 100000")
    lets = "integrand f(x in [0, 1]) {\n" + "".join(
        f"  let u{i} = x\n" for i in range(100000)) + "  return x\n}\n"
    p = write("lets.vf", lets)
    r = expect(["--check", p], 0, "100,000 unused lets")
    check(r.err.count("warning:") == 20 and
          "99980 more warnings like 'unused let ...'" in r.err,
          "100,000 unused lets: 20 warnings and one line for the rest")


#===--------------------------------------------------------------------===#
# The C API
#===--------------------------------------------------------------------===#


def c_api(lib_path, n):
    lib = ctypes.CDLL(lib_path)
    lib.vf_compile_file.argtypes = [ctypes.c_char_p,
                                    ctypes.POINTER(ctypes.c_void_p)]
    lib.vf_last_error.restype = ctypes.c_char_p
    for what, f in (("a missing file", path("missing.vf")),
                    ("/dev/zero", "/dev/zero"), ("a FIFO", n["fifo"]),
                    ("a directory", n["directory"])):
        m = ctypes.c_void_p()
        rc = lib.vf_compile_file(f.encode(), ctypes.byref(m))
        msg = lib.vf_last_error().decode()
        check(rc != 0 and msg.startswith(f"cannot read '{f}'"),
              f"C API, {what}: an error code and '{msg.strip()}' without "
              f"vegasc's heading")


def main():
    global EXE
    EXE = sys.argv[1]
    if len(sys.argv) > 2:
        preload_sanitizer(sys.argv[2])  # the C API part loads it by ctypes
    n = nodes()
    if "device" not in n:
        print("skip: no character device could be made here (not root); "
              "device outputs are not tried")
    src = write("good.vf", GOOD)
    malformed_sources()
    non_regular_inputs(n)
    malformed_toml()
    numeric_flags(src)
    toml_values()
    empty_paths(src)
    non_regular_outputs(src, n)
    stdout_full(src)
    full_disk(src)
    unbounded()
    if len(sys.argv) > 2:
        c_api(sys.argv[2], n)
    finish()


if __name__ == "__main__":
    main()
