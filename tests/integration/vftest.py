#===- tests/integration/vftest.py - Shared helpers for vegasc tests -------===#
#
# The integration tests drive the real `vegasc` binary the way a user does:
# a .vf file, command-line options, the JSON document (docs/json.md) and the
# exit code (docs/user-guide.md). This module runs vegasc, reads the test
# data (tests/testdata/known_integrals.toml) and reports failures uniformly.
#
# Compile cache: every test process uses a fresh cache folder below
# $VF_CACHE_DIR (set by CMake to a folder in the build tree), removed at
# exit. The cache key does not cover the embedded kernel bitcode, so a cache
# that outlives a rebuild could hand the tests a stale sampler; a fresh
# folder per process still lets the runs of one test share their compiles.
#
#===----------------------------------------------------------------------===#
import atexit
import ctypes
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib

_failures = []
_workdir = None


def workdir():
    """A private scratch folder (and compile cache) for this test process."""
    global _workdir
    if _workdir is None:
        base = os.environ.get("VF_CACHE_DIR")
        if base:
            os.makedirs(base, exist_ok=True)
        _workdir = tempfile.mkdtemp(prefix="vftest-", dir=base or None)
        atexit.register(shutil.rmtree, _workdir, True)
    return _workdir


def load_known(toml_path):
    with open(toml_path, "rb") as f:
        return tomllib.load(f)


def write_source(name, text):
    path = os.path.join(workdir(), name + ".vf")
    with open(path, "w") as f:
        f.write(text)
    return path


class Run:
    """One vegasc invocation: exit code, stdout, stderr, parsed JSON."""

    def __init__(self, args, rc, out, err, doc):
        self.args, self.rc, self.out, self.err, self.doc = args, rc, out, err, doc

    def __str__(self):
        return (f"vegasc {' '.join(self.args)}\n  exit {self.rc}\n"
                f"  stdout: {self.out[-2000:]}\n  stderr: {self.err[-2000:]}")


_counter = 0


def vegasc(exe, args, json_out=True, timeout=600):
    """Runs `exe args`; with json_out, adds --json FILE and parses it."""
    global _counter
    _counter += 1
    env = dict(os.environ)
    env["VF_CACHE_DIR"] = os.path.join(workdir(), "cache")
    args = [str(a) for a in args]
    jpath = None
    if json_out:
        jpath = os.path.join(workdir(), f"run{_counter}.json")
        args = args + ["--json", jpath]
    p = subprocess.run([exe] + args, capture_output=True, text=True, env=env,
                       timeout=timeout)
    doc = None
    if jpath and p.returncode == 0 and os.path.exists(jpath):
        with open(jpath) as f:
            doc = json.load(f)
        os.remove(jpath)
    return Run(args, p.returncode, p.stdout, p.stderr, doc)


def budget_args(entry, warmup=5):
    """The entry's budget: warm-up, then `iterations` x `calls`."""
    return ["--calls", entry["calls"], "--iterations", entry["iterations"],
            "--warmup", warmup]


def run_seed(exe, src, name, seed, args):
    """vegasc on SRC with --seed SEED and ARGS, quiet: the run, or None
    (a recorded failure) if it failed or wrote no JSON."""
    r = vegasc(exe, [src, "-q", "--seed", seed] + list(args))
    if not check(r.rc == 0 and r.doc is not None,
                 f"{name} seed {seed}: vegasc succeeds"):
        print(r)
        return None
    return r


def with_env(**kw):
    """Sets (or with None removes) environment variables for the next runs."""
    for k, v in kw.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = str(v)


def sanitizer_runtime(binary):
    """The AddressSanitizer runtime \p binary loads (the asan preset links
    the shared one), or None for an ordinary build."""
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    p = subprocess.run(["ldd", binary], capture_output=True, text=True,
                       env=env)
    m = re.search(r"=> (\S*libclang_rt\.asan[^ ]*\.so)", p.stdout)
    return m.group(1) if m else None


def preload_sanitizer(lib):
    """A script that loads a sanitized \p lib into this interpreter
    (ctypes) must have the sanitizer's runtime loaded first: re-runs the
    script with it preloaded, and Python's own leaks unreported (vegasc
    children inherit both, and still report every other error)."""
    rt = sanitizer_runtime(lib)
    if rt is None or rt in os.environ.get("LD_PRELOAD", ""):
        return
    env = dict(os.environ, LD_PRELOAD=rt,
               ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") +
               ":detect_leaks=0")
    sys.stdout.flush()
    os.execve(sys.executable, [sys.executable] + sys.argv, env)


def check(cond, what):
    """Records a failed expectation (the test keeps going, then fails)."""
    if cond:
        print(f"ok:   {what}")
    else:
        print(f"FAIL: {what}")
        _failures.append(what)
    return cond


def finish():
    if _failures:
        print(f"\n{len(_failures)} check(s) failed:")
        for f in _failures:
            print(f"  {f}")
        sys.exit(1)
    print("\nall checks passed")
    sys.exit(0)


def as_list(v):
    return v if isinstance(v, list) else [v]


def expect(exe, args, rc, what, *needles):
    """Runs vegasc; checks the exit code and that stderr matches each regex."""
    r = vegasc(exe, args, json_out=False)
    ok = check(r.rc == rc, f"{what}: exit {rc} (got {r.rc})")
    for n in needles:
        ok &= check(re.search(n, r.err) is not None,
                    f"{what}: message matches /{n}/")
    # The library's own spelling of an option ("option 'calls'") is for
    # its API users; vegasc says a flag, or names an API-only option
    # without suggesting one.
    ok &= check("option '" not in r.err,
                f"{what}: the message names options as flags")
    if not ok:
        print(r)
    return r


def mpirun(mpiexec, exe, args):
    """mpiexec -np 2 VEGASC args --json FILE: the parsed document, or None."""
    js = os.path.join(workdir(), "mpi2.json")
    p = subprocess.run([mpiexec, "--allow-run-as-root", "--oversubscribe",
                        "--mca", "mpi_yield_when_idle", "1", "-np", "2", exe]
                       + [str(a) for a in args] + ["--json", js],
                       capture_output=True, text=True, timeout=100)
    if p.returncode != 0 or not os.path.exists(js):
        print(p.stdout, p.stderr)
        return None
    with open(js) as f:
        return json.load(f)


def task_parts(exe, args, steps, stem):
    """The run as --task-init, then per iteration (`steps` of them, the
    warm-up's included) two parts merged in reverse order, the files
    STEM.*: the --task-result document, or None."""
    state = os.path.join(workdir(), f"{stem}.s0")
    runs = [vegasc(exe, args + ["--task-init", state], json_out=False)]
    for it in range(1, steps + 1):
        parts = [os.path.join(workdir(), f"{stem}.it{it}.p{i}")
                 for i in (0, 1)]
        for i, out in enumerate(parts):
            runs.append(vegasc(exe, args + ["--task-part", f"{i}/2", "--state",
                                            state, "--out", out],
                               json_out=False))
        nxt = os.path.join(workdir(), f"{stem}.s{it}")
        runs.append(vegasc(exe, args + ["--task-merge"] + parts[::-1] +
                           ["--state", state, "--out", nxt], json_out=False))
        state = nxt
    result = vegasc(exe, args + ["--task-result", "--state", state])
    bad = [r for r in runs + [result] if r.rc != 0]
    if bad:
        print(bad[0])
        return None
    return result.doc


class CapiOptions(ctypes.Structure):
    """vf_options of the C API (vf/vf_c.h), for tests that load the
    library with ctypes."""
    _fields_ = [("seed", ctypes.c_uint64), ("max_hcube", ctypes.c_uint64),
                ("alpha", ctypes.c_double), ("beta", ctypes.c_double),
                ("max_ninc", ctypes.c_int32), ("threads", ctypes.c_int32),
                ("nonfinite_zero", ctypes.c_int32),
                ("precision", ctypes.c_int32)]
