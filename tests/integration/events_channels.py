#!/usr/bin/env python3
#===- tests/integration/events_channels.py - Multi-channel events --------===#
#
# Usage: events_channels.py VEGASC VF_READ_EVENTS ZGAMMA_LINESHAPE.vf
#
# Events of a multi-channel integrand (examples/physics/zgamma_lineshape.vf,
# channels z and photon, its event record lineshape_event with the same
# channels), read back by HepMC3's own readers (vf_read_events):
#  1. weighted HepMC3: the mean weight is the run's cross section within 5
#     sigma (an event is drawn from channel c with probability alpha_c, its
#     weight f_c / (alpha_c q_c)), and every event carries its channel
#     ("channel" attribute), both channels present;
#  2. unweighted LHE: every <event> carries its channel, vegasc reports
#     the efficiency per channel (two, each in (0, 1]), and the efficiency
#     at the physical Z width is above 0.85 (issue 37's target; 0.93
#     measured);
#  3. an event record without the integrand's channels is refused before
#     anything is written, naming both.
#
#===----------------------------------------------------------------------===#
import math
import os
import re
import sys

from eventcheck import read, weighted
from vftest import check, finish, vegasc, workdir, write_source

RUN = ["--integrand", "lineshape", "--calls", "2e4", "--iterations", 5,
       "--warmup", 3, "--seed", 5]
N = 4000


def main():
    exe, reader, example = sys.argv[1:4]
    d = workdir()
    hep = os.path.join(d, "w.hepmc3")
    r = vegasc(exe, [example, *RUN, "--events", N, "--events-out", hep,
                     "--weighted-events"])
    if check(r.rc == 0 and r.doc is not None, "weighted events: vegasc runs"):
        h = read(reader, hep)
        if h:
            ws = h["weights"]
            mean = math.fsum(ws) / len(ws)
            sd = math.sqrt(math.fsum((w - mean) ** 2 for w in ws) /
                           (len(ws) - 1))
            xs = r.doc["result"]["mean"]
            check(h["events"] == N and abs(mean - xs) < 5 * sd / math.sqrt(N),
                  f"weighted: the mean weight {mean:.6g} is the cross "
                  f"section {xs:.6g} within 5 sigma")
            check(set(h["channels"]) == {"z", "photon"},
                  "weighted: every event names its channel, both appear "
                  f"({sorted(set(h['channels']))})")
    lhe = os.path.join(d, "u.lhe")
    r = vegasc(exe, [example, *RUN, "--events", N, "--events-out", lhe],
               json_out=False)
    if check(r.rc == 0, "unweighted events: vegasc runs"):
        u = read(reader, lhe)
        if u:
            check(u["events"] == N and set(u["channels"]) == {"z", "photon"},
                  "unweighted: every <event> names its channel")
        m = re.search(r"efficiency ([0-9.e+-]+) \(per channel ([0-9.e+ -]+)\)",
                      r.out + r.err)
        per = [float(x) for x in m.group(2).split()] if m else []
        check(len(per) == 2 and all(0 < e <= 1 for e in per),
              f"unweighted: the efficiency per channel {per}")
        check(m is not None and float(m.group(1)) > 0.85,
              "unweighted: the efficiency above 0.85 at the physical width "
              f"({m.group(1) if m else None})")
    src = write_source("norecord", """
integrand f(x in [0, 1]) {
    channel a { return x[0] * alpha(a) }
    channel b { return (1 - x[0]) * alpha(b) }
}
integrand f_event(x in [0, 1]) -> [12] =
    [11, -1, 1, 0, 0, 1,  13, 1, 1, 0, 0, 1]
""")
    out = os.path.join(d, "n.lhe")
    r = vegasc(exe, [src, "--integrand", "f", "--calls", 1e4, "--events", 100,
                     "--events-out", out], json_out=False)
    check(r.rc != 0 and "channels a, b" in r.err and "no channels" in r.err
          and not os.path.exists(out),
          "a record without the integrand's channels is refused, naming "
          f"both: {r.err.strip()[:200]}")
    finish()


if __name__ == "__main__":
    main()
