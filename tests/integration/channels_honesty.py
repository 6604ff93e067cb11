#!/usr/bin/env python3
"""Statistical honesty of the multi-channel runtime (issue 37).

    channels_honesty.py VEGASC EXAMPLES_PHYSICS_DIR

Each multi-channel example of examples/physics/ (the Z/gamma* line shape,
the Dalitz plot with two resonances, the peaks on the anti-diagonal) over
30 seeds at a small budget (4 10^4 calls, 3 warm-up and 5 iterations): the
pulls (result - reference) / error, the references scipy's quadratures in
the physics' own variables (multichannel_refs.py), have a mean within
+-0.5 and a standard deviation in [0.7, 1.3]. An error estimate that
ignored a channel's variance, or a combination that correlated the
channels' estimates, would show here as a spread of pulls away from 1; a
bias in the weights' update as a shifted mean. At 10^4 calls the line
shape's errors are conservative (standard deviation 0.70; its single-
channel twin's 0.87): the weights and maps still settle in the measured
iterations, which are weighted by the variance of the one before.
"""
import os
import statistics
import sys

import multichannel_refs as refs
from vftest import check, finish, run_seed

# file: (multi-channel integrand, reference)
EXAMPLES = {
    "zgamma_lineshape.vf": ("lineshape", lambda: refs.lineshape()[0]),
    "dalitz_two_resonances.vf": ("dalitz", lambda: refs.dalitz()[0]),
    "antidiagonal_peaks.vf": ("peaks", lambda: refs.antidiagonal()[0]),
}
BUDGET = ["--calls", 40000, "--iterations", 5, "--warmup", 3,
          "--devices", "cpu:1"]
SEEDS = range(1, 31)


def main():
    exe, folder = sys.argv[1:3]
    for file, (name, reference) in EXAMPLES.items():
        path = os.path.join(folder, file)
        exact = reference()
        pulls = []
        for seed in SEEDS:
            r = run_seed(exe, path, name, seed, ["--integrand", name] + BUDGET)
            if r is None:
                break
            res = r.doc["result"]
            pulls.append((res["mean"] - exact) / res["error"])
        if len(pulls) < len(SEEDS):
            continue
        m, sd = statistics.fmean(pulls), statistics.stdev(pulls)
        print(f"{name}: pulls {' '.join(f'{p:+.2f}' for p in pulls)}")
        check(abs(m) <= 0.5 and 0.7 <= sd <= 1.3,
              f"{name}: the pulls over {len(SEEDS)} seeds have mean {m:+.2f} "
              f"(within +-0.5) and standard deviation {sd:.2f} (in "
              f"[0.7, 1.3])")
    finish()


if __name__ == "__main__":
    main()
