#!/usr/bin/env python3
#===- tests/integration/memory.py - Memory does not grow with --calls -----===#
#
# Usage: memory.py VEGASC [BOUND_MB]
#
# 10^8 calls in one iteration of a 2-dimensional integrand. Nothing of size
# O(calls) may be allocated (10^8 doubles alone would be 800 MB): memory is
# bounded by the hypercube cap (10^6 hypercubes, a few doubles each) and the
# map. The peak resident set size of vegasc must stay under BOUND_MB
# (200 MB by default; docs/user-guide.md states the same bound).
#
#===----------------------------------------------------------------------===#
import resource
import sys
import time

from vftest import check, finish, vegasc, write_source


def main():
    exe = sys.argv[1]
    bound_mb = float(sys.argv[2]) if len(sys.argv) > 2 else 200
    src = write_source("m2", "integrand f(x in [0, 1]^2) = x[0] * x[1]\n")
    t = time.monotonic()
    r = vegasc(exe, [src, "-q", "--calls", 100000000, "--iterations", 1,
                     "--warmup", 0])
    # ru_maxrss of children: kilobytes on Linux, the largest child waited
    # for; vegasc is the only child this process starts.
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"10^8 calls: {time.monotonic() - t:.1f} s, peak RSS "
          f"{peak_mb:.0f} MB")
    if check(r.rc == 0 and r.doc is not None, "vegasc succeeds"):
        res = r.doc["result"]
        check(res["evaluations"] >= 10**8 * 0.9,
              f"{res['evaluations']} evaluations, about 10^8")
        check(abs(res["mean"] - 0.25) < 5 * res["error"],
              f"{res['mean']!r} +- {res['error']:.3g} is 1/4 within 5 sigma")
    else:
        print(r)
    check(peak_mb < bound_mb, f"peak RSS {peak_mb:.0f} MB < {bound_mb:.0f} MB")
    finish()


if __name__ == "__main__":
    main()
