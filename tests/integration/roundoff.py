#!/usr/bin/env python3
#===- tests/integration/roundoff.py - Honest errors at the rounding level ===#
#
# Usage: roundoff.py VEGASC
#
# Integrands whose estimate is exact but for floating-point rounding
# (docs/user-guide.md, "Round-off"): the constant 1 on [0,1]^d for d = 1..8
# and on a box of volume 3^d, and a Breit-Wigner flattened by the tan map
# of std/phasespace, at 1e6 calls (a few hundred thousand hypercubes,
# where a plain sum over them drifted by 6e-12). Each must land within its
# reported error (which is at least the round-off floor, never 1e-17 or 0)
# of the exact value, with Q above 0.01 (the iterations agree within
# their errors), and JSON roundoff_floor must be the documented
# sqrt(d + 2) 2^-52 |I|.
#
#===----------------------------------------------------------------------===#
import math
import sys

from vftest import check, finish, vegasc, write_source

BW = """import "std/phasespace"
import "std/physics"
const mz = 91.1876
const gz = 2.4952
integrand bwflat(u in [0, 1]) {
    let m = bw_map_above(u, mz, gz, 0)
    return breit_wigner(m[0], mz, gz) * m[1]
}
"""
RUN = ["--calls", "1e6", "--iterations", 8, "--warmup", 3, "-q", "-w"]


def honest(name, src, exact, dim):
    r = vegasc(sys.argv[1], [src] + RUN)
    if not check(r.rc == 0 and r.doc, f"{name}: runs"):
        print(r)
        return
    res = r.doc["result"]
    mean, err, q = res["mean"], res["error"], res["Q"]
    floor = math.sqrt(dim + 2) * 2.0**-52 * abs(mean)
    check(abs(mean - exact) <= err,
          f"{name}: |I - exact| = {abs(mean - exact):.3g} within the error "
          f"{err:.3g}")
    check(q > 0.01, f"{name}: Q = {q:.3g} > 0.01")
    check(err >= floor and res["roundoff_floor"] == floor,
          f"{name}: the error {err:.3g} is at least the floor {floor:.3g}")


def main():
    for d in range(1, 9):
        src = write_source(f"one{d}", f"integrand one{d}(x in [0,1]^{d}) = 1\n")
        honest(f"1 on [0,1]^{d}", src, 1.0, d)
    for d in (2, 5):
        src = write_source(f"box{d}",
                           f"integrand box{d}(x in [-1,2]^{d}) = 1\n")
        honest(f"1 on [-1,2]^{d}", src, 3.0**d, d)
    # The map covers s in [0, inf): the Breit-Wigner's integral from 0.
    mz, gz = 91.1876, 2.4952
    exact = 0.5 + math.atan(mz / gz) / math.pi
    honest("tan-mapped Breit-Wigner", write_source("bwflat", BW), exact, 1)
    finish()


if __name__ == "__main__":
    main()
