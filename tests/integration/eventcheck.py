#===- tests/integration/eventcheck.py - Event files, read back -----------===#
#
# Shared by events.py and batch_events.py: an events file read by HepMC3's
# own readers (vf_read_events, ReadEvents.cpp) and the checks of a weighted
# HepMC3 file against the run's cross section.
#
#===----------------------------------------------------------------------===#
import json
import math
import os
import subprocess

from vftest import check


def read(reader, path):
    """vf_read_events' summary of PATH, or None (a failed check)."""
    p = subprocess.run([reader, path], capture_output=True, text=True,
                       timeout=120)
    if not check(p.returncode == 0, f"HepMC3 reads {os.path.basename(path)}"):
        print(p.stderr)
        return None
    return json.loads(p.stdout)


def weighted(h, xs, n, what):
    """Weighted events of 4 particles: n of them, the mean weight the cross
    section XS within 5 sigma, XS attached to each event."""
    ws = h["weights"]
    mean = sum(ws) / len(ws)
    sd = math.sqrt(sum((x - mean) ** 2 for x in ws) / (len(ws) - 1))
    check(h["events"] == n and h["particles"] == 4,
          f"{what}: {h['events']} events of {h['particles']} particles")
    check(abs(mean - xs) < 5 * sd / math.sqrt(len(ws)),
          f"{what}: the mean weight {mean:.6g} is the cross section "
          f"{xs:.6g} within 5 sigma")
    check(abs(h["xsec"] - xs) <= 1e-8 * xs,
          f"{what}: each event carries the run's cross section")


def unweighted(u, xs, xerr, n, what):
    """Unweighted LHE events of 4 particles: n of them, IDWTUP 3, unit
    weights (or more for an overshoot), the header's cross section and
    error XS and XERR (LHEF writes 15 significant digits)."""
    check(u["events"] == n and u["particles"] == 4,
          f"{what}: {u['events']} events of {u['particles']} particles")
    check(u["idwtup"] == 3 and all(w >= 1 for w in u["weights"]),
          f"{what}: IDWTUP 3, unit weights (or more for an overshoot)")
    check(abs(u["xsec"] - xs) <= 1e-13 * xs and
          abs(u["xsec_error"] - xerr) <= 1e-13 * xerr,
          f"{what}: the header's cross section is the run's result")
