#!/usr/bin/env python3
#===- tests/integration/physics.py - The physics examples, checked --------===#
#
# Usage: physics.py VEGASC EXAMPLES_PHYSICS_DIR
#
# Runs every integrand of examples/physics/ with a small budget (seed 1) and
# requires each result within 5 sigma of its exact value, computed here
# from the closed forms quoted in the examples' comments (independently of
# the .vf code): e+e- -> mu+mu- (total, and its histogram of cos theta in
# ten bins with the under- and overflow, checked bin by bin, and its
# forward-backward asymmetry: integrand fb and its derived afb; total, and
# u ubar, d dbar -> l+ l-, from the helicity amplitudes of
# ee_mumu_spinors.vf), the
# massless 3-, 4- and 5-body volumes from RAMBO and the sequential generator, the
# muon width and its histogram of the electron spectrum, a Z line shape
# through the Breit-Wigner map and on [0, inf], and the TOML scan across
# the Z peak, and a toy Drell-Yan cross section through std/hadronic
# (toy_drell_yan.vf: the (tau, y) map, a made-up luminosity, lepton cuts
# in pseudorapidity after the boost to the laboratory) against Simpson's
# rule in (log tau, y) with the cut's acceptance in closed form (200
# intervals each: a relative error below 1e-7, far below the 5 sigma).
# RAMBO's weight is a constant, so its integrands carry a
# rounding-level floor (1e-12 relative) besides the 5 sigma. Also: the
# integral of 1 on [0, inf] does not decay and stops with a non-finite
# sample instead of returning a number.
#
#===----------------------------------------------------------------------===#
import math
import os
import sys

from vftest import as_list, check, finish, vegasc, write_source

ALPHA, GF, MZ, GZ, SW2, GEV2PB = 1 / 128, 1.1663787e-5, 91.1876, 2.4952, \
    0.2312, 0.3893794e9
MMU = 0.1056583755


def couplings(s, q=-1, t3=-0.5):
    """A0, A1 of f fbar -> mu+ mu- for the fermion f of charge q and
    isospin t3 (ee_mumu.vf's formula, drell_yan.vf's for a quark)."""
    k = math.sqrt(2) * GF * MZ**2 / (4 * math.pi * ALPHA)
    d = (s - MZ**2)**2 + GZ**2 * MZ**2
    chi1, chi2 = k * s * (s - MZ**2) / d, k**2 * s**2 / d
    vq, aq = t3 - 2 * q * SW2, t3
    v, a = -0.5 + 2 * SW2, -0.5
    return (q * q - 2 * q * vq * v * chi1 +
            (vq * vq + aq * aq) * (v * v + a * a) * chi2,
            -2 * q * aq * a * chi1 + 4 * vq * v * aq * a * chi2)


def ee_sigma(rs):
    s = rs * rs
    return GEV2PB * 4 * math.pi * ALPHA**2 / (3 * s) * couplings(s)[0]


def qqbar_sigma(rs, q, t3):
    """q qbar -> gamma*/Z -> l+ l-, averaged over the quark's colours."""
    s = rs * rs
    return GEV2PB * 4 * math.pi * ALPHA**2 / (9 * s) * couplings(s, q, t3)[0]


def ee_bins(rs):
    """The ten bins of |c| < 0.9, then the underflow and the overflow."""
    s = rs * rs
    a0, a1 = couplings(s)
    f = lambda c: GEV2PB * math.pi * ALPHA**2 / (2 * s) * \
        (a0 * (c + c**3 / 3) + a1 * c * c)
    edges = [-0.9 + 0.18 * k for k in range(11)]
    return [f(edges[k + 1]) - f(edges[k]) for k in range(10)] + \
        [f(-0.9) - f(-1), f(1) - f(0.9)]


def ee_fb(rs):
    """sigma, sigma_F - sigma_B and the asymmetry 3 A1 / (4 A0)."""
    s = rs * rs
    a0, a1 = couplings(s)
    k = GEV2PB * math.pi * ALPHA**2 / (2 * s)
    return ee_sigma(rs), 2 * k * a1, 3 * a1 / (4 * a0)


# toy_drell_yan.vf's inputs: std/pdg's alpha and (hbar c)^2, and its
# made-up proton, x f(x) by PDG id.
TOY_ALPHA, TOY_GEV2PB = 1 / 137.035999084, 0.3893793721e9
TOY_RS, TOY_MLO, TOY_MHI, TOY_ETAMAX = 13000.0, 60.0, 120.0, 2.5


def toy_proton(x):
    s = 0.2 * x**-0.2 * (1 - x)**7
    v = x**0.5 * (1 - x)**3
    return {-5: 0.1 * s, -4: 0.2 * s, -3: 0.5 * s, -2: s, -1: s, 0: 3 * s,
            1: s + v, 2: s + 2 * v, 3: 0.5 * s, 4: 0.2 * s, 5: 0.1 * s}


def simpson(f, a, b, n):
    h = (b - a) / n
    return h / 3 * (f(a) + f(b) + sum((4 if k % 2 else 2) * f(a + k * h)
                                      for k in range(1, n)))


def toy_drell_yan(cuts, n=200):
    """sigma = int dtau dy (1/tau) L 4 pi alpha^2 / (9 tau S) A(y) in pb;
    the acceptance of |eta| < etamax for both leptons of the partonic
    3/8 (1 + c^2) is A(y) = 3/8 * 2 (t + t^3/3), t = tanh(etamax - |y|).
    The integrand is even in y (identical beams)."""
    charge2 = {1: 1 / 9, 2: 4 / 9, 3: 1 / 9, 4: 4 / 9, 5: 1 / 9}

    def at_y(tau, y):
        a = toy_proton(math.sqrt(tau) * math.exp(y))
        b = toy_proton(math.sqrt(tau) * math.exp(-y))
        lum = sum(charge2[q] * (a[q] * b[-q] + a[-q] * b[q])
                  for q in range(1, 6))
        t = math.tanh(TOY_ETAMAX - abs(y))
        return lum * (3 / 4 * (t + t**3 / 3) if cuts else 1)

    def at_logtau(lt):
        tau = math.exp(lt)
        ymax = min(-lt / 2, TOY_ETAMAX) if cuts else -lt / 2
        # dtau = tau dlog(tau) cancels the luminosity's 1/tau.
        return 2 * simpson(lambda y: at_y(tau, y), 0, ymax, n) * 4 * \
            math.pi * TOY_ALPHA**2 / (9 * tau * TOY_RS**2) * TOY_GEV2PB

    return simpson(at_logtau, 2 * math.log(TOY_MLO / TOY_RS),
                   2 * math.log(TOY_MHI / TOY_RS), n)


def check_derived(tag, doc, name, exact):
    """The derived item \p name within 5 of its propagated errors."""
    items = {d["name"]: d for d in doc["result"].get("derived", [])}
    if not check(name in items, f"{tag}: derived '{name}' reported"):
        return
    m, e = items[name]["mean"], items[name]["error"]
    print(f"{tag} {name}: {m!r} +- {e:.3g}, exact {exact!r}")
    check(e > 0 and abs(m - exact) <= 5 * e,
          f"{tag} {name}: within 5 sigma of the exact value")


def volume(n, s):
    return (math.pi / 2)**(n - 1) * s**(n - 2) / \
        (math.factorial(n - 1) * math.factorial(n - 2))


def muon_width():
    return GF**2 * MMU**5 / (192 * math.pi**3)


def muon_bins():
    g = muon_width()
    f = lambda y: g * (2 * y**3 - y**4)
    return [f(0.2 * (k + 1)) - f(0.2 * k) for k in range(5)] + [0.0, 0.0]


def check_result(tag, doc, exact, floor=0.0):
    res = doc["result"]
    means, errors = as_list(res["mean"]), as_list(res["error"])
    check(len(means) == len(exact), f"{tag}: {len(exact)} component(s)")
    for c, (m, e, x) in enumerate(zip(means, errors, exact)):
        t = f"{tag}[{c}]" if len(exact) > 1 else tag
        tol = 5 * e + floor * abs(x)
        print(f"{t}: {m!r} +- {e:.3g}, exact {x!r}, "
              f"pull {(m - x) / e if e else math.inf:+.2f}")
        check(e > 0 or floor > 0, f"{t}: positive error")
        check(abs(m - x) <= tol, f"{t}: within 5 sigma of the exact value")


def check_histogram(tag, doc, name, exact):
    """Each bin, then the underflow and overflow, within 5 sigma of \p exact
    (an empty flow: exactly 0); bins and flows add up to the integral."""
    hs = [h for h in doc.get("histograms", []) if h["name"] == name]
    if not check(len(hs) == 1, f"{tag}: histogram '{name}' in the JSON"):
        return
    h = hs[0]
    got = h["values"] + [h["underflow"]["value"], h["overflow"]["value"]]
    err = h["errors"] + [h["underflow"]["error"], h["overflow"]["error"]]
    check(len(got) == len(exact), f"{tag}: {len(exact) - 2} bins and 2 flows")
    names = [f"bin {k}" for k in range(len(exact) - 2)] + ["underflow",
                                                           "overflow"]
    for n, m, e, x in zip(names, got, err, exact):
        print(f"{tag} {name} {n}: {m!r} +- {e:.3g}, exact {x!r}")
        ok = m == 0 and e == 0 if x == 0 else e > 0 and abs(m - x) <= 5 * e
        check(ok, f"{tag} {name} {n}: within 5 sigma of the exact value")
    mean = doc["result"]["mean"]
    check(abs(math.fsum(got) - mean) <= 1e-12 * abs(mean),
          f"{tag} {name}: bins and flows add up to the integral")


def run(exe, path, integrand, calls, exact, floor=0.0, hist=None,
        derived=None):
    r = vegasc(exe, [path, "--integrand", integrand, "-q", "--seed", 1,
                     "--calls", calls, "--iterations", 5, "--warmup", 3])
    tag = f"{os.path.basename(path)}:{integrand}"
    if check(r.rc == 0 and r.doc is not None, f"{tag}: vegasc succeeds"):
        check_result(tag, r.doc, exact, floor)
        if hist:
            check_histogram(tag, r.doc, *hist)
        if derived:
            check_derived(tag, r.doc, *derived)
    else:
        print(r)


def main():
    exe, folder = sys.argv[1:3]
    ee = os.path.join(folder, "ee_mumu.vf")
    run(exe, ee, "sigma", 4e4, [ee_sigma(91.19)],
        hist=("costheta", ee_bins(91.19)))
    sigma, difference, afb = ee_fb(91.19)
    run(exe, ee, "fb", 4e4, [sigma, difference], derived=("afb", afb))

    spinors = os.path.join(folder, "ee_mumu_spinors.vf")
    run(exe, spinors, "sigma", 4e4, [ee_sigma(91.19)])
    run(exe, spinors, "uubar_ll", 4e4, [qqbar_sigma(91.19, 2 / 3, 0.5)])
    run(exe, spinors, "ddbar_ll", 4e4, [qqbar_sigma(91.19, -1 / 3, -0.5)])

    ps = os.path.join(folder, "phasespace.vf")
    for n in (3, 4, 5):
        run(exe, ps, f"volume_rambo{n}", 2e4, [volume(n, 100.0)], 1e-12)
        run(exe, ps, f"volume_seq{n}", 2e4, [volume(n, 100.0)])

    mu = os.path.join(folder, "muon_decay.vf")
    run(exe, mu, "width", 4e4, [muon_width()], hist=("energy", muon_bins()))

    ls = os.path.join(folder, "lineshape.vf")
    exact = 0.5 + math.atan(MZ / GZ) / math.pi
    run(exe, ls, "mapped", 1e4, [exact])
    run(exe, ls, "direct", 1e4, [exact])

    dy = os.path.join(folder, "toy_drell_yan.vf")
    run(exe, dy, "window", 2e4, [toy_drell_yan(False)])
    run(exe, dy, "cuts", 2e4, [toy_drell_yan(True)])

    r = vegasc(exe, [os.path.join(folder, "z_scan.toml"), "-q"])
    if check(r.rc == 0 and r.doc is not None, "z_scan.toml: vegasc succeeds"):
        runs = r.doc["runs"]
        check(len(runs) == 7, "z_scan.toml: seven energies")
        for one in runs:
            rs = one["point"]["rs"]
            check_result(f"z_scan rs={rs}", one, [ee_sigma(rs)])
    else:
        print(r)

    # No decay, no number: the map's end makes the sample infinite.
    src = write_source("nodecay", "integrand one(x in [0, inf]) = 1\n")
    r = vegasc(exe, [src, "-q", "--calls", 1e4, "--iterations", 10],
               json_out=False)
    check(r.rc != 0 and "is inf at" in r.err,
          "integral of 1 on [0, inf]: stops with a non-finite sample")
    finish()


if __name__ == "__main__":
    main()
