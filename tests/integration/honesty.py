#!/usr/bin/env python3
#===- tests/integration/honesty.py - Are the error estimates honest? ------===#
#
# Usage: honesty.py VEGASC KNOWN_INTEGRALS.toml NAME [SEEDS]
#
# Integrates entry NAME with its budget for seeds 1..SEEDS (30 by default)
# and looks at the pulls (I - exact) / sigma. If the reported sigma is the
# real standard deviation and the estimate unbiased, the pulls are about
# N(0, 1): their mean must lie within +-0.5 and their standard deviation in
# [0.7, 1.3]. (For 30 Gaussian pulls the mean's own spread is 0.18 and the
# standard deviation's 0.13, so these bounds are about 2.7 and 2.3 of those
# spreads: a fixed seed list that passes stays passing, and an error estimate
# that is 30% off, or a bias of half a sigma, fails.)
#
#===----------------------------------------------------------------------===#
import statistics
import sys

from vftest import budget_args, check, finish, load_known, run_seed, \
    write_source


def main():
    exe, toml_path, name = sys.argv[1:4]
    nseeds = int(sys.argv[4]) if len(sys.argv) > 4 else 30
    entry = load_known(toml_path)[name]
    src = write_source(name, entry["source"])
    pulls = []
    for seed in range(1, nseeds + 1):
        r = run_seed(exe, src, name, seed, budget_args(entry))
        if r is None:
            continue
        res = r.doc["result"]
        pull = (res["mean"] - entry["exact"]) / res["error"]
        pulls.append(pull)
        print(f"seed {seed:2d}: {res['mean']!r} +- {res['error']:.3g}  "
              f"pull {pull:+.2f}  Q {res['Q']:.3g}")
    if len(pulls) >= 2:
        mean, sd = statistics.fmean(pulls), statistics.stdev(pulls)
        print(f"{name}: {len(pulls)} pulls, mean {mean:+.3f}, sd {sd:.3f}")
        check(abs(mean) <= 0.5, f"{name}: mean pull {mean:+.3f} within +-0.5")
        check(0.7 <= sd <= 1.3, f"{name}: pull sd {sd:.3f} in [0.7, 1.3]")
    finish()


if __name__ == "__main__":
    main()
