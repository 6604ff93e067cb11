#!/usr/bin/env python3
#===- tests/integration/physics_channels.py - The multi-channel examples --===#
#
# Usage: physics_channels.py VEGASC EXAMPLES_PHYSICS_DIR
#
# The three multi-channel examples of examples/physics/ (the Z/gamma* line
# shape, the Dalitz plot with two resonances, the peaks on the
# anti-diagonal), each integrated with seed 1 as its multi-channel
# integrand and as its single-channel twin in the same file: both within
# 5 sigma of the reference that multichannel_refs.py computes by scipy
# quadrature in the physics' own variables, and the reference quoted in
# the example's comment is that value to 12 digits.
#
# The multi-channel result's JSON carries its channels (docs/json.md):
# "channels" (beside "result"), one entry per channel block in source order with
# "name", "alpha", "samples", "integral", "error" and "error_share" (the
# last iteration's integral and error, the samples over the whole run),
# and iterations[].channels with "alpha", "samples", "integral" and
# "error".
# Checked here: the names; the alphas positive and adding up to 1; the
# samples adding up to the iteration's, and each channel's run total to
# its iterations' sum; the channels' integrals adding up to the iteration's
# estimate (a channel's own integral moves with alpha, only the sum is the
# integral); the error shares in [0, 1] adding up to 1.
#
#===----------------------------------------------------------------------===#
import math
import os
import re
import sys

import multichannel_refs as refs
from vftest import check, finish, vegasc

# file: (multi-channel integrand, its channels, twin, calls, reference)
EXAMPLES = {
    "zgamma_lineshape.vf": ("lineshape", ["z", "photon"], "lineshape_bw",
                            1e4, lambda: refs.lineshape()[0]),
    "dalitz_two_resonances.vf": ("dalitz", ["phi", "kst"], "dalitz_flat",
                                 4e4, lambda: refs.dalitz()[0]),
    "antidiagonal_peaks.vf": ("peaks", ["upper", "lower"],
                              "antidiagonal_plain", 4e4,
                              lambda: refs.antidiagonal()[0]),
}


def close(a, b, scale):
    """Equal to rounding: sums of a few doubles in another order."""
    return abs(a - b) <= 1e-12 * scale


def check_channel_rows(tag, rows, names, samples, mean):
    if not check(isinstance(rows, list) and len(rows) == len(names),
                 f"{tag}: {len(names)} channel entries"):
        return False
    check([r.get("name", n) for r, n in zip(rows, names)] == names,
          f"{tag}: the channels named {names} in source order")
    alphas = [r["alpha"] for r in rows]
    check(all(0 < a <= 1 for a in alphas) and
          close(math.fsum(alphas), 1, 1), f"{tag}: alphas {alphas} sum to 1")
    check(sum(r["samples"] for r in rows) == samples,
          f"{tag}: the channels' samples add up to {samples}")
    scale = math.fsum(abs(r["integral"]) for r in rows)
    check(close(math.fsum(r["integral"] for r in rows), mean, scale),
          f"{tag}: the channels' integrals add up to the estimate {mean!r}")
    check(all(r["error"] >= 0 for r in rows), f"{tag}: errors non-negative")
    return True


def check_channels(tag, doc, names):
    """result.channels and iterations[].channels as docs/json.md says."""
    its = doc["iterations"]
    if not check("channels" in doc, f"{tag}: the document's channels present"):
        return
    for k, it in enumerate(its):
        if not check_channel_rows(f"{tag} iteration {k}", it.get("channels"),
                                  names, it["samples"], it["mean"]):
            return
    last = its[-1]
    rows = doc["channels"]
    totals = [sum(it["channels"][c]["samples"] for it in its)
              for c in range(len(names))]
    if check_channel_rows(f"{tag} result", rows, names,
                          sum(totals), last["mean"]):
        check([r["samples"] for r in rows] == totals,
              f"{tag}: each channel's samples over the run {totals}")
        shares = [r["error_share"] for r in rows]
        check(all(0 <= s <= 1 for s in shares) and
              abs(math.fsum(shares) - 1) <= 1e-9,
              f"{tag}: error shares {shares} in [0, 1], adding up to 1")


def run(exe, path, integrand, calls, exact, names=None):
    r = vegasc(exe, [path, "--integrand", integrand, "-q", "--seed", 1,
                     "--calls", calls, "--iterations", 5, "--warmup", 3])
    tag = f"{os.path.basename(path)}:{integrand}"
    if not check(r.rc == 0 and r.doc is not None, f"{tag}: vegasc succeeds"):
        print(r)
        return
    m, e = r.doc["result"]["mean"], r.doc["result"]["error"]
    print(f"{tag}: {m!r} +- {e:.3g}, reference {exact!r}, "
          f"pull {(m - exact) / e if e else math.inf:+.2f}")
    check(e > 0 and abs(m - exact) <= 5 * e,
          f"{tag}: within 5 sigma of the reference")
    if names:
        check_channels(tag, r.doc, names)


def main():
    exe, folder = sys.argv[1:3]
    for file, (multi, names, twin, calls, reference) in EXAMPLES.items():
        path = os.path.join(folder, file)
        exact = reference()
        with open(path) as f:
            quoted = re.search(r"reference = ([0-9.e+-]+)", f.read())
        check(quoted is not None and quoted.group(1) == f"{exact:.12g}",
              f"{file}: the comment quotes the reference {exact:.12g}")
        run(exe, path, multi, calls, exact, names)
        run(exe, path, twin, calls, exact)
    finish()


if __name__ == "__main__":
    main()
