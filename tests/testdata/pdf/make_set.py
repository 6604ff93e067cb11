#!/usr/bin/python3
"""Writes VFToyLO, the small LHAPDF 6 set (format lhagrid1) the PDF tests read.

The x shapes are the Les Houches toy initial conditions at Q0^2 = 2 GeV^2
(W. Giele et al., "The QCD/SM working group: Summary report", Les Houches
2001, hep-ph/0204316, section 1.3; also the input of the evolution
benchmarks of hep-ph/0511119):

    x u_v = 5.1072 x^0.8 (1-x)^3        x d_v = 3.06432 x^0.8 (1-x)^4
    x g   = 1.7 x^-0.1 (1-x)^5          x dbar = 0.1939875 x^-0.1 (1-x)^6
    x ubar = (1-x) x dbar               x s = x sbar = 0.2 (x ubar + x dbar)

Their Q dependence here is not an evolution: it is this project's smooth
stand-in, exponents moving linearly with s = ln(ln(Q^2/L^2)/ln(Q0^2/L^2)),
L = 0.2 GeV, so that interpolation in Q is tested on a known function. The
same formula is in tests/unit/runtime/pdf/ToyFormula.h; change both.
Charm is 0.1 x dbar; bottom is 0 below Q = 4.5 GeV and jumps to
0.05 (1 + ln(Q^2/4.5^2)) x dbar from there, a discontinuity at the subgrid
boundary like a flavour threshold.

Three subgrids in Q: 6 knots up to 4.5 GeV, two knots 4.5-5 GeV (where
logcubic falls back to linear), 16 knots to 10 TeV. Member 0 writes the
gluon as 21, member 1 as 0 (with the gluon times 1.05). alpha_s is an
ipol table from one-loop running (Lambda4 = 0.3, Lambda5 = 0.22), its Q
knot 4.5 repeated at the threshold; the .info also carries the Lambdas
and quark masses, so a test can switch AlphaS_Type to analytic.

Run: /usr/bin/python3 tests/testdata/pdf/make_set.py tests/testdata/pdf
"""
import math
import os
import sys

import numpy as np

NAME = "VFToyLO"
Q0SQ, LAM = 2.0, 0.2
FLAVOURS = [-5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 21]


def shapes(x, q, with_bottom):
    """x f for each flavour of FLAVOURS at (x, Q), gluon last."""
    s = math.log(math.log(q * q / LAM**2) / math.log(Q0SQ / LAM**2))
    om = 1.0 - x
    uv = 5.1072 * x ** (0.8 + 0.1 * s) * om ** (3 + s)
    dv = 3.06432 * x ** (0.8 + 0.1 * s) * om ** (4 + s)
    dbar = 0.1939875 * x ** (-0.1 - 0.15 * s) * om ** (6 + s)
    ubar = om * dbar
    sea_s = 0.2 * (ubar + dbar)
    charm = 0.1 * dbar
    bottom = 0.05 * (1 + math.log(q * q / 4.5**2)) * dbar if with_bottom else 0.0
    g = 1.7 * x ** (-0.1 - 0.15 * s) * om ** (5 + s)
    return [bottom, charm, sea_s, ubar, dbar, dbar + dv, ubar + uv, sea_s,
            charm, bottom, g]


def x_knots():
    return np.concatenate([np.geomspace(1e-5, 0.1, 30),
                           np.linspace(0.1, 1.0, 21)[1:]])


def q_subgrids():
    return [np.geomspace(math.sqrt(2.0), 4.5, 6), np.array([4.5, 5.0]),
            np.geomspace(5.0, 1e4, 16)]


def alphas_table():
    qs = list(np.geomspace(math.sqrt(2.0), 4.5, 8)) + \
        list(np.geomspace(4.5, 1e4, 12))
    vals = []
    for i, q in enumerate(qs):
        nf, lam = (4, 0.3) if i < 8 else (5, 0.22)
        b0 = (33 - 2 * nf) / (12 * math.pi)
        vals.append(1 / (b0 * math.log(q * q / lam**2)))
    return qs, vals


def fmt(values):
    return " ".join("%.9e" % v for v in values)


def write_info(folder):
    qs, vals = alphas_table()
    q_all = np.concatenate(q_subgrids())
    text = f"""SetDesc: "Les Houches toy shapes with a stand-in Q dependence,
  for the tests of vegasflow only, not a physics set"
SetIndex: 990000
Authors: vegasflow tests
Reference: hep-ph/0204316 (the x shapes)
Format: lhagrid1
DataVersion: 1
NumMembers: 2
Particle: 2212
Flavors: [{", ".join(str(f) for f in FLAVOURS)}]
OrderQCD: 0
FlavorScheme: variable
NumFlavors: 5
ErrorType: replicas
XMin: {x_knots()[0]:.9e}
XMax: 1
QMin: {q_all[0]:.9e}
QMax: {q_all[-1]:.9e}
MZ: 91.1876
MUp: 0.002
MDown: 0.005
MStrange: 0.1
MCharm: 1.3
MBottom: 4.5
MTop: 172.5
AlphaS_MZ: 0.118
AlphaS_OrderQCD: 1
AlphaS_Type: ipol
AlphaS_Lambda4: 0.3
AlphaS_Lambda5: 0.22
AlphaS_Qs: [{", ".join("%.9e" % q for q in qs)}]
AlphaS_Vals: [{", ".join("%.9e" % v for v in vals)}]
"""
    with open(os.path.join(folder, NAME + ".info"), "w") as f:
        f.write(text)


def write_member(folder, member):
    xs = x_knots()
    gluon_id, gluon_factor = (21, 1.0) if member == 0 else (0, 1.05)
    ids = FLAVOURS[:-1] + [gluon_id]
    lines = ["PdfType: " + ("central" if member == 0 else "replica"),
             "Format: lhagrid1", "---"]
    for qs in q_subgrids():
        lines += [fmt(xs), fmt(qs), " ".join(str(i) for i in ids)]
        for x in xs:
            for q in qs:
                # The first subgrid ends at the bottom threshold, below it.
                row = shapes(x, q, qs[0] >= 4.5)
                row[-1] *= gluon_factor
                lines.append(fmt(row))
        lines.append("---")
    name = os.path.join(folder, "%s_%04d.dat" % (NAME, member))
    with open(name, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    folder = os.path.join(sys.argv[1] if len(sys.argv) > 1 else ".", NAME)
    os.makedirs(folder, exist_ok=True)
    write_info(folder)
    for member in range(2):
        write_member(folder, member)


if __name__ == "__main__":
    main()
