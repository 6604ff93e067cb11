#!/usr/bin/env python3
#===- stdlib/math/tools/gen_tables.py - Coefficients and tables ------------===#
#
# Generates stdlib/math/coeffs.inc (polynomial coefficients) and
# stdlib/math/tables.c (lookup tables) with mpmath at high precision. The
# polynomials are Chebyshev interpolants (near-minimax) of the reduced
# functions named in each comment, converted to monomial form and rounded to
# double; the script re-evaluates the rounded polynomial against the exact
# function and prints the worst error so a too-low degree is noticed.
#
# Then it runs gen_tables_f32.py, which writes the single-precision
# library's coeffsf.inc and tablesf.c the same way.
#
# Not run by the build (it needs python3-mpmath); run it by hand after
# changing a range or degree and commit all outputs:
#   python3 stdlib/math/tools/gen_tables.py stdlib/math
#
#===------------------------------------------------------------------------===#
import os
import subprocess
import sys
import mpmath as mp

mp.mp.prec = 256
OUT = sys.argv[1] if len(sys.argv) > 1 else "."


def dbl(v):
    """Round an mpf to the nearest double and return it as a Python float."""
    return float(mp.mpf(v))


def hexd(v):
    return float(v).hex()


def cheb_fit(f, a, b, n):
    """Monomial coefficients (low first) of the degree-n Chebyshev
    interpolant of f on [a, b] (Chebyshev nodes of the first kind)."""
    a, b = mp.mpf(a), mp.mpf(b)
    nodes = [mp.cos(mp.pi * (k + mp.mpf(1) / 2) / (n + 1)) for k in range(n + 1)]
    xs = [(a + b) / 2 + (b - a) / 2 * t for t in nodes]
    ys = [f(x) for x in xs]
    # Solve the Vandermonde system in high precision: fine at these degrees.
    A = mp.matrix([[x ** j for j in range(n + 1)] for x in xs])
    c = mp.lu_solve(A, mp.matrix(ys))
    return [c[j] for j in range(n + 1)]


def check(f, coeffs, a, b, rel=True, scale=None, samples=2000, exact=False):
    cd = [mp.mpf(c) if exact else mp.mpf(dbl(c)) for c in coeffs]
    worst = mp.mpf(0)
    for i in range(samples + 1):
        x = mp.mpf(a) + (mp.mpf(b) - mp.mpf(a)) * i / samples
        p = mp.mpf(0)
        for c in reversed(cd):
            p = p * x + c
        e = abs(p - f(x))
        if rel:
            e /= abs(f(x))
        if scale is not None:
            e *= scale(x)
        worst = max(worst, e)
    return float(mp.log(worst, 2)) if worst > 0 else -999


out = []


def emit(name, coeffs, note):
    out.append("// %s" % note)
    out.append("static const double %s[%d] = {" % (name, len(coeffs)))
    for c in coeffs:
        out.append("    %s," % hexd(dbl(c)))
    out.append("};")
    out.append("")


def safe(f, x0, v0):
    """f with its removable singularity at x0 filled in, evaluated with
    enough guard bits that the cancellation near x0 does not show."""
    def g(x):
        if x == x0:
            return v0
        with mp.workprec(1600):
            return +f(x)
    return g


# exp: e^r = 1 + r + r^2/2 + r^3 Q(r), |r| <= ln2/2 (plus slack for the
# dd tail). Keeping r^2/2 out of the polynomial lets it be added exactly.
R = mp.log(2) / 2 * (1 + mp.mpf(2) ** -20)
fq = safe(lambda r: (mp.exp(r) - 1 - r - r * r / 2) / r ** 3, 0, mp.mpf(1) / 6)
c = cheb_fit(fq, -R, R, 10)
print("exp Q deg 10: log2 rel err", check(fq, c, -R, R), "approx", check(fq, c, -R, R, exact=True))
emit("ExpQ", c, "(e^r - 1 - r - r^2/2) / r^3 on |r| <= ln2/2, degree 10")

# exp's fast path: the same Q to degree 9, enough where only the result's
# rounding and r's have to stay below an ulp.
c = cheb_fit(fq, -R, R, 9)
print("exp Q deg 9: log2 rel err", check(fq, c, -R, R), "approx", check(fq, c, -R, R, exact=True))
emit("ExpQ9", c, "(e^r - 1 - r - r^2/2) / r^3 on |r| <= ln2/2, degree 9")

# log: log1p(z) = z - z^2/2 + z^3 L(z), z in [-2^-7.5, 2^-6.9].
ZA, ZB = -mp.mpf(2) ** -7.4, mp.mpf(2) ** -6.9
fl = safe(lambda z: (mp.log1p(z) - z + z * z / 2) / z ** 3, 0, mp.mpf(1) / 3)
c = cheb_fit(fl, ZA, ZB, 7)
print("log L deg 7: log2 rel err", check(fl, c, ZA, ZB), "approx", check(fl, c, ZA, ZB, exact=True))
emit("LogL", c, "(log1p(z) - z + z^2/2) / z^3 on z in [-2^-7.4, 2^-6.9], degree 7")

# log without a table: log((1+s)/(1-s)) = 2s + s^3 S(s^2) for
# |s| <= (sqrt2 - 1)/(sqrt2 + 1), m in [sqrt(1/2), sqrt2), s = (m-1)/(m+1).
SM = (mp.sqrt(2) - 1) / (mp.sqrt(2) + 1) * (1 + mp.mpf(2) ** -20)
fa = safe(lambda z: (2 * mp.atanh(mp.sqrt(z)) - 2 * mp.sqrt(z)) / mp.sqrt(z) ** 3, 0, mp.mpf(2) / 3)
c = cheb_fit(fa, 0, SM * SM, 6)
print("log S deg 6: log2 rel err", check(fa, c, 0, SM * SM), "approx", check(fa, c, 0, SM * SM, exact=True))
emit("LogS", c, "(log((1+s)/(1-s)) - 2s) / s^3 in z = s^2 on |s| <= (sqrt2-1)/(sqrt2+1), degree 6")

# sin/cos on |r| <= pi/4 (slack for the dd tail), in u = r^2.
U = (mp.pi / 4 * (1 + mp.mpf(2) ** -20)) ** 2
fs = safe(lambda u: (mp.sin(mp.sqrt(u)) - mp.sqrt(u)) / mp.sqrt(u) ** 3, 0, -mp.mpf(1) / 6)
c = cheb_fit(fs, 0, U, 6)
print("sin S deg 6: log2 rel err", check(fs, c, 0, U), "approx", check(fs, c, 0, U, exact=True))
emit("SinS", c, "(sin r - r) / r^3 in u = r^2 on |r| <= pi/4, degree 6")
fc = safe(lambda u: (mp.cos(mp.sqrt(u)) - 1 + u / 2) / u ** 2, 0, mp.mpf(1) / 24)
c = cheb_fit(fc, 0, U, 6)
print("cos C deg 6: log2 rel err", check(fc, c, 0, U), "approx", check(fc, c, 0, U, exact=True))
emit("CosC", c, "(cos r - 1 + r^2/2) / r^4 in u = r^2 on |r| <= pi/4, degree 6")

# atan on |t| <= tan(pi/8), in u = t^2.
U = (mp.tan(mp.pi / 8) * (1 + mp.mpf(2) ** -20)) ** 2
fa = safe(lambda u: (mp.atan(mp.sqrt(u)) - mp.sqrt(u)) / mp.sqrt(u) ** 3, 0, -mp.mpf(1) / 3)
c = cheb_fit(fa, 0, U, 13)
print("atan A deg 13: log2 rel err", check(fa, c, 0, U), "approx", check(fa, c, 0, U, exact=True))
emit("AtanA", c, "(atan t - t) / t^3 in u = t^2 on |t| <= tan(pi/8), degree 13")

# asin on |x| <= 1/2, in u = x^2.
U = mp.mpf(1) / 4
fa = safe(lambda u: (mp.asin(mp.sqrt(u)) - mp.sqrt(u)) / mp.sqrt(u) ** 3, 0, mp.mpf(1) / 6)
c = cheb_fit(fa, 0, U, 15)
print("asin P deg 15: log2 rel err", check(fa, c, 0, U), "approx", check(fa, c, 0, U, exact=True))
emit("AsinP", c, "(asin x - x) / x^3 in u = x^2 on |x| <= 1/2, degree 15")

# cbrt seed: m^(-1/3) on [1, 8], coarse (Newton refines it).
fw = lambda m: m ** (-mp.mpf(1) / 3)
c = cheb_fit(fw, 1, 8, 6)
print("cbrt seed deg 6: log2 rel err", check(fw, c, 1, 8), "approx", check(fw, c, 1, 8, exact=True))
emit("CbrtSeed", c, "m^(-1/3) on [1, 8], degree 6 (seed for Newton)")

# erf on |x| <= 3/4: erf(x) = x (c0 + u E(u)), u = x^2.
X0 = mp.mpf(3) / 4
c0 = 2 / mp.sqrt(mp.pi)
fe = safe(lambda u: (mp.erf(mp.sqrt(u)) / mp.sqrt(u) - c0) / u, 0, -c0 / 3)
c = cheb_fit(fe, 0, X0 * X0, 12)
print("erf E deg 12: log2 rel err", check(fe, c, 0, X0 * X0), "approx", check(fe, c, 0, X0 * X0, exact=True))
emit("ErfE", c, "(erf(x)/x - 2/sqrt(pi)) / x^2 in u = x^2 on |x| <= 3/4, degree 12")

# erfc(x) e^(x^2) on pieces of [3/4, 27.3], in s = x - mid.
pieces = [(0.5, 1.25), (1.25, 1.875), (1.875, 2.75), (2.75, 4.0), (4.0, 6.0),
          (6.0, 9.0), (9.0, 13.0), (13.0, 19.0), (19.0, 28.0)]
DEG = 17
fg = lambda x: mp.erfc(x) * mp.exp(x * x)
out.append("// erfc(x) e^(x^2) on the pieces below, degree %d in s = x - mid;" % DEG)
out.append("// row i holds piece i, coefficients low first.")
out.append("static const double ErfcBreaks[%d] = {%s};" % (
    len(pieces) + 1, ", ".join(hexd(p[0]) for p in pieces) + ", " + hexd(pieces[-1][1])))
out.append("static const double ErfcMid[%d] = {%s};" % (
    len(pieces), ", ".join(hexd((p[0] + p[1]) / 2) for p in pieces)))
out.append("static const double ErfcG[%d][%d] = {" % (len(pieces), DEG + 1))
for (a, b) in pieces:
    mid = mp.mpf((a + b) / 2)
    g = lambda s, mid=mid: fg(s + mid)
    c = cheb_fit(g, mp.mpf(a) - mid, mp.mpf(b) - mid, DEG)
    print("erfc piece [%g,%g] deg %d: log2 rel err" % (a, b, DEG),
          check(g, c, mp.mpf(a) - mid, mp.mpf(b) - mid, samples=400),
          "approx", check(g, c, mp.mpf(a) - mid, mp.mpf(b) - mid, samples=400, exact=True))
    out.append("    {" + ", ".join(hexd(dbl(x)) for x in c) + "},")
out.append("};")
out.append("")

with open(OUT + "/coeffs.inc", "w") as f:
    f.write("//===- stdlib/math/coeffs.inc - Polynomial coefficients "
            "---------*- C -*-===//\n//\n// Generated by tools/gen_tables.py; "
            "do not edit. Each array is one\n// polynomial, lowest degree first,"
            " for the reduced function in its comment.\n//\n"
            "//===" + "-" * 70 + "===//\n\n")
    f.write("\n".join(out))

# ---------------------------------------------------------------------------
# Tables.
tab = []

# log: 128 subintervals of m in [181/256, 2*181/256); entry i holds
# invc (8 significant bits, so that z = m*invc - 1 is exact), and -log(invc) as a double-double whose high
# part sits on the 2^-42 grid so that e*Ln2Hi + hi is exact.
C0 = mp.mpf(181) / 256
rows = []
zmin, zmax = mp.mpf(0), mp.mpf(0)
for i in range(128):
    if i < 75:
        lo = C0 + mp.mpf(i) / 256
        hi = lo + mp.mpf(1) / 256
    else:
        lo = 1 + mp.mpf(i - 75) / 128
        hi = lo + mp.mpf(1) / 128
    if i in (74, 75):
        invc = mp.mpf(1)
    else:
        mid = (lo + hi) / 2
        e = mp.floor(mp.log(1 / mid, 2))
        invc = mp.nint((1 / mid) * 2 ** (7 - e)) / 2 ** (7 - e)  # 8 bits: z exact
    zmin = min(zmin, lo * invc - 1)
    zmax = max(zmax, hi * invc - 1)
    lg = -mp.log(invc)
    hi_ = mp.nint(lg * 2 ** 42) / 2 ** 42
    lo_ = lg - hi_
    rows.append((invc, hi_, lo_))
print("log z range: [%s, %s] (log2: %g %g)" % (
    mp.nstr(zmin, 6), mp.nstr(zmax, 6), float(mp.log(-zmin, 2)), float(mp.log(zmax, 2))))
tab.append("// log: m in [181/256, 181/128) cut in 128 pieces (1/256 wide below 1,")
tab.append("// 1/128 above); {invc, -log(invc) hi (on the 2^-42 grid), lo}.")
tab.append("const double vf__log_table[128 * 3] = {")
for (a, b, c_) in rows:
    tab.append("    %s, %s, %s," % (hexd(dbl(a)), hexd(dbl(b)), hexd(dbl(c_))))
tab.append("};")
tab.append("")

# trig: for each biased exponent e in [EMIN, 2046], T_e = (2/pi) 2^(e-1075)
# mod 4 split at fixed bit positions: c0 holds bits 2^1..2^-50, c1 bits
# 2^-51..2^-103, c2 bits 2^-104..2^-156, c3 bits 2^-157..2^-209.
mp.mp.prec = 2600
twoopi = 2 / mp.pi
EMIN = 1023 - 28
tab.append("// Payne-Hanek: for biased exponent e in [%d, 2046], (2/pi) 2^(e-1075)" % EMIN)
tab.append("// mod 4 cut at bits 2^-50, 2^-103, 2^-156 and truncated at 2^-209.")
tab.append("const double vf__trig_table[(2047 - %d) * 4] = {" % EMIN)
for e in range(EMIN, 2047):
    t = twoopi * mp.mpf(2) ** (e - 1075)
    t = t - 4 * mp.floor(t / 4)
    parts = []
    for g in (50, 103, 156, 209):
        p = mp.floor(t * mp.mpf(2) ** g) / mp.mpf(2) ** g
        parts.append(p)
        t = t - p
    for p in parts:
        assert mp.mpf(dbl(p)) == p
    tab.append("    %s, %s, %s, %s," % tuple(hexd(dbl(p)) for p in parts))
tab.append("};")
tab.append("")

with open(OUT + "/tables.c", "w") as f:
    f.write("//===- stdlib/math/tables.c - Lookup tables "
            "----------------------------------===//\n//\n// Generated by "
            "tools/gen_tables.py; do not edit. The log reduction table\n// and "
            "the Payne-Hanek table of 2/pi, shared by several functions and\n"
            "// therefore defined once here (declared in internal.h).\n//\n"
            "//===" + "-" * 70 + "===//\n\n#include \"internal.h\"\n\n")
    f.write("\n".join(tab))

subprocess.run([sys.executable,
                os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             "gen_tables_f32.py"), OUT], check=True)
