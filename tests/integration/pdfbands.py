#!/usr/bin/env python3
"""PDF error bands of weight lists over a set's members.

    pdfbands.py VEGASC [LIBVEGASFLOW]

Sets made here from the test set's member 0 (tests/testdata/pdf): member
m is member 0 with every value times c_m, so a list of xfx(p, 2, x, mu, k)
has entries c_k I exactly (to the files' 10 digits), and each band has a
closed form in the c_m, checked to 1e-8 relative:

    replicas      I mean(c), I sd(c) (N - 1);
    hessian       I (1 + sqrt(sum max(c_2i-1 - 1, c_2i - 1, 0)^2) s), and
                  I (1 - sqrt(sum max(1 - c_2i-1, 1 - c_2i, 0)^2) s);
    symmhessian   I (1 +- sqrt(sum (c_i - 1)^2) s);

s = 1/1.6448536... for ErrorConfLevel 90, 1 without; a `+as` set's last
two members are left out. alphas(p, mu, k) takes members too. A list that
does not cover the error members gets the envelope, with a warning naming
them; a member past the set and one computed from the sample are errors at the call.
A list passing its index through fns gets the band too; a fn's argument
as a member that is no member gives NaN. A param chooses the member of a
pdf item (`member m`) and of a call
(c_m times member 0's integral, 1e-8); a value that is not a member is an
error before the run. --pdf-set NAME=SET replaces a pdf item's set, as
the C API's vf_compile_file_pdf_sets does. Event files name each list's
band as its weight group's `combine`.
"""
import ctypes
import math
import os
import shutil
import sys

from vftest import (check, finish, preload_sanitizer, vegasc, with_env,
                    workdir, write_source)

SETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                    "testdata", "pdf", "VFToyLO")
Z90 = 1.6448536269514722


def scaled_member(text, c):
    """Member 0's file with its values (not its knots) times c."""
    out, block = [], -1
    for line in text.splitlines():
        if line.startswith("---"):
            block, row = block + 1, 0
            out.append(line)
            continue
        if block < 0 or row < 3 or c == 1:
            out.append(line.replace("PdfType: central", "PdfType: error")
                       if block < 0 and c != 1 else line)
        else:
            out.append(" ".join(f"{float(v) * c:.9e}" for v in line.split()))
        row = row + 1 if block >= 0 else 0
    return "\n".join(out) + "\n"


def make_set(name, factors, error_type, level=None):
    folder = os.path.join(workdir(), "sets", name)
    os.makedirs(folder)
    with open(os.path.join(SETS, "VFToyLO.info")) as f:
        info = f.read()
    info = info.replace("NumMembers: 2", f"NumMembers: {len(factors) + 1}")
    info = info.replace("ErrorType: replicas", f"ErrorType: {error_type}")
    if level is not None:
        info += f"ErrorConfLevel: {level}\n"
    with open(os.path.join(folder, name + ".info"), "w") as f:
        f.write(info)
    with open(os.path.join(SETS, "VFToyLO_0000.dat")) as f:
        member0 = f.read()
    for m, c in enumerate([1.0] + list(factors)):
        with open(os.path.join(folder, f"{name}_{m:04d}.dat"), "w") as f:
            f.write(scaled_member(member0, c))


def source(name, set_name, lo, hi, query="xfx(p, 2, x[0], 50, k)"):
    return write_source(name, f'pdf p = "{set_name}"\n'
                        "integrand f(x in [0.01, 0.9]^1) {\n"
                        "    let f = xfx(p, 2, x[0], 50)\n"
                        f"    weights pdfvar(k in {lo}..{hi}: {query})\n"
                        "    return f\n}\n"
                        "integrand f_event(x in [0.01, 0.9]^1) -> [6] = "
                        "[2, 1, x[0], 0, 0, x[0]]\n")


def run(src):
    return vegasc(EXE, [src, "-q", "--seed", 3, "--calls", 4000,
                        "--iterations", 3, "--warmup", 1, "--integrand", "f"])


def close(a, b):
    return abs(a - b) <= 1e-8 * abs(b)


def band_of(r):
    band = r.doc["weight_lists"][0]["band"]
    return band["kind"], band["central"], band["low"], band["high"]


def check_band(name, factors, error_type, expect, level=None, hi=None):
    make_set(name, factors, error_type, level)
    src = source(name, name, 1, hi or len(factors) + 1)
    r = run(src)
    if not check(r.rc == 0 and r.doc, f"{name}: runs"):
        print(r)
        return
    mean = r.doc["result"]["mean"]
    mean = mean[0] if isinstance(mean, list) else mean
    entries = [e["value"] for e in r.doc["weight_lists"][0]["entries"]]
    check(all(close(v, c * mean) for v, c in zip(entries, factors)),
          f"{name}: entry k is c_k times the integral")
    kind, central, low, high = band_of(r)
    lhe = os.path.join(workdir(), name + ".lhe")
    e = vegasc(EXE, [src, "-q", "--calls", 4000, "--iterations", 2,
                     "--integrand", "f", "--events", 20, "--events-out", lhe],
               json_out=False)
    text = open(lhe).read() if e.rc == 0 else str(e)
    check(f'<weightgroup name="pdfvar" combine="{kind}">' in text,
          f"{name}: the LHE weight group says how to combine ({kind})")
    ec, el, eh = (mean * v for v in expect)
    check(kind == error_type.split("+")[0], f"{name}: band kind {kind}")
    check(close(central, ec) and close(low, el) and close(high, eh),
          f"{name}: band ({central}, {low}, {high}) is ({ec}, {el}, {eh})")
    check(f"{kind} band" in r.out, f"{name}: the table names the band")


def bands():
    c = [1.03, 0.99, 1.01, 1.02]
    mean = sum(c) / 4
    sd = math.sqrt(sum((v - mean) ** 2 for v in c) / 3)
    check_band("Rep", c, "replicas", (mean, mean - sd, mean + sd))
    h = [1.04, 0.97, 0.99, 0.98, 1.02, 1.01]
    plus = math.sqrt(0.04 ** 2 + 0 + 0.02 ** 2) / Z90
    minus = math.sqrt(0.03 ** 2 + 0.02 ** 2 + 0) / Z90
    check_band("Hess", h, "hessian", (1, 1 - minus, 1 + plus), level=90)
    s = [1.02, 0.97, 1.01]
    w = math.sqrt(0.02 ** 2 + 0.03 ** 2 + 0.01 ** 2)
    check_band("Symm", s, "symmhessian", (1, 1 - w, 1 + w))
    # The last two (alpha_s) members, far off, are left out of the band.
    check_band("HessAs", [1.04, 0.97, 1.5, 0.5], "hessian+as",
               (1, 0.97, 1.04))


def envelope_and_errors():
    make_set("Short", [1.04, 0.97, 0.99, 0.98], "hessian")
    r = run(source("short", "Short", 1, 3))
    check(r.rc == 0 and "envelope of its entries" in r.err and
          "members 1 to 2 do not cover the error members 1 to 4" in r.err,
          "a list short of the error members: the envelope, with a warning")
    if r.doc:
        check(band_of(r)[0] == "envelope", "a short list's band: envelope")
    r = run(source("alphas", "Short", 1, 5, "alphas(p, 50, k) * f"))
    check(r.rc == 0 and r.doc and band_of(r)[0] == "hessian",
          "alphas(p, mu, k): the list gets the set's band")
    r = run(source("past", "Short", 1, 6))
    check(r.rc != 0 and "has 5 members (0 to 4), not member 5 when k = 5"
          in r.err, "a member past the set: an error naming k")
    bad = write_source("let", 'pdf p = "Short"\n'
                       "integrand f(x in [0.01, 0.9]^1) {\n"
                       "    let m = floor(3 * x[0])\n"
                       "    return xfx(p, 2, x[0], 50, m)\n}\n")
    r = vegasc(EXE, [bad, "-q"])
    check(r.rc != 0 and "a member argument must be a constant, a param, a "
          "fn's argument, or computed from the index of a weight list" in r.err,
          "a member from the sample: an error")


def param_members():
    """A list passing its index through fns gets the band too; a fn's argument
as a member that is no member gives NaN. A param chooses the member of a
pdf item and of a call: integral c_m
    times member 0's (the Short set's factors), checked before the run."""
    src = write_source("pm", 'pdf p = "Short"\npdf q = "Short" member m\n'
                       "param m = 0\nparam n = 0\n"
                       "integrand a(x in [0.01, 0.9]^1) = xfx(q, 2, x[0], 50)\n"
                       "integrand b(x in [0.01, 0.9]^1) = "
                       "xfx(p, 2, x[0], 50, n) * alphas(q, 50) / alphas(p, 50)\n")
    means = {}
    for name, params in (("a", []), ("a", ["--param", "m=2"]),
                         ("b", ["--param", "n=3"])):
        r = vegasc(EXE, [src, "-q", "--seed", 3, "--calls", 4000,
                         "--iterations", 3, "--warmup", 1,
                         "--integrand", name] + params)
        if not check(r.rc == 0 and r.doc, f"{name} {params}: runs"):
            print(r)
            return
        means[(name, tuple(params))] = r.doc["result"]["mean"]
    i0 = means[("a", ())]
    check(close(means[("a", ("--param", "m=2"))], 0.97 * i0),
          "member m = 2 of a pdf item: 0.97 times member 0")
    check(close(means[("b", ("--param", "n=3"))], 0.99 * i0),
          "member argument n = 3: 0.99 times member 0")
    for value in ("5", "1.5", "-1"):
        r = vegasc(EXE, [src, "-q", "--integrand", "a", "--param",
                         f"m={value}"])
        check(r.rc != 0 and f"param 'm' = {value} chooses a member of PDF "
              "set 'Short', which has 5 members: give an integer from 0 to 4"
              in r.err, f"m = {value}: an error before the run")
    # Where no run checks it first, a value that is no member gives NaN.
    r = vegasc(EXE, [src, "--eval", "--at", "0.5", "--integrand", "a",
                     "--param", "m=1.5"], json_out=False)
    check(r.rc == 0 and r.out.split()[:1] == ["nan"],
          f"--eval with m = 1.5: NaN ({r.out.strip()!r} {r.err.strip()!r})")
    ext = write_source("pmext", 'pdf q = "Short" member m\nparam m = 1\n'
                       'extern "C" fn g(p: pdf, x) from "g.c"\n'
                       "integrand f(x in [0, 1]) = g(q, x)\n")
    r = vegasc(EXE, [ext, "-q"])
    check(r.rc != 0 and "takes its member from a param" in r.err,
          "a param-member pdf passed to an extern fn: an error")


def fn_members():
    """A fn's argument as the member (all members held, checked where the
    call runs): the list that passes its index through two fns gets Hess's
    band, the same as with xfx in the entry; a value that is no member
    gives NaN."""
    fns = ('pdf p = "Hess"\nfn up(x, m) = xfx(p, 2, x, 50, m)\n'
           "fn up2(x, j) = up(x, j) * alphas(p, 50, j) / alphas(p, 50)\n")
    via = write_source("viafn", fns + "integrand f(x in [0.01, 0.9]^1) {\n"
                       "    let f = xfx(p, 2, x[0], 50)\n"
                       "    weights pdfvar(k in 1..7: up2(x[0], k))\n"
                       "    return f\n}\n"
                       "integrand g(x in [0.01, 0.9]^1) = up(x[0], x[0] * 20)\n")
    direct = source("direct", "Hess", 1, 7)
    a, b = run(via), run(direct)
    if not check(a.rc == 0 and a.doc and b.rc == 0 and b.doc,
                 "a list through fns: runs"):
        print(a, b)
        return
    check(band_of(a)[0] == "hessian" and
          all(close(x, y) for x, y in zip(band_of(a)[1:], band_of(b)[1:])),
          f"through two fns: Hess's band, as in the entry ({band_of(a)})")
    values = {}
    for at in ("0.1", "0.4", "0.125"):
        r = vegasc(EXE, [via, "--eval", "--at", at, "--integrand", "g"],
                   json_out=False)
        values[at] = r.out.split()[0] if r.rc == 0 else r.err
    check(values["0.1"] != "nan" and values["0.4"] == "nan" and
          values["0.125"] == "nan", f"member 2 a value; 8, past the set, and "
          f"2.5 no members: NaN ({values})")


def chosen_sets():
    """--pdf-set NAME=SET replaces a pdf item's set: the list over the
    chosen Hess's members gets its band; a name that is no pdf item, a
    set that is not found and a value without '=' are errors."""
    src = source("choose", "Short", 1, 7)
    r = vegasc(EXE, [src, "-q", "--seed", 3, "--calls", 4000, "--iterations",
                     3, "--warmup", 1, "--pdf-set", "p=Hess", "--integrand",
                     "f"])
    check(r.rc == 0 and r.doc and band_of(r)[0] == "hessian",
          "--pdf-set p=Hess: the list over Hess's members, its band")
    for flag, message in (
            ("q=Hess", "a PDF set was chosen for 'q' (Hess), which is no pdf "
             "item of the program (its pdf items: p)"),
            ("p=Missing", "the set chosen for pdf 'p' (Missing): PDF set "
             "'Missing' not found"),
            ("p", "expected NAME=SET")):
        r = vegasc(EXE, [src, "-q", "--pdf-set", flag])
        check(r.rc != 0 and message in r.err,
              f"--pdf-set {flag}: an error ({r.err.strip()[:200]!r})")


def c_api(lib_path):
    """vf_compile_file_pdf_sets: the choice reaches Sema (a list over Hess's
    members compiles; over Short's, the same source names a set without
    member 6), and a string without '=' is an argument error naming it."""
    preload_sanitizer(lib_path)
    lib = ctypes.CDLL(lib_path)
    lib.vf_compile_file_pdf_sets.argtypes = [
        ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int32,
        ctypes.POINTER(ctypes.c_void_p)]
    lib.vf_last_error.restype = ctypes.c_char_p
    src = source("capi", "Short", 1, 7).encode()

    def compile_with(*sets):
        arr = (ctypes.c_char_p * max(len(sets), 1))(*[s.encode()
                                                      for s in sets])
        m = ctypes.c_void_p()
        rc = lib.vf_compile_file_pdf_sets(src, arr, len(sets), ctypes.byref(m))
        if rc == 0:
            lib.vf_module_free(m)
        return rc, lib.vf_last_error().decode()
    check(compile_with("p=Hess")[0] == 0, "C API: p=Hess compiles")
    rc, msg = compile_with()
    check(rc == 2 and "has 5 members (0 to 4), not member 5" in msg,
          "C API: without a choice, the source's own set")
    rc, msg = compile_with("p=Hess", "Hess")
    check(rc == 1 and "sets[1] is 'Hess'; expected NAME=SET" in msg,
          f"C API: a choice without '=' ({msg!r})")


def main():
    with_env(LHAPDF_DATA_PATH=os.path.join(workdir(), "sets"))
    bands()
    envelope_and_errors()
    param_members()
    fn_members()
    chosen_sets()
    if LIB:
        c_api(LIB)


if __name__ == "__main__":
    EXE = sys.argv[1]
    LIB = sys.argv[2] if len(sys.argv) > 2 else None
    main()
    finish()
