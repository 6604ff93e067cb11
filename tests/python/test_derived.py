#===- tests/python/test_derived.py - Derived results with their errors ----===#
#
# A `derived` item's value and error (propagated by the runtime from the
# covariance, vf/Derived.h) against the same arithmetic on the result's
# correlated values in `uncertainties` (Result.uvalues()), and against the
# spread of the item over 30 seeds: the propagated error is the right
# size, while ignoring the correlation would overstate it many times.
#
#===------------------------------------------------------------------------===#
import math

import numpy as np
import pytest

import vegasflow as vf
from conftest import within

uncertainties = pytest.importorskip("uncertainties")

# The components share most of their fluctuation: their ratio is known
# far better than either of them.
SOURCE = """
param a = 0.2
integrand ee(x in [0, 1]^2) -> [2] = [exp(-3 * x[0]) * (1 + x[1]),
                                      exp(-3 * x[0]) * (1 + x[1] + a * x[0])]
derived ratio = ee[1] / ee[0]
derived afb = (ee[1] - ee[0]) / (ee[1] + ee[0])
"""
OPTS = dict(calls=4000, iterations=4, warmup=2, devices="cpu:2")


def exact_ratio(a=0.2):
    # int exp(-3x) dx = (1 - e^-3)/3; int x exp(-3x) dx = (1 - 4 e^-3)/9
    i0 = (1 - math.exp(-3)) / 3 * 1.5
    i1 = i0 + a * (1 - 4 * math.exp(-3)) / 9
    return i1 / i0


@pytest.fixture(scope="module")
def ee():
    return vf.compile(SOURCE, name="derived.vf").ee


def test_derived_matches_uncertainties(ee):
    r = vf.Integrator(ee, seed=5, **OPTS).run()
    a, b = r.uvalues()
    for name, u in (("ratio", b / a), ("afb", (b - a) / (b + a))):
        d = r.derived[name]
        assert d.mean == pytest.approx(u.nominal_value, rel=1e-14)
        assert d.sdev == pytest.approx(u.std_dev, rel=1e-10)
    assert within(r.derived["ratio"].mean, r.derived["ratio"].sdev,
                  exact_ratio())
    # Each iteration has its own.
    for row in r.itn_results:
        assert row.derived["ratio"].mean == pytest.approx(
            row.mean[1] / row.mean[0], rel=1e-14)


def test_derived_error_is_the_spread_over_seeds(ee):
    values, errors, naive = [], [], []
    for seed in range(1, 31):
        r = vf.Integrator(ee, seed=seed, **OPTS).run()
        d = r.derived["ratio"]
        values.append(d.mean)
        errors.append(d.sdev)
        m, s = np.asarray(r.mean), np.asarray(r.sdev)
        naive.append(abs(d.mean) * math.hypot(s[0] / m[0], s[1] / m[1]))
    spread = np.std(values, ddof=1)
    typical = float(np.mean(errors))
    # 30 draws estimate a standard deviation to about 13%: 0.65-1.45 is
    # beyond 2.5 of that either way.
    assert 0.65 < spread / typical < 1.45, (spread, typical)
    pulls = (np.array(values) - exact_ratio()) / np.array(errors)
    assert abs(pulls.mean()) < 0.6 and 0.65 < pulls.std(ddof=1) < 1.45
    # Without the covariance the error would be several times too big.
    assert float(np.mean(naive)) > 3 * spread


def test_parameter_and_scalar_results():
    m = vf.compile("""
param c = 2
integrand f(x in [0, 1]) = x
derived twice = c * f^2
""", name="scalar.vf")
    r = vf.Integrator(m.f, seed=2, **OPTS).run()
    u = r.uvalues()
    d = r.derived["twice"]
    assert d.mean == pytest.approx((2 * u ** 2).nominal_value, rel=1e-14)
    assert d.sdev == pytest.approx((2 * u ** 2).std_dev, rel=1e-10)
    assert d.gradient == pytest.approx((4 * r.mean,), rel=1e-14)
    # A derived item of another integrand is not this one's.
    m2 = vf.compile("""
integrand f(x in [0, 1]) = x
integrand g(x in [0, 1]) = x * x
derived r = g / 2
""", name="two.vf")
    assert vf.Integrator(m2.f, seed=2, **OPTS).run().derived == {}
    assert set(vf.Integrator(m2.g, seed=2, **OPTS).run().derived) == {"r"}


def test_bad_derived_items_are_compile_errors():
    with pytest.raises(vf.CompileError, match="uses integrands 'g' and 'f'"):
        vf.compile("""
integrand f(x in [0, 1]) = x
integrand g(x in [0, 1]) = x * x
derived r = g / f
""", name="mixed.vf")


def test_uvalues_without_uncertainties_says_what_to_install(ee, monkeypatch):
    r = vf.Integrator(ee, seed=5, **OPTS).run()
    # A None entry makes `import uncertainties` raise ImportError.
    monkeypatch.setitem(__import__("sys").modules, "uncertainties", None)
    with pytest.raises(ImportError, match="python3-uncertainties"):
        r.uvalues()
