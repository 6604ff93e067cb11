#!/usr/bin/env python3
#===- tests/integration/events.py - LHE and HepMC3 events from vegasc ----===#
#
# Usage: events.py VEGASC VF_READ_EVENTS EE_MUMU.vf
#
# vegasc --events N --events-out FILE on examples/physics/ee_mumu.vf (its
# event record sigma_event), each file read back by HepMC3's own readers
# (vf_read_events):
#  1. unweighted LHE: N events of 4 particles, IDWTUP 3, weights 1 (or more
#     for an overshoot), the header's cross section and error the run's
#     result (read back as the same doubles), XMAXUP the reported w_max;
#  2. weighted HepMC3: N events whose mean weight is the cross section
#     within 5 sigma, each with the run's cross section attached;
#  3. the unweighted events' cos(theta) of the mu- in 10 bins against the
#     weighted events' histogram: chi2 below the 0.999 quantile (27.9 for
#     9 dof) with a fixed seed;
#  4. the unweighting efficiency with the default beta (0.75) is at least
#     beta = 0's, within 3 binomial sigma, and above 0.9 (it was 0.55 when
#     events followed the trained allocation);
#  5. bad input: an unknown file ending, --events without --events-out, an
#     integrand with no event record (exit 2, before the run); an
#     unwritable events file (exit 1, also before the run: nothing is run
#     and no JSON written).
#
#===----------------------------------------------------------------------===#
import math
import os
import re
import sys

from eventcheck import read, unweighted, weighted
from vftest import write_source, check, expect, finish, vegasc, workdir

N = 20000
RUN = ["--integrand", "sigma", "--calls", "1e5", "--seed", 3]


def efficiency(out):
    m = re.search(r"efficiency ([0-9.eE+-]+), w_max ([0-9.eE+-]+)", out)
    return (float(m.group(1)), float(m.group(2))) if m else (None, None)


def histogram(cos, weights, bins=10):
    h = [0.0] * bins
    h2 = [0.0] * bins
    for c, w in zip(cos, weights):
        k = min(int((c + 1) / 2 * bins), bins - 1)
        h[k] += w
        h2[k] += w * w
    return h, h2


def main():
    exe, reader, src = sys.argv[1:4]
    lhe = os.path.join(workdir(), "ee.lhe")
    r = vegasc(exe, [src] + RUN + ["--events", N, "--events-out", lhe])
    if not check(r.rc == 0 and r.doc, "unweighted LHE: the run succeeds"):
        print(r)
        finish()
    xs, xerr = r.doc["result"]["mean"], r.doc["result"]["error"]
    eff, wmax = efficiency(r.out)
    check(eff is not None, "the efficiency and w_max are reported")
    # The <init> block's cross section and error read back as the run's
    # doubles: 17 significant digits (LHEF's default, 15, did not).
    with open(lhe) as f:
        text = f.read()
    init = text[text.index("<init>"):text.index("</init>")].splitlines()
    proc = init[2].split() if len(init) > 2 else []
    check(proc and float(proc[0]) == xs and float(proc[1]) == xerr,
          f"LHE: XSECUP and XERRUP are the run's doubles ({proc[:2]})")
    u = read(reader, lhe)
    if u:
        unweighted(u, xs, xerr, N, "LHE")
        check(wmax and abs(u["xmax"] - wmax) <= 1e-5 * wmax,
              "LHE: XMAXUP is the reported w_max")
    hep = os.path.join(workdir(), "ee.hepmc3")
    w = vegasc(exe, [src] + RUN + ["--events", N, "--events-out", hep,
                                   "--weighted-events"])
    h = read(reader, hep) if w.rc == 0 else None
    if check(h is not None, "weighted HepMC3: written and read"):
        weighted(h, xs, N, "HepMC3")
    if u and h:
        n, _ = histogram(u["cos_mu"], [1.0] * len(u["cos_mu"]))
        W, W2 = histogram(h["cos_mu"], h["weights"])
        tn, tw = sum(n), sum(W)
        chi2 = sum((n[k] / tn - W[k] / tw) ** 2 /
                   (n[k] / tn ** 2 + W2[k] / tw ** 2) for k in range(10))
        check(chi2 < 27.9, f"unweighted vs weighted cos(theta): chi2 = "
              f"{chi2:.3g} for 9 dof (< 27.9)")
    b0 = vegasc(exe, [src] + RUN + ["--beta", 0, "--events", N,
                                    "--events-out", lhe])
    eff0, _ = efficiency(b0.out)
    if check(eff and eff0, "efficiencies measured at beta 0.75 and 0"):
        sigma = math.sqrt(eff0 * (1 - eff0) / (N / eff0))
        check(eff >= eff0 - 3 * sigma and eff > 0.9,
              f"default efficiency {eff:.4f} at least beta = 0's {eff0:.4f} "
              f"(3 sigma = {3 * sigma:.4f})")
    expect(exe, [src] + RUN + ["--events", 10, "--events-out", "e.txt"], 2,
           "an unknown events ending", "must end in .lhe")
    expect(exe, [src] + RUN + ["--events", 10], 2,
           "--events without --events-out", "go together")
    plain = write_source("plain", "integrand bins(x in [0, 1]^2) = x[0]\n")
    expect(exe, [plain, "--events", 10, "--events-out", lhe], 2,
           "no event record", "no event record 'bins_event'")
    bad = os.path.join(workdir(), "no", "such", "dir", "e.lhe")
    js = os.path.join(workdir(), "kept.json")
    p = vegasc(exe, [src] + RUN + ["--events", 10, "--events-out", bad,
                                   "--json", js], json_out=False)
    check(p.rc == 1 and "result = " not in p.out and
          not os.path.exists(js) and "the events file" in p.err and
          "no/such/dir" in p.err,
          "an unwritable events file: exit 1 before the run, naming it")
    finish()


if __name__ == "__main__":
    main()
