#!/usr/bin/env python3
"""Single precision (--precision f32) through every door vegasc has.

    precision.py VEGASC-EMU LIBFAKECUDA KNOWN_INTEGRALS.toml LIBVEGASFLOW
                 [MPIEXEC]

For every known integral, in single precision:
  - accuracy: |I - exact| < 5 sigma at a tenth of the table's calls (at
    most 20000), sigma including single precision's round-off floor;
  - bitwise: one CPU thread, two threads, two fake GPUs and a CPU thread
    beside a GPU give the same bits, which are not the double run's
    (the integrand really ran in float); the same for a multi-channel
    integrand (examples/physics/dalitz_two_resonances.vf).
Schedules, task parts merged in reverse order and (with MPIEXEC) two MPI
ranks give one thread's bits in f32 too. And the doors: the JSON's `precision`, the table's note, the settings;
a TOML run; the C API's vf_options.precision; a value that is neither
f64 nor f32 refused at each; the warning for an rtol below the floor;
--emit llvm in single precision; the sample path's floats (a box too
wide for them refused, a NaN's point as the float path drew it).
"""
import ctypes
import math
import os
import re
import struct
import sys

from vftest import CapiOptions, as_list, check, expect, finish, load_known, \
    mpirun, task_parts, vegasc, with_env, workdir, write_source

TINY = ["--calls", 4000, "--iterations", 2, "--warmup", 1]


def fingerprint(doc):
    res = doc["result"]
    return (res["mean"], res["error"],
            [(it["mean"], it["error"]) for it in doc["iterations"]])


def accuracy(exe, name, entry, src):
    calls = min(20000, entry["calls"] // 10)
    r = vegasc(exe, [src, "-q", "--seed", 1, "--precision", "f32",
                     "--devices", "cpu:2", "--calls", calls,
                     "--iterations", entry["iterations"], "--warmup", 5])
    if not check(r.rc == 0 and r.doc, f"{name}: f32 run succeeds"):
        print(r)
        return
    res = r.doc["result"]
    check(res.get("precision") == "f32", f"{name}: JSON precision f32")
    means, errors = as_list(res["mean"]), as_list(res["error"])
    floors = as_list(res["roundoff_floor"])
    for c, (m, e, x, fl) in enumerate(zip(means, errors,
                                          as_list(entry["exact"]), floors)):
        d = abs(m - x) / e if e > 0 else math.inf
        check(d < 5, f"{name}[{c}]: |I - exact| = {d:.2f} sigma < 5 in f32")
        # floor = sqrt(d + 2) 2^-23 |I|: d + 2 a whole number above 2.
        d2 = (fl / (2.0**-23 * abs(m)))**2
        check(d2 > 2.5 and abs(d2 - round(d2)) < 1e-6,
              f"{name}[{c}]: round-off floor sqrt(d + 2) 2^-23 |I| "
              f"(d + 2 = {d2:.6f})")


def bitwise(exe, name, src, extra=()):
    base = [src, "-q", "--seed", 3] + list(extra) + TINY
    ref = vegasc(exe, base + ["--precision", "f32", "--devices", "cpu:1"])
    if not check(ref.rc == 0 and ref.doc, f"{name}: f32 on one thread"):
        print(ref)
        return
    for devs in ("cpu:2", "gpu", "cpu:1,gpu:0"):
        r = vegasc(exe, base + ["--precision", "f32", "--devices", devs])
        ok = r.rc == 0 and r.doc and fingerprint(r.doc) == fingerprint(
            ref.doc)
        if not check(ok, f"{name}: f32 on {devs} bitwise one thread's"):
            print(r)
    dbl = vegasc(exe, base + ["--devices", "cpu:1"])
    check(dbl.rc == 0 and dbl.doc and
          dbl.doc["result"]["mean"] != ref.doc["result"]["mean"],
          f"{name}: f32 and f64 differ (the integrand ran in float)")


def engines(exe, src, mpiexec):
    """Schedules, task parts and MPI ranks in f32: one thread's bits."""
    # Enough tiles for two task parts.
    base = [src, "-q", "--seed", 3, "--precision", "f32", "--calls", 100000,
            "--iterations", 2, "--warmup", 1]
    ref = vegasc(exe, base + ["--devices", "cpu:1"])
    if not check(ref.rc == 0 and ref.doc, "f32 reference run"):
        return
    for sched in ("static", "dynamic:3"):
        r = vegasc(exe, base + ["--devices", "cpu:2", "--schedule", sched])
        check(r.rc == 0 and r.doc and fingerprint(r.doc) ==
              fingerprint(ref.doc), f"f32 --schedule {sched}: bitwise")
    # The warm-up iteration and the two measured ones.
    doc = task_parts(exe, base + ["--devices", "cpu:1"], 3, "f32")
    check(doc is not None and fingerprint(doc) == fingerprint(ref.doc),
          "f32 task parts merged in reverse order: bitwise")
    if mpiexec:
        doc = mpirun(mpiexec, exe, base + ["--devices", "cpu:1"])
        check(doc is not None and fingerprint(doc) == fingerprint(ref.doc),
              "f32 on 2 MPI ranks: bitwise")


def doors(exe, src, lib):
    r = vegasc(exe, [src, "--precision", "f32", "--devices", "cpu:2"] + TINY)
    check(r.rc == 0 and "precision: f32" in r.out,
          "the table notes the precision")
    check(r.doc and r.doc["settings"].get("precision") == "f32",
          "the JSON settings record the precision")
    expect(exe, [src, "--precision", "f16"], 2, "--precision f16",
           r"--precision", r"f16", r"f64.*f32")
    expect(exe, [src, "--precision", "f16", "--eval", "--at", "0.5,0.5"], 2,
           "--eval --precision f16", r"--precision")
    r = vegasc(exe, [src, "-q", "--precision", "f32", "--rtol", "1e-9",
                     "--max-iterations", 2, "--calls", 2000], json_out=False)
    check(r.rc == 0 and "warning" in r.err and "single precision" in r.err
          and "rtol" in r.err, "an rtol below the f32 floor warns")
    r = vegasc(exe, [src, "-q", "--precision", "f32", "--rtol", "1e-3",
                     "--max-iterations", 2, "--calls", 2000], json_out=False)
    check(r.rc == 0 and "single precision" not in r.err,
          "an rtol above the floor does not")
    r = vegasc(exe, [src, "--emit", "llvm", "--precision", "f32"],
               json_out=False)
    check(r.rc == 0 and "fptrunc" in r.out and " float " in r.out,
          "--emit llvm --precision f32 computes in float")
    # vegasc compiles the single-precision code alone: one cold compile.
    r = vegasc(exe, [src, "-q", "-v", "--precision", "f32", "--devices",
                     "cpu:1", "--cache-dir",
                     os.path.join(workdir(), "cold-cache")] + TINY,
               json_out=False)
    check(r.rc == 0 and "cache: 0 hits, 1 miss" in r.err,
          "--precision f32 compiles its code alone (one cold compile)")
    lossy(exe)
    sample_path(exe)
    toml(exe, src)
    c_api(lib, src)


def lossy(exe):
    """A constant a float cannot hold is refused at its place."""
    for text, value, becomes in [("1 + x[0] * 1e-50", "1e-50", "0"),
                                 ("x[0] + 4e38", "4e+38", "infinite")]:
        src = write_source("lossy", f"integrand f(x in [0, 1]^2) = {text}\n")
        expect(exe, [src, "--precision", "f32"], 1, f"f32 with {text}",
               r"lossy\.vf:1:\d+: the constant " + re.escape(value) +
               " is " + becomes + " in single precision", r"precision f64")
        r = vegasc(exe, [src, "-q"] + TINY)
        check(r.rc == 0, f"f64 with {text} runs")


def sample_path(exe):
    """The points are floats: a box a float cannot hold is refused, and a
    non-finite value's message names the x the float path drew."""
    src = write_source("wide", "integrand f(x in [0, 1e39]) = 1\n")
    expect(exe, [src, "--precision", "f32", "--calls", 1000], 1,
           "f32 with a box wider than a float", r"x\[0\]",
           r"wider than a float \(3\.4e38, single precision\)", r"Rescale")
    src = write_source("tiny", "integrand f(x in [0, 1e-20]^2) = 1\n")
    expect(exe, [src, "--precision", "f32", "--calls", 1000], 1,
           "f32 with a box of volume 1e-40", r"volume",
           r"below the normal range of a float", r"Rescale")
    r = vegasc(exe, [src, "-q", "--calls", 1000, "--iterations", 1])
    check(r.rc == 0, "f64 with a box of volume 1e-40 runs")
    src = write_source("nan", "integrand f(x in [0.1, 1]^2) = "
                       "if x[0] < 0.5 then sqrt(x[0] - 1) else 1\n")
    points = {}
    for precision in ("f32", "f64"):
        r = vegasc(exe, [src, "-q", "--calls", 1000, "--precision", precision,
                         "--on-nonfinite", "stop"], json_out=False)
        m = re.search(r"is -?nan at x = \[([^\]]*)\]", r.err)
        if check(r.rc == 1 and m, f"{precision}: a NaN names its point"):
            points[precision] = [float(v) for v in m.group(1).split(",")]
    floats = [struct.unpack("f", struct.pack("f", v))[0] == v
              for v in points.get("f32", [math.pi])]
    check(all(floats), "f32: the NaN's x is the float the kernel drew "
          f"({points.get('f32')})")
    check(points.get("f64") and not all(
        struct.unpack("f", struct.pack("f", v))[0] == v
        for v in points["f64"]), "f64: the NaN's x is a double")


def toml(exe, src):
    path = os.path.join(workdir(), "runs.toml")
    out = os.path.join(workdir(), "runs.json")
    with open(path, "w") as f:
        f.write(f'[defaults]\nprecision = "f32"\ncalls = 4000\n'
                f'iterations = 2\nwarmup = 1\noutput = "{out}"\n\n'
                f'[[run]]\nname = "one"\nfile = "{src}"\n')
    r = vegasc(exe, [path, "-q"], json_out=False)
    text = open(out).read() if os.path.exists(out) else ""
    check(r.rc == 0 and '"precision": "f32"' in text.replace('":"', '": "'),
          'a TOML run with precision = "f32" runs in f32')
    with open(path, "w") as f:
        f.write(f'[[run]]\nname = "one"\nfile = "{src}"\n'
                'precision = "half"\n')
    expect(exe, [path], 1, 'TOML precision = "half"', r"precision",
           r"half")


def c_run(lib, mod, precision):
    o = CapiOptions()
    lib.vf_options_default(ctypes.byref(o))
    check(o.precision == 64, "C API: vf_options_default gives 64")
    o.precision, o.threads = precision, 2
    it = ctypes.c_void_p()
    rc = lib.vf_integrator_create(mod, None, ctypes.byref(o),
                                  ctypes.byref(it))
    if rc != 0:
        return rc, lib.vf_last_error().decode(), None
    rc = lib.vf_run(it, 3, 4000, 1)
    mean, err, chi2, q = (ctypes.c_double() for _ in range(4))
    lib.vf_result(it, ctypes.byref(mean), ctypes.byref(err),
                  ctypes.byref(chi2), ctypes.byref(q))
    lib.vf_integrator_free(it)
    return rc, "", mean.value


def c_api(path, src):
    lib = ctypes.CDLL(path)
    lib.vf_last_error.restype = ctypes.c_char_p
    lib.vf_run.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int64,
                           ctypes.c_int32]
    mod = ctypes.c_void_p()
    if not check(lib.vf_compile_file(src.encode(), ctypes.byref(mod)) == 0,
                 "C API: compiles"):
        return
    rc32, _, m32 = c_run(lib, mod, 32)
    rc64, _, m64 = c_run(lib, mod, 64)
    check(rc32 == 0 and rc64 == 0 and m32 != m64,
          f"C API: precision 32 runs in float ({m32} vs {m64})")
    rc, msg, _ = c_run(lib, mod, 16)
    check(rc != 0 and "precision" in msg and "16" in msg,
          f"C API: precision 16 refused ({msg})")
    lib.vf_module_free(mod)


def main(exe, fake, known, lib, mpiexec=None):
    with_env(VF_CUDA_LIBRARY=fake, VF_FAKE_CUDA_DEVICES=2)
    entries = load_known(known)
    for name, entry in entries.items():
        src = write_source(name, entry["source"])
        accuracy(exe, name, entry, src)
        bitwise(exe, name, src)
    # A multi-channel integrand: every channel's pass in float.
    dalitz = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                          "..", "examples", "physics",
                          "dalitz_two_resonances.vf")
    bitwise(exe, "dalitz (channels)", dalitz, ["--integrand", "dalitz"])
    lepage4 = write_source("lepage4", entries["lepage4"]["source"])
    engines(exe, lepage4, mpiexec)
    doors(exe, lepage4, lib)
    finish()


if __name__ == "__main__":
    main(*sys.argv[1:6])
