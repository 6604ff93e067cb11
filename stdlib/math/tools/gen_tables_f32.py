#!/usr/bin/env python3
#===- stdlib/math/tools/gen_tables_f32.py - Float coefficients and tables --===#
#
# Generates stdlib/math/coeffsf.inc and stdlib/math/tablesf.c, the
# single-precision library's polynomials and tables, with mpmath: Chebyshev
# interpolants (near-minimax) of the reduced functions named in each
# comment, in monomial form, rounded to float; the error of each rounded
# polynomial against the exact function is printed so that a too-low
# degree is noticed. gen_tables.py runs this too; by hand:
#   python3 stdlib/math/tools/gen_tables_f32.py stdlib/math
#
#===------------------------------------------------------------------------===#
import struct
import sys
import mpmath as mp

mp.mp.prec = 256


def flt(v):
    """Round to the nearest float, in one step (mpmath at 24 bits)."""
    with mp.workprec(24):
        r = +mp.mpf(v)
    return float(r)


def hexf(v):
    h = float(flt(v)).hex()
    m, e = h.split("p")
    return m.rstrip("0").rstrip(".") + "p" + e + "f"


def cheb_fit(f, a, b, n):
    """Monomial coefficients (low first) of the degree-n Chebyshev
    interpolant of f on [a, b]."""
    a, b = mp.mpf(a), mp.mpf(b)
    nodes = [mp.cos(mp.pi * (k + mp.mpf(1) / 2) / (n + 1)) for k in range(n + 1)]
    xs = [(a + b) / 2 + (b - a) / 2 * t for t in nodes]
    A = mp.matrix([[x ** j for j in range(n + 1)] for x in xs])
    c = mp.lu_solve(A, mp.matrix([f(x) for x in xs]))
    return [c[j] for j in range(n + 1)]


def check(f, coeffs, a, b, samples=1000):
    """log2 of the worst relative error of the float-rounded polynomial."""
    cf = [mp.mpf(flt(c)) for c in coeffs]
    worst = mp.mpf(0)
    for i in range(samples + 1):
        x = mp.mpf(a) + (mp.mpf(b) - mp.mpf(a)) * i / samples
        p = mp.mpf(0)
        for c in reversed(cf):
            p = p * x + c
        worst = max(worst, abs(p - f(x)) / abs(f(x)))
    return float(mp.log(worst, 2)) if worst > 0 else -999


def safe(f, x0, v0):
    """f with its removable singularity at x0 filled in, evaluated with
    enough guard bits that the cancellation near x0 does not show."""
    def g(x):
        if x == x0:
            return v0
        with mp.workprec(1200):
            return +f(x)
    return g


out = []


def array(name, values):
    """A float array, one value per line."""
    out.append("static const float %s[%d] = {" % (name, len(values)))
    out.extend("    %s," % hexf(v) for v in values)
    out.append("};")


def poly(name, f, a, b, n, note):
    c = cheb_fit(f, a, b, n)
    print("%s deg %d: log2 rel err %.1f" % (name, n, check(f, c, a, b)))
    out.append("// %s, degree %d" % (note, n))
    array(name, c)
    out.append("")


SL = 1 + mp.mpf(2) ** -12  # slack for the float-float tails

# exp: e^r = 1 + r + r^2/2 + r^3 Q(r), |r| <= ln2/2.
R = mp.log(2) / 2 * SL
poly("ExpQF", safe(lambda r: (mp.exp(r) - 1 - r - r * r / 2) / r ** 3, 0,
                   mp.mpf(1) / 6), -R, R, 5,
     "(e^r - 1 - r - r^2/2) / r^3 on |r| <= ln2/2")

# log: log1p(z) = z - z^2/2 + z^3 L(z) on the reduced range (table below).
ZA, ZB = -mp.mpf(2) ** -6 * SL, mp.mpf(2) ** -6 * SL
poly("LogLF", safe(lambda z: (mp.log1p(z) - z + z * z / 2) / z ** 3, 0,
                   mp.mpf(1) / 3), ZA, ZB, 3,
     "(log1p(z) - z + z^2/2) / z^3 on |z| <= 2^-6")

# logf without a table: log((1+s)/(1-s)) = 2s + s^3 S(s^2) for
# |s| <= (sqrt2 - 1)/(sqrt2 + 1), m in [sqrt(1/2), sqrt2), s = (m-1)/(m+1).
SM = (mp.sqrt(2) - 1) / (mp.sqrt(2) + 1) * SL
poly("LogSF", safe(lambda z: (2 * mp.atanh(mp.sqrt(z)) - 2 * mp.sqrt(z)) / mp.sqrt(z) ** 3,
                   0, mp.mpf(2) / 3), 0, SM * SM, 3,
     "(log((1+s)/(1-s)) - 2s) / s^3 in z = s^2 on |s| <= (sqrt2-1)/(sqrt2+1)")

# sin/cos on |r| <= pi/4, in u = r^2.
U = (mp.pi / 4 * SL) ** 2
poly("SinSF", safe(lambda u: (mp.sin(mp.sqrt(u)) - mp.sqrt(u)) / mp.sqrt(u) ** 3,
                   0, -mp.mpf(1) / 6), 0, U, 3,
     "(sin r - r) / r^3 in u = r^2 on |r| <= pi/4")
poly("CosCF", safe(lambda u: (mp.cos(mp.sqrt(u)) - 1 + u / 2) / u ** 2, 0,
                   mp.mpf(1) / 24), 0, U, 3,
     "(cos r - 1 + r^2/2) / r^4 in u = r^2 on |r| <= pi/4")

# atan on |t| <= tan(pi/8), in u = t^2.
U = (mp.tan(mp.pi / 8) * SL) ** 2
poly("AtanAF", safe(lambda u: (mp.atan(mp.sqrt(u)) - mp.sqrt(u)) / mp.sqrt(u) ** 3,
                    0, -mp.mpf(1) / 3), 0, U, 6,
     "(atan t - t) / t^3 in u = t^2 on |t| <= tan(pi/8)")

# asin on |x| <= 1/2, in u = x^2.
poly("AsinPF", safe(lambda u: (mp.asin(mp.sqrt(u)) - mp.sqrt(u)) / mp.sqrt(u) ** 3,
                    0, mp.mpf(1) / 6), 0, mp.mpf(1) / 4 * SL, 6,
     "(asin x - x) / x^3 in u = x^2 on |x| <= 1/2")

# sinh on |x| <= 1, in u = x^2.
poly("SinhSF", safe(lambda u: (mp.sinh(mp.sqrt(u)) - mp.sqrt(u)) / mp.sqrt(u) ** 3,
                    0, mp.mpf(1) / 6), 0, 1, 4,
     "(sinh x - x) / x^3 in u = x^2 on |x| <= 1")

# cbrt seed: m^(-1/3) on [1, 8], coarse (Newton refines it).
c = cheb_fit(lambda m: m ** (-mp.mpf(1) / 3), 1, 8, 5)
print("CbrtSeedF deg 5: log2 rel err %.1f" % check(lambda m: m ** (-mp.mpf(1) / 3), c, 1, 8))
out.append("// m^(-1/3) on [1, 8], degree 5 (seed for Newton)")
array("CbrtSeedF", c)
out.append("")

# erf on |x| <= 3/4: erf(x) = x (c0 + u E(u)), u = x^2.
X0 = mp.mpf(3) / 4
c0 = 2 / mp.sqrt(mp.pi)
poly("ErfEF", safe(lambda u: (mp.erf(mp.sqrt(u)) / mp.sqrt(u) - c0) / u, 0, -c0 / 3),
     0, X0 * X0 * SL, 6,
     "(erf(x)/x - 2/sqrt(pi)) / x^2 in u = x^2 on |x| <= 3/4")

# erfc(x) e^(x^2) on pieces of [1/2, 10.125], in s = x - mid.
pieces = [(0.5, 0.75), (0.75, 1.25), (1.25, 1.75), (1.75, 2.375), (2.375, 3.125),
          (3.125, 4.25), (4.25, 6.0), (6.0, 8.0), (8.0, 10.125)]
DEG = 9
fg = lambda x: mp.erfc(x) * mp.exp(x * x)
out.append("// erfc(x) e^(x^2) on the pieces below, degree %d in s = x - mid;" % DEG)
out.append("// row i holds piece i, coefficients low first, then the constant")
out.append("// term's rounding error (the sum is formed as a float-float).")
array("ErfcBreaksF", [p[0] for p in pieces])
array("ErfcMidF", [(p[0] + p[1]) / 2 for p in pieces])
out.append("static const float ErfcGF[%d * %d] = {" % (len(pieces), DEG + 2))
for (a, b) in pieces:
    mid = mp.mpf(flt((a + b) / 2))
    g = lambda s, mid=mid: fg(s + mid)
    c = cheb_fit(g, mp.mpf(a) - mid, mp.mpf(b) - mid, DEG)
    print("erfc piece [%g,%g] deg %d: log2 rel err %.1f" % (
        a, b, DEG, check(g, c, mp.mpf(a) - mid, mp.mpf(b) - mid, samples=300)))
    row = [hexf(x) for x in c] + [hexf(c[0] - mp.mpf(flt(c[0])))]
    for k in range(0, len(row), 4):
        out.append("    " + ", ".join(row[k:k + 4]) + ",")
out.append("};")
out.append("")

# The constants below are written as literals in internalf.h and the
# function files; print them so a change can be checked.
ln2 = mp.log(2)
print("ln2 hi16 %s lo %s; ln2 f %s rest %s" % (
    hexf(mp.nint(ln2 * 2 ** 16) / 2 ** 16), hexf(ln2 - mp.nint(ln2 * 2 ** 16) / 2 ** 16),
    hexf(ln2), hexf(ln2 - mp.mpf(flt(ln2)))))

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
with open(OUT + "/coeffsf.inc", "w") as f:
    f.write("//===- stdlib/math/coeffsf.inc - Float polynomial coefficients "
            "--*- C -*-===//\n//\n// Generated by tools/gen_tables_f32.py; do "
            "not edit. Each array is one\n// polynomial, lowest degree first, "
            "for the reduced function in its comment.\n//\n"
            "//===" + "-" * 70 + "===//\n\n")
    f.write("\n".join(out))

# ---------------------------------------------------------------------------
# Tables.
tab = []

# log: m in [OFF, 2 OFF), OFF = 0x3f360000 = 0.7109375, cut in 32 pieces of
# 2^18 float steps; piece 18 holds 1 (in its middle) and has c = 1.
OFF = 0x3f360000
def bits_to_f(u):
    return mp.mpf(struct.unpack("f", struct.pack("I", u))[0])
rows = []
zmin, zmax = mp.mpf(0), mp.mpf(0)
for i in range(32):
    lo = bits_to_f(OFF + i * 2 ** 18)
    hi = bits_to_f(OFF + (i + 1) * 2 ** 18) if i < 31 else 2 * bits_to_f(OFF)
    invc = mp.mpf(1) if i == 18 else mp.mpf(flt(2 / (lo + hi)))
    zmin = min(zmin, lo * invc - 1)
    zmax = max(zmax, hi * invc - 1)
    lg = -mp.log(invc)
    h = mp.mpf(flt(lg))
    rows.append((invc, h, lg - h))
print("logf z range: [%s, %s] (log2: %g %g)" % (
    mp.nstr(zmin, 6), mp.nstr(zmax, 6), float(mp.log(-zmin, 2)), float(mp.log(zmax, 2))))
tab.append("// logf: m in [0.7109375, 1.421875) cut in 32 pieces of 2^18 float")
tab.append("// steps (piece 18, around 1, has c = 1); {invc, -log(invc) hi, lo}.")
tab.append("const float vf__logf_table[32 * 3] = {")
for (a, b, c_) in rows:
    tab.append("    %s, %s, %s," % (hexf(a), hexf(b), hexf(c_)))
tab.append("};")
tab.append("")

# Payne-Hanek: the bits of 2/pi after a zero word (so that a window may start
# up to 32 bits before the binary point), as 32-bit words, most significant
# first: word k holds bits 2^(-32k+31) .. 2^(-32k) of (2/pi) 2^-32... i.e.
# bit j of 2/pi (weight 2^-j) is bit 31 - ((j + 31) mod 32) of word (j+31)/32.
mp.mp.prec = 600
NW = 8
t = 2 / mp.pi / mp.mpf(2) ** 32
words = []
for k in range(NW):
    t *= mp.mpf(2) ** 32
    w = int(mp.floor(t))
    words.append(w)
    t -= w
tab.append("// Payne-Hanek: 2/pi in 32-bit words, most significant first, after one")
tab.append("// zero word: bit j of 2/pi (weight 2^-j) is word (j + 31) / 32.")
tab.append("const uint32_t vf__twoopi_words[%d] = {" % NW)
for k in range(0, NW, 4):
    tab.append("    " + ", ".join("0x%08xu" % w for w in words[k:k + 4]) + ",")
tab.append("};")
tab.append("")

with open(OUT + "/tablesf.c", "w") as f:
    f.write("//===- stdlib/math/tablesf.c - Float lookup tables "
            "------------------------===//\n//\n// Generated by "
            "tools/gen_tables_f32.py; do not edit. The float log reduction\n"
            "// table and the bits of 2/pi for the float Payne-Hanek reduction"
            "\n// (declared in internalf.h).\n//\n"
            "//===" + "-" * 70 + "===//\n\n#include \"internalf.h\"\n\n")
    f.write("\n".join(tab))
