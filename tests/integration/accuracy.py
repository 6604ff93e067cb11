#!/usr/bin/env python3
#===- tests/integration/accuracy.py - Known integrals at their budgets ----===#
#
# Usage: accuracy.py VEGASC KNOWN_INTEGRALS.toml NAME
#
# Integrates entry NAME of the table with its budget (5 warm-up iterations,
# then `iterations` x `calls`, seed 1) and requires, per component (the
# vector-valued `moments3` is checked component by component):
#   |I - exact| < 5 sigma        the answer is right within its own error,
#   sigma / |exact| <= rel_err   as accurate as the reference (twice what
#                                Lepage's vegas reached with this budget),
#   Q >= 0.001                   the measured iterations agree,
#   no instability diagnosis     the error bar is trustworthy (known_seeds.py
#                                checks 5 seeds).
#
#===----------------------------------------------------------------------===#
import math
import sys

from vftest import as_list, budget_args, check, finish, load_known, vegasc, \
    write_source


def main():
    exe, toml_path, name = sys.argv[1:4]
    entry = load_known(toml_path)[name]
    src = write_source(name, entry["source"])
    r = vegasc(exe, [src, "-q", "--seed", 1] + budget_args(entry))
    if not check(r.rc == 0 and r.doc is not None, f"{name}: vegasc succeeds"):
        print(r)
        finish()
    res = r.doc["result"]
    means, errors = as_list(res["mean"]), as_list(res["error"])
    exacts = as_list(entry["exact"])
    check(len(means) == len(exacts) == len(errors),
          f"{name}: {len(exacts)} component(s) in the result")
    measured = [it for it in r.doc["iterations"] if not it["warmup"]]
    check(len(measured) == entry["iterations"],
          f"{name}: {entry['iterations']} measured iterations")
    for c, (m, e, x) in enumerate(zip(means, errors, exacts)):
        tag = f"{name}[{c}]" if len(exacts) > 1 else name
        print(f"{tag}: {m!r} +- {e:.3g}, exact {x!r}, "
              f"pull {(m - x) / e if e else math.inf:+.2f}, "
              f"rel err {e / abs(x):.3g} (bound {entry['rel_err']:.3g})")
        check(e is not None and e > 0, f"{tag}: positive error")
        check(abs(m - x) < 5 * e, f"{tag}: |I - exact| < 5 sigma")
        check(e / abs(x) <= entry["rel_err"], f"{tag}: relative error <= rel_err")
    check(res["Q"] >= 0.001, f"{name}: Q = {res['Q']:.3g} >= 0.001")
    check(not res["variance_unstable"],
          f"{name}: variance stable (median share {res['max_share']:.3g})")
    finish()


if __name__ == "__main__":
    main()
