#!/usr/bin/env python3
#===- tests/integration/hostile_faults.py - Faults in user C/C++ code -----===#
#
# Usage: hostile_faults.py VEGASC [PYTHONPATH [LIBVEGASFLOW]]
#
# What a user's C or C++ integrand can do to the process (issue 36, items
# 6, 8, 12 and 13), by class: every fault signal its code can raise
# (unbounded recursion and a 400 MB local array, both stack overflows; an
# integer division by zero; __builtin_trap; an extern writing far past
# its declared outputs; an exception escaping it) is reported as "the
# integrand 'f' crashed (SIGNAL: ..., in FILE's code)" with exit code 70,
# from vegasc's run and --eval, from Python (the interpreter prints the
# message and exits 70) and from the C API; a checkpoint written by an
# earlier run stays byte for byte as it was. An #include of a FIFO (no
# hang: a timeout fails the case), /dev/zero, a directory or a file over
# 64 MiB is an error at the #include's line. -w silences the C/C++
# checker's warnings (and only warnings); __TIME__, __DATE__ and
# __TIMESTAMP__ are refused.
#
#===----------------------------------------------------------------------===#
import os
import re
import subprocess
import sys

from vftest import check, finish, preload_sanitizer, workdir

EXE = None
CRASH = 70  # IntegrandCrashExitCode, docs/user-guide.md "Exit codes"
TIMEOUT = 60  # seconds: a case that takes longer is a hang
RUN = ["--calls", "2000", "--iterations", "2", "--warmup", "1"]

HEADER = "#include <vf/integrand.h>\n"
# Each fault, as the whole integrand (FILE, text) or an extern (.vf, .c).
FAULTS = {
    "recursion": ("rec.cpp", HEADER + """
static double depth(double v, int n) {
  if (v > 2.0)
    return v;
  double r = depth(v + 1e-300, n + 1); // never returns: not a tail call
  return r * 0.5 + n;
}
VF_INTEGRAND(rec, 1, 1, "") { out[0] = depth(x[0], 0); }
""", r"SIGSEGV: stack overflow"),
    "division": ("div.cpp", HEADER + """
VF_INTEGRAND(div, 1, 1, "") { out[0] = 10 / (int)(x[0] * 2); }
""", r"SIGFPE: integer division by zero"),
    "trap": ("trap.cpp", HEADER + """
VF_INTEGRAND(trap, 1, 1, "") { if (x[0] < 2) __builtin_trap(); out[0] = 1; }
""", r"SIGILL: a trap"),
    "stack array": ("big.cpp", HEADER + """
VF_INTEGRAND(big, 1, 1, "") {
  double a[50000000]; // 400 MB
  for (int i = 0; i < 50000000; i += 512)
    a[i] = x[0] * i;
  out[0] = a[(int)(x[0] * 1000) * 512];
}
""", r"SIGSEGV: stack overflow"),
    "exception": ("thr.cpp", HEADER + """
extern "C" void *__cxa_allocate_exception(unsigned long);
extern "C" void __cxa_throw(void *, void *, void (*)(void *));
extern "C" const char _ZTIi[16]; // typeid(int)
VF_INTEGRAND(thr, 1, 1, "") {
  if (x[0] < 2) {
    int *e = (int *)__cxa_allocate_exception(sizeof(int));
    *e = 7;
    __cxa_throw(e, (void *)_ZTIi, 0); // `throw 7`, which the checker refuses
  }
  out[0] = x[0];
}
""", r"SIGABRT: abort\(\), or an exception escaping"),
}
# A stride of one 4 KB page (512 doubles): the writes fault at the first
# page above the buffer that they may not write. A longer stride could step
# over a thread stack's one-page guard into the next thread's stack, and
# which thread then faults first, in whose code, would depend on the
# address-space layout.
PAST_C = HEADER + """
VF_FUNCTION void fill(const double *x, double *out) {
  for (long i = 0; i < 100000000; i += 512)
    out[i] = x[0]; // declared -> [2]
}
"""
PAST_VF = """extern "past.c" fn fill(x: [1]) -> [2]
integrand past(x in [0, 1]) = fill([x[0]])[1]
"""


class Res:
    def __init__(self, rc, out, err):
        self.rc, self.out, self.err = rc, out, err


def run(cmd, timeout=TIMEOUT, env=None):
    """CMD; rc -1 when it had to be killed (a hang)."""
    e = dict(os.environ)
    e["VF_CACHE_DIR"] = os.path.join(workdir(), "cache")
    e.update(env or {})
    try:
        p = subprocess.run([str(a) for a in cmd], env=e, cwd=workdir(),
                           capture_output=True, timeout=timeout,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return Res(-1, "", "timed out")
    return Res(p.returncode, p.stdout.decode(errors="replace"),
               p.stderr.decode(errors="replace"))


def write(name, text):
    path = os.path.join(workdir(), name)
    with open(path, "w") as f:
        f.write(text)
    return path


def crashed(what, r, integrand, file, signal, tool="vegasc"):
    """The fixed exit code and the one-line report naming the signal and
    the file."""
    check(r.rc == CRASH, f"{what}: exit {CRASH} (got {r.rc}; {r.err[-300:]!r})")
    pattern = (rf"{tool}: error: the integrand '{integrand}' crashed "
               rf"\({signal}[^\n]*, in [^\n]*{re.escape(file)}'s code\) "
               rf"at instruction 0x[0-9a-f]+")
    check(re.search(pattern, r.err) is not None,
          f"{what}: the report names the signal and {file}")
    check(f"exit code {CRASH}" in r.err, f"{what}: the note gives the code")
    check("Stack dump" not in r.err,
          f"{what}: the integrand's fault is not reported as a vegasc bug")


def faults():
    for what, (file, text, signal) in FAULTS.items():
        path = write(file, text)
        name = re.search(r"VF_INTEGRAND\((\w+)", text).group(1)
        crashed(f"{what} (run)", run([EXE, path] + RUN), name, file, signal)
    write("past.c", PAST_C)
    crashed("an extern writing past its outputs",
            run([EXE, write("past.vf", PAST_VF)] + RUN), "past", "past.c",
            r"SIGSEGV: invalid memory access")
    crashed("division (--eval)",
            run([EXE, os.path.join(workdir(), "div.cpp"), "--eval",
                 "--at", "0.1"]), "div", "div.cpp", "SIGFPE")


def checkpoint_intact():
    ok = write("ok.cpp", HEADER +
               'VF_INTEGRAND(ok, 1, 1, "") { out[0] = 1 + x[0]; }\n')
    ck = os.path.join(workdir(), "run.ckpt")
    r = run([EXE, ok, "--checkpoint", ck] + RUN)
    check(r.rc == 0 and os.path.exists(ck), "checkpoint: the first run")
    before = open(ck, "rb").read()
    files = sorted(os.listdir(workdir()))
    r = run([EXE, os.path.join(workdir(), "div.cpp"), "--checkpoint", ck]
            + RUN)
    check(r.rc == CRASH, f"checkpoint: the crashing run exits {CRASH}")
    check(open(ck, "rb").read() == before,
          "checkpoint: byte-identical after the crash")
    check(sorted(os.listdir(workdir())) == files,
          "checkpoint: no file left beside it")


def python_door(pythonpath):
    for file, name, signal in (("div.cpp", "div", "SIGFPE"),
                               ("rec.cpp", "rec", "SIGSEGV: stack overflow")):
        code = ("import vegasflow as vf\n"
                f"I = vf.Integrator(vf.compile({file!r}))\n"
                "I.run(iterations=2, calls=2000, warmup=1)\n"
                "print('not reached')\n")
        r = run([sys.executable, "-c", code],
                env={"PYTHONPATH": pythonpath})
        crashed(f"Python, {file}", r, name, file, signal,
                tool=re.escape(os.path.basename(sys.executable)))
        check("not reached" not in r.out, f"Python, {file}: no further")


def c_door(lib):
    code = f"""
import ctypes, sys
lib = ctypes.CDLL({lib!r})
P = ctypes.c_void_p
lib.vf_compile_file.argtypes = [ctypes.c_char_p, ctypes.POINTER(P)]
lib.vf_integrator_create.argtypes = [P, ctypes.c_char_p, P, ctypes.POINTER(P)]
lib.vf_run.argtypes = [P, ctypes.c_int32, ctypes.c_int64, ctypes.c_int32]
m, it = P(), P()
assert lib.vf_compile_file(b"trap.cpp", ctypes.byref(m)) == 0
assert lib.vf_integrator_create(m, None, None, ctypes.byref(it)) == 0
lib.vf_run(it, 2, 2000, 1)
print("not reached")
"""
    r = run([sys.executable, "-c", code])
    crashed("C API, trap.cpp", r, "trap", "trap.cpp", "SIGILL",
            tool=re.escape(os.path.basename(sys.executable)))


def includes():
    d = workdir()
    os.mkfifo(os.path.join(d, "fifo.h"))
    os.mkdir(os.path.join(d, "folder.h"))
    with open(os.path.join(d, "huge.h"), "wb") as f:
        f.truncate(65 << 20)  # sparse
    cases = {"fifo.h": "a FIFO", "/dev/zero": "a device",
             "folder.h": "a directory", "huge.h": "larger than 64 MiB"}
    for inc, why in cases.items():
        src = write("inc.cpp", f'{HEADER}#include "{inc}"\n'
                    'VF_INTEGRAND(f, 1, 1, "") { out[0] = 1; }\n')
        for args, mode in (([src, "--check"], "--check"),
                           ([src] + RUN, "a run")):
            r = run([EXE] + args, timeout=20)
            check(r.rc == 1, f"#include {inc} ({mode}): exit 1, no hang "
                  f"(got {r.rc})")
            check(re.search(rf"inc\.cpp:2:10: fatal error: cannot open file "
                            rf"'[^']*{re.escape(inc)}': it is {why}",
                            r.err) is not None,
                  f"#include {inc} ({mode}): the error names the file, "
                  f"the line and why")


def warnings():
    rec = write("fact.cpp", HEADER + """
static double fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
VF_INTEGRAND(fact, 1, 1, "") { out[0] = fact(3) * x[0]; }
""")
    unused = write("unused.cpp", HEADER + """
VF_INTEGRAND(unused, 1, 1, "") { x[0] + 1; out[0] = x[0]; }
""")
    for args, what in (([rec] + RUN, "a run"),
                       ([rec, "--eval", "--at", "0.5"], "--eval"),
                       ([unused, "--check"], "--check")):
        loud, quiet = run([EXE] + args), run([EXE] + args + ["-w"])
        check(loud.rc == 0 and "warning:" in loud.err,
              f"{what}: the C/C++ warning without -w")
        check(quiet.rc == 0 and "warning:" not in quiet.err and
              "note:" not in quiet.err,
              f"{what}: -w silences it (and its note): {quiet.err[:200]!r}")


def clock_macros():
    for macro in ("__TIME__", "__DATE__", "__TIMESTAMP__"):
        src = write("clock.cpp", HEADER + f"""
VF_INTEGRAND(clock, 1, 1, "") {{ out[0] = x[0] + sizeof({macro}); }}
""")
        for args, mode in (([src, "--check"], "--check"),
                           ([src, "-w"] + RUN, "a run, -w")):
            r = run([EXE] + args)
            check(r.rc == 1 and re.search(
                rf"clock\.cpp:3:\d+: error: '{macro}' is when the file was "
                rf"compiled, which breaks reproducibility", r.err) is not None,
                f"{macro} ({mode}): refused: {r.err[:200]!r}")


def main():
    global EXE
    EXE = os.path.abspath(sys.argv[1])
    lib = sys.argv[3] if len(sys.argv) > 3 else None
    if lib:
        preload_sanitizer(lib)  # the C API part loads it by ctypes
    r = run([EXE, "--check", write("probe.cpp", HEADER +
                                   'VF_INTEGRAND(p, 1, 1, "") { out[0] = 1; }\n')])
    if "built without C and C++ integrands" in r.err:
        print("skipped: vegasflow built without C and C++ integrands")
        finish()
    faults()
    checkpoint_intact()
    includes()
    warnings()
    clock_macros()
    if len(sys.argv) > 2:
        python_door(os.path.abspath(sys.argv[2]))
    if lib:
        c_door(os.path.abspath(lib))
    finish()


if __name__ == "__main__":
    main()
