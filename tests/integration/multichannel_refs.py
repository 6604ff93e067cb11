#!/usr/bin/env python3
#===- tests/integration/multichannel_refs.py - Multi-channel references -===#
#
# Usage: multichannel_refs.py [--gz WIDTH]
#
# The reference values quoted in the comments of examples/physics/
# zgamma_lineshape.vf, dalitz_two_resonances.vf and antidiagonal_peaks.vf,
# computed here by adaptive quadrature (scipy.integrate.quad, dblquad) of
# the physics in its own variables (s; m12^2 and m23^2; x and y), never
# through the examples' channel mappings, so that the examples are checked
# against numbers they did not produce. Each value is printed to 12
# digits with quad's own error estimate; the Dalitz and anti-diagonal
# values are also computed a second way (one-dimensional quadratures of
# each resonance against the Dalitz boundary; the peaks' erf closed form)
# and the two must agree. physics_channels.py imports the functions.
#
#===----------------------------------------------------------------------===#
import argparse
import math

from scipy import integrate, special

# zgamma_lineshape.vf: u ubar -> gamma*/Z -> l+ l- with a luminosity flat in
# log tau, d sigma / ds = sigma_hat(s) / s, over 50 < m < 150 GeV.
AEM, GF, MZ, GZ, SW2, GEV2PB = 1 / 128, 1.1663787e-5, 91.1876, 2.4952, \
    0.2312, 0.3893794e9
SLO, SHI = 50.0**2, 150.0**2
QU, VU, AU = 2 / 3, 0.5 - 4 / 3 * SW2, 0.5
VL, AL = -0.5 + 2 * SW2, -0.5


def dsigma_ds(s, gz=GZ):
    """sigma_hat(u ubar -> l l) / s in pb/GeV^2: photon, Z and their
    interference (Ellis, Stirling, Webber, eq. 9.7, colour-averaged)."""
    kappa = math.sqrt(2) * GF * MZ**2 / (4 * math.pi * AEM)
    d = (s - MZ**2)**2 + MZ**2 * gz**2
    chi1, chi2 = kappa * s * (s - MZ**2) / d, kappa**2 * s**2 / d
    couplings = QU**2 - 2 * QU * VL * VU * chi1 + \
        (VL**2 + AL**2) * (VU**2 + AU**2) * chi2
    return GEV2PB * 4 * math.pi * AEM**2 / (3 * s) / 3 * couplings / s


def lineshape(gz=GZ):
    """The integral over [SLO, SHI], split at the peak and +-50 widths
    around it so that quad sees the resonance whatever its width."""
    near = [MZ**2 - 50 * MZ * gz, MZ**2, MZ**2 + 50 * MZ * gz]
    cuts = [SLO] + [c for c in near if SLO < c < SHI] + [SHI]
    parts = [integrate.quad(dsigma_ds, a, b, args=(gz,), limit=500,
                            epsabs=0, epsrel=1e-13) for a, b in
             zip(cuts, cuts[1:])]
    return math.fsum(p[0] for p in parts), math.fsum(p[1] for p in parts)


# dalitz_two_resonances.vf: D_s+ -> K+ K- pi+ (1 2 3) through phi(1020) in
# m12 = m(K+ K-) and K*(892)0 in m23 = m(K- pi+), each a unit-area
# Breit-Wigner in its invariant, incoherent, uniform phase space.
MDS, MK, MPI = 1.96835, 0.493677, 0.13957039
M1, M2, M3 = MK, MK, MPI
MPHI, GPHI, MKST, GKST = 1.019461, 0.004249, 0.89555, 0.0473


def unit_bw(s, m, g):
    return m * g / math.pi / ((s - m * m)**2 + m * m * g * g)


def dalitz_f(s12, s23):
    return unit_bw(s12, MPHI, GPHI) + unit_bw(s23, MKST, GKST)


def partner_limits(s, ma, mb, mc):
    """The range of m_bc^2 at m_ab^2 = s (PDG, Kinematics, eq. 49.23, with
    1 2 3 named a b c): b is the particle the two pairs share."""
    m = math.sqrt(s)
    eb = (s - ma**2 + mb**2) / (2 * m)
    ec = (MDS**2 - s - mc**2) / (2 * m)
    pb, pc = math.sqrt(max(eb * eb - mb**2, 0)), \
        math.sqrt(max(ec * ec - mc**2, 0))
    return (eb + ec)**2 - (pb + pc)**2, (eb + ec)**2 - (pb - pc)**2


def s23_limits(s12):
    return partner_limits(s12, M1, M2, M3)


def s12_limits(s23):
    return partner_limits(s23, M3, M2, M1)


S12_RANGE = ((M1 + M2)**2, (MDS - M3)**2)
S23_RANGE = ((M2 + M3)**2, (MDS - M1)**2)


def dalitz():
    """The double integral over the Dalitz region: m12^2 outside, m23^2
    inside, each split at its resonance where it lies in the range."""
    def inner(s12):
        lo, hi = s23_limits(s12)
        pts = [MKST**2] if lo < MKST**2 < hi else None
        return integrate.quad(lambda s23: dalitz_f(s12, s23), lo, hi,
                              points=pts, limit=400, epsabs=0,
                              epsrel=1e-12)[0]
    lo, hi = S12_RANGE
    return integrate.quad(inner, lo, hi, points=[MPHI**2], limit=400,
                          epsabs=0, epsrel=1e-11)


def dalitz_by_resonance():
    """Each resonance's term integrated over its partner invariant in
    closed form (the band's length), leaving one quadrature each."""
    def band(limits):
        return lambda s: limits(s)[1] - limits(s)[0]
    phi = integrate.quad(lambda s: unit_bw(s, MPHI, GPHI) *
                         band(s23_limits)(s), *S12_RANGE,
                         points=[MPHI**2], limit=400, epsabs=0,
                         epsrel=1e-13)
    kst = integrate.quad(lambda s: unit_bw(s, MKST, GKST) *
                         band(s12_limits)(s), *S23_RANGE,
                         points=[MKST**2], limit=400, epsabs=0,
                         epsrel=1e-13)
    return phi[0] + kst[0]


# antidiagonal_peaks.vf: two Gaussians of width 0.003 on the anti-diagonal
# of the unit square, each of area 1/2 on the plane.
PEAKS, SIGMA = ((0.25, 0.75), (0.75, 0.25)), 0.003


def peaks_f(y, x):
    return sum(math.exp(-((x - a)**2 + (y - b)**2) / (2 * SIGMA**2))
               for a, b in PEAKS) / (4 * math.pi * SIGMA**2)


def antidiagonal():
    return integrate.dblquad(peaks_f, 0, 1, 0, 1, epsabs=0, epsrel=1e-12)


def antidiagonal_erf():
    def axis(c):
        r = SIGMA * math.sqrt(2)
        return (special.erf((1 - c) / r) + special.erf(c / r)) / 2
    return sum(axis(a) * axis(b) for a, b in PEAKS) / 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gz", type=float, default=GZ,
                    help="the Z width of the line shape (GeV)")
    o = ap.parse_args()
    v, e = lineshape(o.gz)
    print(f"zgamma_lineshape (gz = {o.gz}): {v:.12g} pb  (quad +- {e:.1g})")
    v, e = dalitz()
    print(f"dalitz_two_resonances: {v:.12g}  (quad +- {e:.1g}; "
          f"per resonance {dalitz_by_resonance():.12g})")
    v, e = antidiagonal()
    print(f"antidiagonal_peaks: {v:.12g}  (dblquad +- {e:.1g}; "
          f"erf {antidiagonal_erf():.12g})")


if __name__ == "__main__":
    main()
