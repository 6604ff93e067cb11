#!/usr/bin/env python3
#===- examples/python/tour.py - vegasflow from Python, step by step --------===#
#
# A notebook-style walk through the module (each step would be a cell):
# compile a .vf integrand, integrate it, read the result, scan a parameter
# without recompiling, integrate a numpy function, draw events. Run it
# with the build tree's module:
#
#   PYTHONPATH=build/release/python python3 examples/python/tour.py
#
# Exits 1 if an estimate is more than 5 sigma from its exact value
# (tests/python/test_example.py runs it).
#
#===------------------------------------------------------------------------===#
import math
import pathlib
import sys

import numpy as np

import vegasflow as vf

HERE = pathlib.Path(__file__).resolve().parent
failures = []


def check(what, value, sdev, exact):
    pull = abs(value - exact) / sdev if sdev > 0 else 0.0
    print(f"  {what}: {value:.8g} +- {sdev:.2g} (exact {exact:.8g}, "
          f"{pull:.1f} sigma)")
    if pull > 5:
        failures.append(what)


# (1) Compile Lepage's 8-dimensional Gaussian from examples/lepage.vf.
module = vf.compile(HERE.parent / "lepage.vf")
lepage = module.lepage
print("(1)", lepage)

# (2) Integrate: 5 warm-up iterations train the map, 10 measured ones give
#     the estimate. The same seed gives the same bits on any devices.
integ = vf.Integrator(lepage, calls=100_000, warmup=5, seed=1)
result = integ(iterations=10)
print("(2)", result.summary())
check("lepage", result.mean, result.sdev, math.erf(5) ** 8)

# (3) Scan the width a without recompiling: the compiled code is reused,
#     only the parameter changes (params= here, or integ.set_param); a
#     fresh integrator per point, so each estimate stands alone.
print("(3) scan of a")
for a in (0.05, 0.1, 0.2):
    scan = vf.Integrator(lepage, calls=100_000, params={"a": a}, seed=2)
    r = scan(iterations=5)
    check(f"a = {a}", r.mean, r.sdev, math.erf(0.5 / a) ** 8)

# (4) A numpy batch integrand, as in vegas: f takes an (n, dim) array and
#     returns (n,) values; here two components, (n, 2).
def gauss_and_x0(x):
    w = np.exp(-100 * ((x - 0.5) ** 2).sum(axis=1)) * (100 / math.pi)
    return np.column_stack([w, w * x[:, 0]])


numpy_integ = vf.Integrator(gauss_and_x0, domain=[(0, 1), (0, 1)],
                            calls=20_000, warmup=3, seed=3)
r = numpy_integ(iterations=5)
print("(4)", r, "covariance\n", r.covariance)
exact = math.erf(5) ** 2
check("numpy gauss", r.mean[0], r.sdev[0], exact)
check("numpy gauss * x0", r.mean[1], r.sdev[1], exact / 2)

# (4b) The same in vegas's words: the domain first, the integrand at the
#      call; the first call adapts the map, the second measures and
#      returns the statistics of its own iterations.
vegas_integ = vf.Integrator([[0, 1], [0, 1]], seed=3)
vegas_integ(gauss_and_x0, nitn=5, neval=20_000)
r = vegas_integ(gauss_and_x0, nitn=5, neval=20_000)
print("(4b)", r, "nitn", r.nitn, "Q", round(r.Q, 2))
check("vegas's form", r.mean[0], r.sdev[0], exact)

# (5) Events: freeze the trained map, draw weighted events (their mean
#     weight is the integral) and unweighted ones.
integ.freeze()
x, w = integ.sample(50_000)
check("mean event weight", w.mean(), w.std() / math.sqrt(len(w)),
      math.erf(5) ** 8)
events = integ.unweight(1000)
print(f"(5) {len(events)} unweighted events, efficiency "
      f"{events.stats.efficiency:.3f}, <x0> = {events.x[:, 0].mean():.3f}")

sys.exit(1 if failures else 0)
