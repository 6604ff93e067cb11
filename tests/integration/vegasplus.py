#!/usr/bin/env python3
#===- tests/integration/vegasplus.py - Adaptive stratification pays -------===#
#
# Usage: vegasplus.py VEGASC KNOWN_INTEGRALS.toml NAME
#
# Integrates entry NAME twice with the same budget and seed: VEGAS+ with the
# default beta = 0.75, and classic VEGAS (--beta 0: the map adapts, the
# stratification does not). On integrands a separable map cannot follow
# (double_peak4's phantom peaks, ridge4's diagonal ridge) the adaptive
# stratification must cut the error at least in half. Both answers must
# also be right within 5 sigma.
#
#===----------------------------------------------------------------------===#
import sys

from vftest import budget_args, check, finish, load_known, vegasc, write_source


def main():
    exe, toml_path, name = sys.argv[1:4]
    entry = load_known(toml_path)[name]
    src = write_source(name, entry["source"])
    err = {}
    for label, extra in (("beta=0.75", []), ("beta=0", ["--beta", 0])):
        r = vegasc(exe, [src, "-q", "--seed", 1] + budget_args(entry) + extra)
        if not check(r.rc == 0 and r.doc is not None,
                     f"{name} {label}: vegasc succeeds"):
            print(r)
            finish()
        res = r.doc["result"]
        check(r.doc["settings"]["beta"] == (0 if extra else 0.75),
              f"{name} {label}: settings.beta recorded")
        print(f"{name} {label}: {res['mean']!r} +- {res['error']:.3g} "
              f"({res['evaluations']} evaluations)")
        check(abs(res["mean"] - entry["exact"]) < 5 * res["error"],
              f"{name} {label}: within 5 sigma of exact")
        err[label] = res["error"]
    ratio = err["beta=0"] / err["beta=0.75"]
    check(ratio >= 2, f"{name}: error(beta=0) / error(beta=0.75) = "
                      f"{ratio:.2f} >= 2")
    finish()


if __name__ == "__main__":
    main()
