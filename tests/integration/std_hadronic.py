#===- tests/integration/std_hadronic.py - std/hadronic, std/qcd, std/pdg -===#
#
# The hadron-collider helpers, each against values computed here
# independently of their .vf code, as compiled by vegasc (--eval, and
# integration for the volumes):
#   - tau_y_map: x1 x2 = tau, log(x1/x2)/2 = y, x1, x2 <= 1, its Jacobian
#     against finite differences of the map (1e-6), and over the unit
#     square the volume of {taumin <= x1 x2 <= taumax} and the first
#     moments of x1 and x2 (closed forms, 5 sigma); tau_y_inverse undoes it
#     (1e-13) and tau_y_density is 1/jacobian (1e-12), on a grid of (u, v)
#     with its edges, but for tau = 1, where y has no range;
#   - boost_z keeps the invariant mass (1e-12 of E^2), takes a rapidity y*
#     to y* + y (1e-13 plus the rounding of E -+ pz), agrees with
#     math.cosh/sinh (1e-14) and with std/phasespace's boost (1e-12,
#     |y| <= 3); to_lab takes the partons of the partonic frame to
#     partons_lab (1e-13);
#   - pseudorapidity is asinh(pz/pt) (1e-13), equals the rapidity of a
#     massless momentum (1e-10: E - pz cancels backwards); delta_phi and
#     delta_r are symmetric (exactly) and wrap around at pi;
#   - alphas_1loop is the closed form (1e-14); alphas_2loop is a
#     fourth-order Runge-Kutta solution of the two-loop equation with
#     20000 steps, itself within 1e-12 of the one with 40000 (1e-12);
#   - the luminosities are direct sums over PDG ids (1e-13);
#   - scale_xi_r and scale_xi_f are the 7-point variation's pairs, as
#     constants and in a weight list's loop (exactly);
#   - every constant of std/pdg equals the value of this file's table, of
#     the table in docs/language.md and is cited with its source and year.
#
# Usage: std_hadronic.py VEGASC SOURCE_DIR
#
#===----------------------------------------------------------------------===#
import math
import os
import random
import re
import sys

from vftest import check, finish, vegasc, write_source

# name: (taumin, taumax): a full range, a Drell-Yan mass window of 60 to
# 120 GeV at 13 TeV, and a low range.
TAU_CASES = {
    "full": (1e-4, 1.0),
    "window": ((60 / 13000)**2, (120 / 13000)**2),
    "low": (1e-8, 1e-2),
}
FD_STEP = 1e-6
GRID = 64


def evaluate(exe, src, integrand, at):
    """The integrand's components at the point \p at, or [] on failure."""
    point = ",".join(repr(float(a)) for a in at)
    r = vegasc(exe, [src, "--eval", "--at", point, "--integrand", integrand],
               json_out=False)
    if not check(r.rc == 0, f"{integrand} at {point}: vegasc --eval"):
        print(r)
        return []
    return [float(v) for v in r.out.split()]


def integrate(exe, src, integrand):
    r = vegasc(exe, [src, "--integrand", integrand, "-q", "--seed", 1,
                     "--calls", 2e4, "--iterations", 5, "--warmup", 3])
    if not check(r.rc == 0 and r.doc is not None, f"{integrand}: integrates"):
        print(r)
        return [], []
    res = r.doc["result"]
    m, e = res["mean"], res["error"]
    return (m, e) if isinstance(m, list) else ([m], [e])


def close(a, b, tol):
    return abs(a - b) <= tol * max(abs(b), 1e-300)


def map_source():
    lines = ['import "std/hadronic"', f"const n = {GRID}",
             f"const h = {FD_STEP!r}"]
    for name, (a, b) in TAU_CASES.items():
        args = f"{a!r}, {b!r}"
        # tau = 1 leaves y no range: the inverse has no u = 1 there.
        ulast = "n" if b == 1 else "n + 1"
        m = f"tau_y_map(x[0], x[1], {args})"
        lines += [
            f"integrand map_{name}(x in [0, 1]^2) -> [25] = [{m}, "
            f"tau_y_map(x[0] + h, x[1], {args}), "
            f"tau_y_map(x[0] - h, x[1], {args}), "
            f"tau_y_map(x[0], x[1] + h, {args}), "
            f"tau_y_map(x[0], x[1] - h, {args})]",
            # The worst round trip, Jacobian times density and bound over
            # a grid of the unit square with its edges.
            f"fn rt_at_{name}(u, v) {{\n"
            f"    let m = tau_y_map(u, v, {args})\n"
            f"    let i = tau_y_inverse(m[0], m[1], {args})\n"
            f"    return max(abs(i[0] - u), abs(i[1] - v))\n}}",
            f"integrand rt_{name}(x in [0, 1]) = max(i in 0..{ulast}: "
            f"max(j in 0..n + 1: rt_at_{name}(i / n, j / n)))",
            f"fn jd_at_{name}(u, v) {{\n"
            f"    let m = tau_y_map(u, v, {args})\n"
            f"    return abs(m[4] * tau_y_density(m[0], m[1], {args}) - 1)\n}}",
            f"integrand jd_{name}(x in [0, 1]) = max(i in 0..{ulast}: "
            f"max(j in 0..n + 1: jd_at_{name}(i / n, j / n)))",
            f"integrand bound_{name}(x in [0, 1]) = max(i in 0..n + 1: "
            f"max(j in 0..n + 1: max(tau_y_map(i / n, j / n, {args})[0], "
            f"tau_y_map(i / n, j / n, {args})[1])))",
            f"integrand volume_{name}(x in [0, 1]^2) -> [3] {{\n"
            f"    let m = {m}\n"
            f"    return [m[4], m[0] * m[4], m[1] * m[4]]\n}}",
        ]
    return "\n".join(lines) + "\n"


def volume_exact(a, b):
    """The area of {a <= x1 x2 <= b} in the unit square, int of -log(tau)
    dtau, and the first moment of x1 (or x2) over it: x1 in [a, b] has
    x2 in [a/x1, 1], x1 in [b, 1] has x2 in [a/x1, b/x1]."""
    area = (b - b * math.log(b)) - (a - a * math.log(a))
    moment = (b - a)**2 / 2 + (b - a) * (1 - b)
    return [area, moment, moment]


def check_map(exe):
    src = write_source("tau_y", map_source())
    for name, (a, b) in TAU_CASES.items():
        for u, v in [(0.5, 0.5), (0.1, 0.9), (0.9, 0.2), (0.3, 0.001),
                     (0.7, 0.999)]:
            got = evaluate(exe, src, f"map_{name}", [u, v])
            if len(got) != 25:
                continue
            x1, x2, tau, y, jac = got[:5]
            tag = f"tau_y_map {name} at ({u}, {v})"
            check(close(tau, a * (b / a)**u, 1e-13)
                  and close(x1 * x2, tau, 1e-14)
                  and abs(0.5 * math.log(x1 / x2) - y) <= 1e-13,
                  f"{tag}: tau = taumin (taumax/taumin)^u = x1 x2, "
                  f"y = log(x1/x2)/2")
            # d(x1, x2)/d(u, v) by central differences.
            d = [[(got[5 + k] - got[10 + k]) / (2 * FD_STEP),
                  (got[15 + k] - got[20 + k]) / (2 * FD_STEP)] for k in (0, 1)]
            fd = abs(d[0][0] * d[1][1] - d[0][1] * d[1][0])
            check(close(jac, fd, 1e-6),
                  f"{tag}: jacobian {jac!r} = finite differences {fd!r}")
        rt = evaluate(exe, src, f"rt_{name}", [0.5])
        check(rt and rt[0] <= 1e-13,
              f"tau_y {name}: |inverse(map(u, v)) - (u, v)| = "
              f"{rt[0] if rt else math.inf:.3g} <= 1e-13")
        jd = evaluate(exe, src, f"jd_{name}", [0.5])
        check(jd and jd[0] <= 1e-12,
              f"tau_y {name}: |jacobian * density - 1| = "
              f"{jd[0] if jd else math.inf:.3g} <= 1e-12")
        bound = evaluate(exe, src, f"bound_{name}", [0.5])
        check(bound and bound[0] <= 1,
              f"tau_y {name}: x1, x2 <= 1 on the grid with its edges")
        means, errors = integrate(exe, src, f"volume_{name}")
        for what, m, e, x in zip(["area", "<x1>", "<x2>"], means, errors,
                                 volume_exact(a, b)):
            print(f"tau_y {name} {what}: {m!r} +- {e:.3g}, exact {x!r}")
            check(e > 0 and abs(m - x) <= 5 * e,
                  f"tau_y {name} {what}: within 5 sigma of the closed form")


BOOST_SOURCE = """import "std/hadronic"
integrand boosts(x in [-1e4, 1e4]^4 * [-10, 10]) -> [12] {
    let p = x[0..4]
    let q = boost_z(p, x[4])
    return [q, mass2(p), mass2(q), rapidity(p), rapidity(q),
            boost(p, [0, 0, tanh(x[4])])]
}
integrand partons(x in [0, 1]^2 * [1, 2e4]) -> [16] {
    let e = sqrt(x[0] * x[1]) * x[2] / 2
    return [to_lab([e, 0, 0, e], x[0], x[1]), to_lab([e, 0, 0, -e], x[0], x[1]),
            partons_lab(x[0], x[1], x[2])]
}
"""


def check_boost(exe):
    src = write_source("boost", BOOST_SOURCE)
    for p, y in [([100, 30, -40, 50], 0.7), ([100, 30, -40, 50], -2.5),
                 ([500, 100, 20, -300], 3.0), ([1e3, 1, 2, 999], -6.0),
                 ([91.19, 0, 0, 0], 9.0), ([50, 10, 10, -20], 0.0)]:
        got = evaluate(exe, src, "boosts", p + [y])
        if len(got) != 12:
            continue
        tag = f"boost_z({p}, {y})"
        c, s = math.cosh(y), math.sinh(y)
        want = [c * p[0] + s * p[3], p[1], p[2], c * p[3] + s * p[0]]
        check(all(abs(g - w) <= 1e-14 * want[0] for g, w in zip(got, want)),
              f"{tag}: E' = E cosh y + pz sinh y, pz' = pz cosh y + E sinh y")
        m2, m2b, yp, yq = got[4:8]
        check(abs(m2b - m2) <= 1e-12 * got[0]**2,
              f"{tag}: invariant mass kept ({m2!r} -> {m2b!r})")
        # std/phasespace's rapidity takes log((E + pz)/(E - pz)), whose
        # smaller side cancels by e^|y| mT / E, and the boost's products
        # round by cosh(y) E.
        mt = math.sqrt(p[0]**2 - p[3]**2)
        tol = 1e-13 + 1e-15 * (math.cosh(y) * p[0] * math.exp(abs(yq)) +
                               p[0] * math.exp(abs(yp))) / mt
        check(abs(yq - (yp + y)) <= tol,
              f"{tag}: rapidity {yp!r} -> {yq!r} = y* + y ({tol:.2g})")
        if abs(y) <= 3:
            check(all(abs(g - w) <= 1e-12 * got[0]
                      for g, w in zip(got[8:12], got[:4])),
                  f"{tag}: equals boost(p, [0, 0, tanh(y)])")
    for x1, x2, rs in [(0.1, 0.02, 13000), (0.5, 1e-4, 13000),
                       (1e-3, 0.9, 8000), (0.3, 0.3, 100)]:
        got = evaluate(exe, src, "partons", [x1, x2, rs])
        if len(got) != 16:
            continue
        want = [x1 * rs / 2, 0, 0, x1 * rs / 2, x2 * rs / 2, 0, 0, -x2 * rs / 2]
        check(all(abs(g - w) <= 1e-13 * rs for g, w in zip(got[:8], want))
              and got[8:] == [float(w) for w in want],
              f"to_lab of the partonic partons = partons_lab = x rs/2 "
              f"(x1 = {x1}, x2 = {x2}, rs = {rs})")


OBS_SOURCE = """import "std/hadronic"
fn momentum(pt, eta, phi, m) -> [4] =
    [sqrt(m^2 + (pt * cosh(eta))^2), pt * cos(phi), pt * sin(phi),
     pt * sinh(eta)]
integrand obs(x in [0, 1e4] * [-20, 20] * [-4, 4] * [0, 1e3] *
              [0, 1e4] * [-20, 20] * [-4, 4] * [0, 1e3]) -> [9] {
    let p = momentum(x[0], x[1], x[2], x[3])
    let q = momentum(x[4], x[5], x[6], x[7])
    return [pseudorapidity(p), rapidity(p), azimuth(p),
            delta_phi(p, q), delta_phi(q, p), delta_r(p, q), delta_r(q, p),
            delta_r_rapidity(p, q), delta_r_rapidity(q, p)]
}
"""


def momentum(pt, eta, phi, m):
    return [math.sqrt(m * m + (pt * math.cosh(eta))**2), pt * math.cos(phi),
            pt * math.sin(phi), pt * math.sinh(eta)]


def check_observables(exe):
    src = write_source("observables", OBS_SOURCE)
    rng = random.Random(39)
    # (pt, eta, phi, m) of two momenta: the wrap-around of phi at +-pi,
    # massless pairs and random ones.
    cases = [((50, 1.2, 3.0, 0), (40, -0.3, -3.0, 0)),
             ((20, -4.0, -3.1, 0), (30, 2.0, 3.1, 0)),
             ((10, 0.5, math.pi - 1e-3, 5), (10, 0.5, -math.pi + 1e-3, 5)),
             ((100, -6.0, 0.1, 0), (100, 6.0, -0.1, 0)),
             ((80, 0.0, -2.0, 91.19), (15, 3.3, 1.0, 0.105))]
    for _ in range(6):
        cases.append(tuple((rng.uniform(1, 500), rng.uniform(-5, 5),
                            rng.uniform(-math.pi, math.pi),
                            rng.choice([0, rng.uniform(0, 200)]))
                           for _ in range(2)))
    for a, b in cases:
        got = evaluate(exe, src, "obs", list(a) + list(b))
        if len(got) != 9:
            continue
        tag = f"p = {a}, q = {b}"
        p, q = momentum(*a), momentum(*b)
        eta_p, eta_q = math.asinh(p[3] / a[0]), math.asinh(q[3] / b[0])
        y_p = 0.5 * math.log((p[0] + p[3]) / (p[0] - p[3]))
        y_q = 0.5 * math.log((q[0] + q[3]) / (q[0] - q[3]))
        dphi = abs(math.remainder(a[2] - b[2], 2 * math.pi))
        check(abs(got[0] - eta_p) <= 1e-13 * max(1, abs(eta_p)),
              f"{tag}: pseudorapidity {got[0]!r} = asinh(pz/pt)")
        if a[3] == 0:
            check(abs(got[0] - got[1]) <= 1e-10,
                  f"{tag}: massless, pseudorapidity = rapidity {got[1]!r}")
        check(abs(got[1] - y_p) <= 1e-10 * max(1, abs(y_p)),
              f"{tag}: rapidity {got[1]!r}")
        check(abs(got[2] - math.atan2(p[2], p[1])) <= 1e-15,
              f"{tag}: azimuth {got[2]!r}")
        check(got[3] == got[4] and got[5] == got[6] and got[7] == got[8],
              f"{tag}: delta_phi, delta_r and delta_r_rapidity symmetric")
        check(abs(got[3] - dphi) <= 1e-13,
              f"{tag}: delta_phi {got[3]!r} = {dphi!r}, wrapped to [0, pi]")
        check(abs(got[5] - math.hypot(eta_p - eta_q, dphi)) <= 1e-12,
              f"{tag}: delta_r {got[5]!r}")
        check(abs(got[7] - math.hypot(y_p - y_q, dphi)) <= 1e-9,
              f"{tag}: delta_r_rapidity {got[7]!r}")


ALPHAS_SOURCE = """import "std/qcd"
integrand alphas(x in [0.5, 1e5] * [0.01, 0.5] * [0.5, 1e5] * [3, 6]) -> [2] =
    [alphas_1loop(x[0], x[1], x[2], x[3]), alphas_2loop(x[0], x[1], x[2], x[3])]
"""


def rk4_alphas(q, as0, q0, nf, steps):
    """The two-loop equation d a / d log q^2 = -b0 a^2 - b1 a^3 by the
    classical fourth-order Runge-Kutta method in log q^2."""
    b0 = (33 - 2 * nf) / (12 * math.pi)
    b1 = (153 - 19 * nf) / (24 * math.pi**2)
    f = lambda a: -b0 * a * a - b1 * a**3
    h = math.log(q * q / (q0 * q0)) / steps
    a = as0
    for _ in range(steps):
        k1 = f(a)
        k2 = f(a + h / 2 * k1)
        k3 = f(a + h / 2 * k2)
        k4 = f(a + h * k3)
        a += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return a


def check_alphas(exe):
    src = write_source("alphas", ALPHAS_SOURCE)
    mz = 91.1876
    points = [(q, 0.118, mz, 5) for q in
              (2, 5, 10, 30, mz, 200, 1000, 13000, 1e5)]
    points += [(q, 0.21, 5, 4) for q in (1.5, 3, 4.5, 20)]
    points += [(q, 0.33, 1.5, 3) for q in (1, 2)]
    for q, as0, q0, nf in points:
        got = evaluate(exe, src, "alphas", [q, as0, q0, nf])
        if len(got) != 2:
            continue
        tag = f"alpha_s({q}) from {as0} at {q0}, nf = {nf}"
        b0 = (33 - 2 * nf) / (12 * math.pi)
        one = as0 / (1 + as0 * b0 * math.log(q * q / (q0 * q0)))
        check(close(got[0], one, 1e-14),
              f"{tag}: one loop {got[0]!r} = closed form {one!r}")
        two = rk4_alphas(q, as0, q0, nf, 20000)
        finer = rk4_alphas(q, as0, q0, nf, 40000)
        check(close(two, finer, 1e-12), f"{tag}: Runge-Kutta converged")
        check(close(got[1], two, 1e-12),
              f"{tag}: two loops {got[1]!r} = Runge-Kutta {two!r}")


def lumi_source(f1, f2, c, w):
    arr = lambda v: "[" + ", ".join(repr(x) for x in v) + "]"
    return f"""import "std/hadronic"
integrand lumis(x in [0, 1]) -> [5] {{
    let f1 = {arr(f1)}
    let f2 = {arr(f2)}
    return [lumi_qqbar(f1, f2, {arr(c)}), lumi_gg(f1, f2),
            lumi_qg(f1, f2, {arr(c)}), lumi(f1, f2, {arr(w)}),
            lumi_qqbar(f1, f2, quark_charges2())]
}}
"""


def check_luminosities(exe):
    rng = random.Random(7)
    ids = list(range(-5, 6))   # the documented order: index = id + 5
    f1 = [rng.uniform(0.01, 2) for _ in ids]
    f2 = [rng.uniform(0.01, 2) for _ in ids]
    c = [rng.uniform(0.1, 1) for _ in range(5)]
    w = [rng.uniform(0, 1) for _ in range(121)]
    got = evaluate(exe, write_source("lumi", lumi_source(f1, f2, c, w)),
                   "lumis", [0.5])
    if len(got) != 5:
        return
    x1 = dict(zip(ids, f1))
    x2 = dict(zip(ids, f2))
    coupling = dict(zip(range(1, 6), c))
    charge2 = {1: 1 / 9, 2: 4 / 9, 3: 1 / 9, 4: 4 / 9, 5: 1 / 9}
    qqbar = lambda cq: math.fsum(cq[q] * (x1[q] * x2[-q] + x1[-q] * x2[q])
                                 for q in range(1, 6))
    want = [qqbar(coupling), x1[0] * x2[0],
            math.fsum(coupling[q] * ((x1[q] + x1[-q]) * x2[0] +
                                     x1[0] * (x2[q] + x2[-q]))
                      for q in range(1, 6)),
            math.fsum(w[11 * (i + 5) + (j + 5)] * x1[i] * x2[j]
                      for i in ids for j in ids),
            qqbar(charge2)]
    for name, g, x in zip(["lumi_qqbar", "lumi_gg", "lumi_qg", "lumi",
                           "lumi_qqbar with quark_charges2"], got, want):
        check(close(g, x, 1e-13), f"{name}: {g!r} = direct sum {x!r}")


# The constants of std/pdg: name -> (value, source and year), typed here
# from the Review of Particle Physics 2024 and CODATA 2018.
PDG = {
    "pdg_mz": (91.1876, "PDG 2024"),
    "pdg_gz": (2.4955, "PDG 2024"),
    "pdg_mw": (80.3692, "PDG 2024"),
    "pdg_gw": (2.085, "PDG 2024"),
    "pdg_mh": (125.20, "PDG 2024"),
    "pdg_mt": (172.57, "PDG 2024"),
    "pdg_gt": (1.42, "PDG 2024"),
    "pdg_mb": (4.183, "PDG 2024"),
    "pdg_mc": (1.2730, "PDG 2024"),
    "pdg_me": (0.51099895000e-3, "CODATA 2018"),
    "pdg_mmu": (0.1056583755, "CODATA 2018"),
    "pdg_mtau": (1.77693, "PDG 2024"),
    "pdg_mp": (0.93827208816, "CODATA 2018"),
    "pdg_alpha": (1 / 137.035999084, "CODATA 2018"),
    "pdg_gf": (1.1663788e-5, "PDG 2024"),
    "pdg_alphas_mz": (0.1180, "PDG 2024"),
    "pdg_gev2pb": (0.3893793721e9, "CODATA 2018"),
    "pdg_sw2_onshell": (1 - 80.3692**2 / 91.1876**2, "PDG 2024"),
}


def shown_value(text):
    """A number of the docs' table, "1/137.035999084" or "91.1876", and
    half a unit of its last digit shown."""
    inverse = text.startswith("1/")
    digits = text[2:] if inverse else text
    mantissa, _, exponent = digits.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    half = 0.5 * 10**(int(exponent or 0) - decimals)
    value = float(digits)
    return (1 / value, half / value**2) if inverse else (value, half)


def docs_pdg_table(path):
    """The rows of docs/language.md's std/pdg table: name -> (value
    text, source)."""
    text = open(path, encoding="utf-8").read()
    section = text.split("## `std/pdg`", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(pdg_\w+)` \| ([^|]+) \|[^|]*\| ([^|]+) \|$",
                      section, re.M)
    return {n: (v.strip(), s.strip()) for n, v, s in rows}


def check_pdg(exe, srcdir):
    module = open(os.path.join(srcdir, "stdlib/std/pdg.vf")).read()
    names = re.findall(r"^const (pdg_\w+)", module, re.M)
    check(sorted(names) == sorted(PDG),
          f"std/pdg defines the {len(PDG)} constants of this test's table")
    src = write_source("pdg", 'import "std/pdg"\n'
                       "integrand consts(x in [0, 1]) -> "
                       f"[{len(names)}] = [{', '.join(names)}]\n")
    got = evaluate(exe, src, "consts", [0.5])
    docs = docs_pdg_table(os.path.join(srcdir, "docs/language.md"))
    check(sorted(docs) == sorted(PDG),
          "docs/language.md's std/pdg table lists every constant")
    for name, g in zip(names, got):
        value, source = PDG[name]
        check(close(g, value, 1e-15), f"{name} = {g!r} ({source})")
        if name in docs:
            text, cited = docs[name]
            documented, half = shown_value(text)
            check(abs(documented - value) <= half and cited == source,
                  f"{name}: docs/language.md says {text} ({cited})")


# The 7-point variation's (xi_R, xi_F), k = 0..6.
SEVEN_POINT = [(1, 1), (2, 2), (0.5, 0.5), (2, 1), (1, 2), (0.5, 1), (1, 0.5)]


def check_scale_pairs(exe):
    """scale_xi_r and scale_xi_f give the 7 pairs, in a weight list's loop
    as in a constant expression."""
    pairs = ", ".join(f"scale_xi_r({k}), scale_xi_f({k})" for k in range(7))
    src = write_source("seven", 'import "std/hadronic"\n'
                       f"integrand f(x in [0, 1]) -> [14] = [{pairs}]\n"
                       "integrand g(x in [0, 1]) {\n"
                       "    weights r(k in 0..7: scale_xi_r(k) * (1 + x))\n"
                       "    weights f(k in 0..7: scale_xi_f(k) * (1 + x))\n"
                       "    return 1 + x\n}\n")
    want = [v for pair in SEVEN_POINT for v in pair]
    check(evaluate(exe, src, "f", [0.5]) == want, "the 7-point pairs")
    r = vegasc(exe, [src, "--eval", "--at", "0", "--integrand", "g"],
               json_out=False)
    lists = {line.split(":")[0]: [float(v) for v in line.split(":")[1].split()]
             for line in r.out.splitlines() if line.startswith("weights")}
    check(lists.get("weights r") == [p[0] for p in SEVEN_POINT] and
          lists.get("weights f") == [p[1] for p in SEVEN_POINT],
          f"the 7-point pairs in a list's loop ({lists})")


def main():
    exe, srcdir = sys.argv[1:3]
    check_scale_pairs(exe)
    check_map(exe)
    check_boost(exe)
    check_observables(exe)
    check_alphas(exe)
    check_luminosities(exe)
    check_pdg(exe, srcdir)
    finish()


if __name__ == "__main__":
    main()
