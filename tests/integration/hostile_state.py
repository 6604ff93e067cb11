#===- tests/integration/hostile_state.py - Hostile input, runtime side ----===#
#
# The runtime's classes of issue 14 end to end, through vegasc, a TOML batch
# and the C API (libvegasflow.so through ctypes): damaged and forged
# checkpoints and grids; FIFOs, devices and directories as --resume,
# --load-grid, --checkpoint and --save-grid; huge and negative numbers
# (calls, threads, alpha); vector integrands with zero, tiny and huge
# components and boxes too wide for a double; an address-space limit; a
# full disk (a 64 KiB tmpfs, where this process may mount one). Each case
# asserts the exit code, the message, and that no existing file was
# damaged (the FIFO stays a FIFO, a valid checkpoint keeps its bytes).
#
# usage: hostile_state.py VEGASC LIBVEGASFLOW
#
#===----------------------------------------------------------------------===#
import ctypes
import os
import resource
import shutil
import stat
import subprocess
import sys

from vftest import (CapiOptions, check, expect, finish, preload_sanitizer,
                    sanitizer_runtime, vegasc, workdir, write_source)

EXE, LIB = sys.argv[1], sys.argv[2]
preload_sanitizer(LIB)
W = workdir()

SRC = write_source("hostile", """
integrand ok(x in [0,1]^2) = x[0] * x[1]
integrand zero(x in [0,1]) -> [2] { return [x, 0] }
integrand tiny(x in [0,1]) -> [2] { return [x, 1e-300*x] }
integrand huge(x in [0,1]) -> [2] { return [x, 1e160*x] }
integrand hugefirst(x in [0,1]) -> [2] { return [1e160*x, x] }
integrand big(x in [0,1]^2) = 1e300*(1+x[0])
integrand wide(x in [-1e308, 1e308]) = 1
integrand wide2(x in [0, 1e200]^2) = 1
integrand wide3(x in [0, 1e300]) = x
""")
SMALL = ["--calls", "4000", "--iterations", "2", "--warmup", "0"]


def run_ok(*extra, integrand="ok"):
    return vegasc(EXE, [SRC, "--integrand", integrand] + SMALL + list(extra),
                  json_out=False)


def snapshot(path):
    with open(path, "rb") as f:
        return f.read()


# --- vector components and boxes -----------------------------------------
r = run_ok(integrand="zero")
check(r.rc == 0 and "result[1] = 0 +- 0" in r.out,
      "a zero component is exact: 0 +- 0, exit 0")
for name, needles in [
        ("tiny", [r"component 1 of integrand 'tiny' is too small", "Rescale"]),
        ("huge", [r"component 1 of integrand 'huge' overflows", "1e154"]),
        ("hugefirst", [r"component 0 of integrand 'hugefirst' overflows"]),
        ("big", [r"integrand 'big' overflows"]),
        ("wide", [r"interval \[-1e\+308, 1e\+308\] of x\[0\]"]),
        ("wide2", [r"volume .* beyond the range of a double"]),
        ("wide3", [r"f\*J that is not finite"])]:
    r = expect(EXE, [SRC, "--integrand", name] + SMALL, 1,
               f"integrand {name}", *needles)
    check("nan" not in r.out.lower(), f"integrand {name}: no NaN printed")

# --- numbers through every door --------------------------------------------
for calls in ["1e15", "1e17", "1e18"]:
    expect(EXE, [SRC, "--integrand", "ok", "--calls", calls,
                 "--iterations", "1"], 1, f"--calls {calls}",
           r"needs [0-9.e+]+ GiB of memory", r"Lower --calls")
expect(EXE, [SRC, "--integrand", "ok", "--calls", "1e19"], 2, "--calls 1e19",
       r"--calls must be")
for n in ["100000", "1025", "4294967295"]:
    expect(EXE, [SRC, "--integrand", "ok", "--devices", f"cpu:{n}"] + SMALL,
           2, f"--devices cpu:{n}", r"from 1 to 1024")
for a in ["1.6", "3", "1e6", "-1"]:
    expect(EXE, [SRC, "--integrand", "ok", "--alpha", a] + SMALL, 2,
           f"--alpha {a}", r"--alpha must be from 0 to 1\.5")
toml = os.path.join(W, "huge.toml")
with open(toml, "w") as f:
    f.write(f'[defaults]\niterations = 1\n[[run]]\nfile = "{SRC}"\n'
            'integrand = "ok"\ncalls = 1e15\n')
r = vegasc(EXE, [toml], json_out=False)
check(r.rc == 1 and "of memory" in r.out + r.err,
      "TOML calls = 1e15: a failed run naming memory, exit 1")

# An address-space limit: an error, never std::bad_alloc's abort.
def limited():
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
if sanitizer_runtime(EXE):
    print("skipped: ulimit -v under AddressSanitizer (its shadow memory "
          "alone reserves terabytes of address space)")
else:
    p = subprocess.run([EXE, SRC, "--integrand", "ok", "--calls", "1e13",
                        "--iterations", "1"], capture_output=True, text=True,
                       preexec_fn=limited, timeout=120,
                       env=dict(os.environ,
                                VF_CACHE_DIR=os.path.join(W, "cache")))
    check(p.returncode == 1 and "memory" in p.stderr,
          f"ulimit -v 1 GiB, --calls 1e13: exit 1 naming memory (got "
          f"{p.returncode}: {p.stderr.strip()[-200:]})")

# --- the C API ---------------------------------------------------------------


lib = ctypes.CDLL(LIB)
lib.vf_last_error.restype = ctypes.c_char_p
lib.vf_run.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int64,
                       ctypes.c_int32]
module = ctypes.c_void_p()
check(lib.vf_compile_file(SRC.encode(), ctypes.byref(module)) == 0,
      "C API: compile")


def c_integrator(**fields):
    o = CapiOptions()
    lib.vf_options_default(ctypes.byref(o))
    for k, v in fields.items():
        setattr(o, k, v)
    it = ctypes.c_void_p()
    rc = lib.vf_integrator_create(module, b"ok", ctypes.byref(o),
                                  ctypes.byref(it))
    return rc, it, lib.vf_last_error().decode()


for threads in [100000, -1, -2147483648]:
    rc, it, msg = c_integrator(threads=threads)
    check(rc != 0 and ("1024" in msg or "negative" in msg),
          f"C API threads = {threads}: an error code ({msg})")
rc, it, msg = c_integrator(alpha=3.0)
check(rc != 0 and "1.5" in msg, f"C API alpha = 3: an error code ({msg})")
rc, it, msg = c_integrator(threads=2)
check(rc == 0, "C API: a valid integrator")
for calls in [10**15, 10**18, -1, 2**62]:
    rc = lib.vf_run(it, 1, calls, 0)
    msg = lib.vf_last_error().decode()
    check(rc != 0 and ("memory" in msg or "calls" in msg or "negative" in msg),
          f"C API vf_run calls = {calls}: an error code ({msg[:80]})")
check(lib.vf_run(it, 2, 4000, 0) == 0, "C API: a valid run after the errors")
lib.vf_integrator_free(it)

# --- state files ---------------------------------------------------------------
ckpt = os.path.join(W, "run.ckpt")
grid = os.path.join(W, "run.grid")
r = run_ok("--checkpoint", ckpt, "--save-grid", grid)
check(r.rc == 0 and os.path.isfile(ckpt) and os.path.isfile(grid),
      "a valid checkpoint and grid")
good_ckpt, good_grid = snapshot(ckpt), snapshot(grid)

fifo = os.path.join(W, "fifo")
os.mkfifo(fifo)
folder = os.path.join(W, "folder")
os.mkdir(folder)
for path, kind in [(fifo, "a FIFO"), (folder, "a directory"),
                   ("/dev/zero", "a device"), ("/dev/null", "a device")]:
    expect(EXE, [SRC, "--integrand", "ok", "--resume", path] + SMALL, 1,
           f"--resume {path}", f"is {kind}, not a regular file")
    expect(EXE, [SRC, "--integrand", "ok", "--load-grid", path] + SMALL, 1,
           f"--load-grid {path}", f"is {kind}, not a regular file")
    expect(EXE, [SRC, "--integrand", "ok", "--checkpoint", path] + SMALL, 1,
           f"--checkpoint {path}", "outputs replace only regular files")
check(stat.S_ISFIFO(os.stat(fifo).st_mode), "the FIFO is still a FIFO")
check(stat.S_ISCHR(os.stat("/dev/null").st_mode), "/dev/null is a device")
check(os.path.isdir(folder) and not os.listdir(folder),
      "the folder is untouched")


def forged(data, at, value):
    """data with byte `at` set to `value` and FNV-1a recomputed."""
    b = bytearray(data)
    b[at] = value
    h = 0xcbf29ce484222325
    for c in b[:-8]:
        h = ((h ^ c) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    b[-8:] = h.to_bytes(8, "little")
    return bytes(b)


bad = os.path.join(W, "bad.ckpt")
for what, data, needle in [
        ("truncated", good_ckpt[:-20], "damaged or truncated"),
        ("bit flip", good_ckpt[:40] + bytes([good_ckpt[40] ^ 1]) +
         good_ckpt[41:], "damaged or truncated"),
        ("empty", b"", "not a vegasflow checkpoint"),
        ("a grid", good_grid, "not a vegasflow checkpoint")]:
    with open(bad, "wb") as f:
        f.write(data)
    expect(EXE, [SRC, "--integrand", "ok", "--resume", bad] + SMALL, 1,
           f"checkpoint {what}", needle)
# The plan's Done: the u32 after calls (a u64, 4000) and warm-up (a u32).
calls_at = good_ckpt.find((4000).to_bytes(8, "little"))
done_at = calls_at + 8 + 4  # u64 calls, u32 warm-up, then u32 done
check(calls_at > 0 and good_ckpt[done_at] == 2, "found the plan's Done")
with open(bad, "wb") as f:
    f.write(forged(good_ckpt, done_at, 7))
expect(EXE, [SRC, "--integrand", "ok", "--resume", bad] + SMALL, 1,
       "forged Done = 7 (checksum recomputed)", r"Plan\.Done = 7")
with open(bad, "wb") as f:
    # The exponent byte of the last axis's second-to-last edge: above 1.
    f.write(forged(good_grid, len(good_grid) - 17, 0x7f))
expect(EXE, [SRC, "--integrand", "ok", "--load-grid", bad] + SMALL, 1,
       "forged grid edge (checksum recomputed)", r"not a valid grid \(")
check(snapshot(ckpt) == good_ckpt and snapshot(grid) == good_grid,
      "the valid checkpoint and grid are unchanged")

# A temporary left by a killed writer is removed by the next writer.
stale = ckpt + ".tmp.999999999"
with open(stale, "w") as f:
    f.write("left by kill -9")
r = run_ok("--checkpoint", ckpt)
check(r.rc == 0 and not os.path.exists(stale),
      "a stale checkpoint temporary is removed")

# --- a full disk ---------------------------------------------------------------
mnt = os.path.join(W, "full")
os.mkdir(mnt)
m = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt],
                   capture_output=True, text=True)
if m.returncode != 0:
    print(f"skip: full disk (cannot mount a tmpfs: {m.stderr.strip()})")
else:
    try:
        target = os.path.join(mnt, "run.ckpt")
        with open(target, "wb") as f:
            f.write(good_ckpt)
        with open(os.path.join(mnt, "filler"), "wb") as f:
            try:
                f.write(b"\0" * (64 << 10))
            except OSError:
                pass
        big_src = write_source("bigstate", "integrand b(x in [0,1]^4) = "
                               "x[0]*x[1]*x[2]*x[3]")
        r = vegasc(EXE, [big_src, "--calls", "20000", "--iterations", "2",
                         "--checkpoint", target], json_out=False)
        check(r.rc == 1 and "checkpoint" in r.err,
              f"a full disk: the checkpoint fails with exit 1 ({r.err[-120:]})")
        check(snapshot(target) == good_ckpt,
              "a full disk: the old checkpoint is intact")
        check([n for n in os.listdir(mnt) if ".tmp." in n] == [],
              "a full disk: no temporary is left behind")
    finally:
        subprocess.run(["umount", mnt])

finish()
