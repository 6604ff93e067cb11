#!/usr/bin/env python3
#===- tests/integration/drell_yan_pp.py - p p -> Z/gamma* -> l+ l- -------===#
#
# Usage: drell_yan_pp.py VEGASC PYTHON_DIR DRELL_YAN_PP.vf [VF_READ_EVENTS]
#
# examples/physics/drell_yan_pp.vf, p p -> gamma*/Z -> l+ l- at 13 TeV with
# the test set VFToyLO, against a reference that uses neither the set's
# grid nor vegasflow: the set's own formula (make_set.shapes, imported from
# tests/testdata/pdf/make_set.py) times the partonic cross section
# (physics.py's qqbar_sigma), integrated over (M, y) by scipy's dblquad to
# 1e-8 relative, far below the errors compared:
#  1. sigma in 66 < M < 116 GeV and four histogram bins (two of dsigma/dM,
#     two of dsigma/dy) within 5 sigma, sigma being the run's error and
#     the grid's interpolation error added in quadrature. That systematic
#     is measured, not assumed: the largest absolute difference a(x)
#     between the grid (xfx through the Python module) and the formula,
#     per band of log x and quark flavour, over 11 scales of the window,
#     propagated through the luminosity (|delta L| <= a1 f2 + f1 a2 to
#     first order) on 1 GeV x 0.05 cells of (M, y) and doubled, for the
#     gaps between the points sampled: about 0.57 pb on sigma (4.5e-4);
#     'sigma_scales' (sigma with its 7-point scale list): entry 0 is sigma,
#     mu_R alone changes nothing at leading order, and mu_F = 2M and M/2
#     agree with the reference at those scales within 5 sigma;
#  2. 'sigma_amplitudes' (helicity amplitudes in spinor products) equals
#     'sigma' (the closed formula) to 1e-12 relative at 500 points;
#  3. 10,000 unweighted LHE events with the options a shower needs: the
#     count, <init>'s beams and PDF ids, every event's colour flow (each
#     line one colour and one anticolour end; the quark's colour, the
#     antiquark's anticolour), the leptons' mothers, SCALUP the dilepton
#     mass of the momenta to 1e-9, momentum conservation, all five quark
#     flavours from both beams (a parse of the file here); where HepMC3 is
#     installed, its LHEF reader (vf_read_events) reads the same count,
#     beams and scales.
#
#===----------------------------------------------------------------------===#
import bisect
import math
import os
import sys

import numpy as np
from scipy import integrate

from physics import qqbar_sigma
from eventcheck import read
from vftest import check, finish, vegasc, workdir

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "testdata", "pdf"))
import make_set  # noqa: E402  (the set's formula, not its grid)

RS, MLO, MHI = 13000.0, 66.0, 116.0
TAUMIN = (MLO / RS)**2
QUARKS = [(-1 / 3, -0.5), (2 / 3, 0.5), (-1 / 3, -0.5), (2 / 3, 0.5),
          (-1 / 3, -0.5)]  # d, u, s, c, b: charge, weak isospin
EPSREL = 1e-8
# The checked bins: (histogram, bin, M range, y range).
BINS = [("mass", 0, (66, 68), None), ("mass", 12, (90, 92), None),
        ("rapidity", 10, (MLO, MHI), (0, 0.5)),
        ("rapidity", 15, (MLO, MHI), (2.5, 3))]
CELL = 1.0 * 0.05  # GeV x unit of rapidity, the bound's cells
RUN = ["--calls", "5e4", "--iterations", 6, "--warmup", 3, "--seed", 1]


def formula(x, q):
    """x f of make_set's FLAVOURS (gluon last) at (x, Q), from the formula."""
    return make_set.shapes(min(x, 1.0), q, True)


def luminosity(f1, f2, m):
    """sum_q (q(x1) qbar(x2) + qbar(x1) q(x2)) sigma_hat_q(M^2) in pb for
    x f's f1, f2 in FLAVOURS' order (q at index 4 + id, qbar at 5 - id):
    bilinear, so that it also propagates a bound on f1 or f2."""
    return sum((f1[4 + i] * f2[5 - i] + f1[5 - i] * f2[4 + i]) *
               qqbar_sigma(m, *QUARKS[i - 1]) for i in range(1, 6))


def weight(m, y, xif=1.0):
    """dsigma/dM dy in pb at mu_F = xif M; dtau/tau = 2 dM/M."""
    x1, x2 = m / RS * math.exp(y), m / RS * math.exp(-y)
    return 2 / m * luminosity(formula(x1, xif * m), formula(x2, xif * m), m)


def reference(mrange, yrange=None, xif=1.0):
    """sigma of M in mrange and y in yrange, all y if None."""
    def ylo(m):
        return -math.log(RS / m) if yrange is None else yrange[0]

    def yhi(m):
        return math.log(RS / m) if yrange is None else yrange[1]
    v, _ = integrate.dblquad(lambda y, m: weight(m, y, xif), *mrange, ylo, yhi,
                             epsabs=0, epsrel=EPSREL)
    return v


def grid_error_bands(python_dir, vf_file, nbands=40, per_band=8):
    """The band edges in x and each band's largest absolute difference
    between the grid (member 0) and the formula per quark flavour (in
    FLAVOURS' order, the gluon 0), over 11 scales of the mass window."""
    sys.path.insert(0, python_dir)
    import vegasflow as vf
    folder = os.path.join(os.path.dirname(vf_file), "..", "..", "tests",
                          "testdata", "pdf", "VFToyLO")
    calls = ", ".join(f"xfx(p, {i}, x[0], q)" for i in make_set.FLAVOURS[:10])
    module = vf.compile(f'pdf p = "{os.path.abspath(folder)}"\nparam q = 91\n'
                        f'integrand xf(x in [1e-6, 1]) -> [10] = [{calls}]\n')
    edges = np.geomspace(TAUMIN, 1, nbands + 1)
    xs = np.geomspace(TAUMIN, 1, nbands * per_band)
    band = np.minimum(np.searchsorted(edges, xs, side="right") - 1,
                      nbands - 1)
    worst = np.zeros((nbands, 11))
    for q in np.linspace(MLO, MHI, 11):
        grid = module["xf"](xs[:, None], q=q)
        want = np.array([formula(x, q)[:10] for x in xs])
        np.maximum.at(worst[:, :10], band, np.abs(grid - want))
    return edges, worst


def interpolation_bounds(python_dir, vf_file):
    """The grid's systematic on sigma and on each of BINS, in pb: the
    bounds on the densities propagated through the luminosity at the
    centres of 1 GeV x 0.05 cells of (M, y), doubled."""
    edges, worst = grid_error_bands(python_dir, vf_file)
    print("grid vs formula, largest difference over the quarks by x band:")
    for k in range(0, len(worst), 8):
        print(f"  x in [{edges[k]:.3g}, {edges[k + 1]:.3g}): "
              f"{worst[k].max():.3g}")

    def bound(x):
        return worst[min(bisect.bisect_right(edges, x) - 1, len(worst) - 1)]
    every_y = (-math.inf, math.inf)
    regions = [((MLO, MHI), every_y)] + [(b[2], b[3] or every_y)
                                         for b in BINS]
    sums = [0.0] * len(regions)
    for m in np.arange(MLO + 0.5, MHI, 1.0):
        for y in np.arange(-5.275, 5.3, 0.05):
            x1, x2 = m / RS * math.exp(y), m / RS * math.exp(-y)
            if max(x1, x2) >= 1:
                continue
            f1, f2 = formula(x1, m), formula(x2, m)
            b = 2 / m * (luminosity(bound(x1), f2, m) +
                         luminosity(f1, bound(x2), m)) * CELL
            for k, ((mlo, mhi), (ylo, yhi)) in enumerate(regions):
                if mlo < m < mhi and ylo < y < yhi:
                    sums[k] += 2 * b
    return sums


def compare(what, got, err, exact, syst):
    """got +- err against exact within 5 sigma, sigma = err (+) syst."""
    sigma = math.hypot(err, syst)
    print(f"{what}: {got!r} +- {err:.3g} (run) +- {syst:.3g} (grid), "
          f"reference {exact!r}, pull {(got - exact) / sigma:+.2f}")
    check(err > 0 and abs(got - exact) <= 5 * sigma,
          f"{what}: within 5 sigma of the reference")


def cross_sections(exe, python_dir, vf_file):
    r = vegasc(exe, [vf_file, "--integrand", "sigma", "-q"] + RUN)
    if not check(r.rc == 0 and r.doc is not None, "sigma: vegasc succeeds"):
        print(r)
        return
    bounds = interpolation_bounds(python_dir, vf_file)
    res = r.doc["result"]
    compare("sigma(66 < M < 116)", res["mean"], res["error"],
            reference((MLO, MHI)), bounds[0])
    scale_band(exe, vf_file, bounds[0] / res["mean"])
    hists = {h["name"]: h for h in r.doc.get("histograms", [])}
    check(set(hists) == {"mass", "rapidity"},
          "the histograms mass and rapidity in the JSON")
    for (name, k, mrange, yrange), bound in zip(BINS, bounds[1:]):
        if name in hists:
            compare(f"{name} bin {k}", hists[name]["values"][k],
                    hists[name]["errors"][k], reference(mrange, yrange),
                    bound)


def scale_band(exe, vf_file, grid_share):
    """sigma_scales' 7-point list: entry 0 is the integrand's value, mu_R
    changes nothing at leading order (entries 1 = 4, 2 = 6, 0 = 3 = 5 to
    1e-12), and mu_F = 2M and M/2 within 5 sigma of the formula's
    reference there, the grid's systematic taken as the same share of
    sigma as at mu_F = M (grid_share)."""
    r = vegasc(exe, [vf_file, "--integrand", "sigma_scales", "-q", "--calls",
                     "2e4", "--iterations", 4, "--warmup", 2, "--seed", 2])
    if not check(r.rc == 0 and r.doc and r.doc.get("weight_lists"),
                 "sigma_scales: vegasc succeeds with its list"):
        print(r)
        return
    entries = r.doc["weight_lists"][0]["entries"]
    v = [e["value"] for e in entries]
    central = r.doc["result"]["mean"]

    def same(a, b):
        return abs(a - b) <= 1e-12 * abs(b)
    check(len(v) == 7 and same(v[0], central), "scales: entry 0 is sigma")
    check(len(v) == 7 and same(v[1], v[4]) and same(v[2], v[6]) and
          same(v[3], v[0]) and same(v[5], v[0]),
          "scales: mu_R alone changes nothing at leading order")
    for k, xif in ((1, 2.0), (2, 0.5)):
        ref = reference((MLO, MHI), xif=xif)
        compare(f"sigma(mu_F = {xif} M)", v[k], entries[k]["error"], ref,
                grid_share * ref)
    env = r.doc["weight_lists"][0]["envelope"]
    check(env["low"] < central < env["high"],
          "scales: the envelope holds the central value")


def amplitudes_pointwise(python_dir, vf_file):
    sys.path.insert(0, python_dir)
    import vegasflow as vf
    module = vf.compile(vf_file)
    x = np.random.default_rng(39).random((500, 5))
    want = module["sigma"](x)
    got = module["sigma_amplitudes"](x)
    scale = np.maximum(np.abs(want), 1e-300)
    worst = np.max(np.abs(got - want) / scale)
    check(worst <= 1e-12, f"sigma_amplitudes = sigma at 500 points to 1e-12 "
          f"(worst {worst:.3g})")


def read_lhe(path):
    """(the <init> beam line, [(event line, [particle lines])])."""
    with open(path) as f:
        text = f.read()
    init = text.split("<init>")[1].split("</init>")[0].split("\n")[1]
    events = []
    for block in text.split("<event>")[1:]:
        lines = block.split("</event>")[0].strip().split("\n")
        head = [float(v) for v in lines[0].split()]
        parts = [[float(v) for v in line.split()]
                 for line in lines[1:1 + int(head[0])]]
        events.append((head, parts))
    return [float(v) for v in init.split()], events


def check_event(head, parts):
    """The failures of one event, as a list of what was wrong."""
    bad = []
    if len(parts) != 4:
        return ["4 particles"]
    ids = [int(p[0]) for p in parts]
    if ids[0] != -ids[1] or abs(ids[0]) not in range(1, 6) or \
            ids[2:] != [13, -13]:
        bad.append("q qbar -> l- l+")
    ends = {}
    for p in parts:
        for tag, side in ((int(p[4]), 0), (int(p[5]), 1)):
            if tag:
                ends.setdefault(tag, [0, 0])[side] += 1
    quark_colour = all((p[4] > 0) == (p[0] > 0) and (p[5] > 0) == (p[0] < 0)
                       for p in parts[:2])
    if ends != {501: [1, 1]} or not quark_colour:
        bad.append("colour flow")
    if [p[2:4] for p in parts] != [[0, 0], [0, 0], [1, 2], [1, 2]]:
        bad.append("mothers")
    ll = [parts[2][k] + parts[3][k] for k in range(6, 10)]
    mass = math.sqrt(ll[3]**2 - ll[0]**2 - ll[1]**2 - ll[2]**2)
    if abs(head[3] - mass) > 1e-9 * mass:
        bad.append("SCALUP the dilepton mass")
    moved = [parts[0][k] + parts[1][k] - ll[k - 6] for k in range(6, 10)]
    if max(abs(v) for v in moved) > 1e-9 * ll[3]:
        bad.append("momentum conservation")
    return bad


def hepmc3_agrees(reader, lhe, evs):
    """HepMC3's LHEF reader reads what the parse above read."""
    got = read(reader, lhe)
    if got:
        check(got["events"] == len(evs) and got["particles"] == 4,
              "HepMC3: the same events of 4 particles")
        check(got["beams"] == [2212, 2212] and
              got["pdf_sets"] == [990000] * 2, "HepMC3: the beams and PDFs")
        check(got["scales"] == [h[3] for h, _ in evs],
              "HepMC3: the same SCALUPs")


def events(exe, vf_file, reader):
    lhe = os.path.join(workdir(), "dy.lhe")
    r = vegasc(exe, [vf_file, "--integrand", "sigma", "-q", "--events",
                     10000, "--events-out", lhe, "--event-layout", "lhe",
                     "--beams", "2212,2212", "--beam-energies", "6500,6500",
                     "--pdf-id", 990000] + RUN, json_out=False)
    if not check(r.rc == 0, "events: vegasc succeeds"):
        print(r)
        return
    init, evs = read_lhe(lhe)
    check(len(evs) == 10000, f"10000 events (got {len(evs)})")
    check(init[:8] == [2212, 2212, 6500, 6500, 0, 0, 990000, 990000],
          "<init>: IDBMUP 2212 2212, EBMUP 6500 6500, PDFSUP 990000")
    failures = {}
    for head, parts in evs:
        for what in check_event(head, parts):
            failures[what] = failures.get(what, 0) + 1
    check(not failures, f"every event: quarks, colour flow, mothers, SCALUP, "
          f"momenta ({failures or 'no failure'})")
    check(all(h[4] == 1 / 128 and 0.1 < h[5] < 0.15 for h, _ in evs),
          "every event: AQEDUP 1/128, AQCDUP alpha_s near M_Z")
    beam1 = {int(p[0][0]) for _, p in evs}
    check(beam1 == {-5, -4, -3, -2, -1, 1, 2, 3, 4, 5},
          f"every quark and antiquark from beam 1 (got {sorted(beam1)})")
    if reader:
        hepmc3_agrees(reader, lhe, evs)


def main():
    exe, python_dir, vf_file = sys.argv[1:4]
    reader = sys.argv[4] if len(sys.argv) > 4 else None
    vf_file = os.path.abspath(vf_file)
    cross_sections(exe, os.path.abspath(python_dir), vf_file)
    amplitudes_pointwise(os.path.abspath(python_dir), vf_file)
    events(exe, vf_file, reader)
    finish()


if __name__ == "__main__":
    main()
