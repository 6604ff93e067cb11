#===- tests/python/test_numpy.py - numpy batch integrands ------------------===#
#
# vf.Integrator(f, dim=..., domain=...): accuracy, vector outputs,
# parameters, the same sampler as compiled code (bitwise, for an integrand
# both evaluate exactly alike), and every way f can misbehave: a wrong
# shape or dtype (at the probe or later), an exception, NaN.
#
#===------------------------------------------------------------------------===#
import math

import numpy as np
import pytest

import vegasflow as vf
from conftest import within

FAST = dict(calls=20000, iterations=4, warmup=2, devices="cpu:2")


def test_scalar_numpy_integrand_within_5_sigma():
    """ Integrator(f, domain=...) """
    integ = vf.Integrator(lambda x: np.exp(-x[:, 0] * x[:, 1]),
                          domain=[(0, 1), (0, 2)], seed=3, **FAST)
    r = integ()
    # int_0^1 (1 - e^-2x)/x dx = Ein(2) = sum_k (-1)^(k+1) 2^k / (k k!)
    exact = sum((-1) ** (k + 1) * 2 ** k / (k * math.factorial(k))
                for k in range(1, 40))
    assert within(r.mean, r.sdev, exact)
    assert integ.integrand.dim == 2 and integ.integrand.name == "<lambda>"
    assert integ.integrand.domain().tolist() == [[0, 1], [0, 2]]


def test_vector_outputs_dim_only_and_params():
    """ (n, k) outputs, dim= (unit cube), params= and set_param """
    def f(x, p):
        return np.column_stack([np.ones(len(x)), x[:, 0] ** p])
    integ = vf.Integrator(f, dim=3, params={"p": 2.0}, **FAST)
    assert integ.integrand.outputs == 2 and integ.params == {"p": 2.0}
    r = integ()
    assert r.mean.shape == (2,)
    assert within(r.mean[1], r.sdev[1], 1 / 3)
    integ.set_param("p", 3.0)
    last = integ.run(iterations=2).iterations[-1]
    assert within(last.mean[1], last.sdev[1], 1 / 4)


def test_same_sampler_as_compiled_code():
    """ a .vf integrand and the same numpy function give the same bits """
    vf_f = vf.compile("integrand f(x in [0, 1]^2) = x[0] * x[1]").f
    a = vf.Integrator(vf_f, seed=11, **FAST)()
    b = vf.Integrator(lambda x: x[:, 0] * x[:, 1], dim=2, seed=11, **FAST)()
    c = vf.Integrator(lambda x: x[:, 0] * x[:, 1], dim=2, seed=11,
                      **dict(FAST, devices="cpu:1"))()
    assert (a.mean, a.sdev) == (b.mean, b.sdev) == (c.mean, c.sdev)


@pytest.mark.parametrize("fn,kind,match", [
    (lambda x: x[0], ValueError, r"shape \(3,\).*\(n,\) or \(n, k\)"),
    (lambda x: x[:, :1].T, ValueError, r"shape \(1, 2\)"),
    (lambda x: 1.0, ValueError, r"shape \(\)"),
    (lambda x: x[:, 0] * 1j, TypeError, "complex128"),
    (lambda x: np.array(["a"] * len(x)), TypeError, "<U1"),
    (lambda x: None, TypeError, "dtype object"),
])
def test_wrong_shape_or_dtype_at_the_probe(fn, kind, match):
    with pytest.raises(kind, match=match):
        vf.Integrator(fn, dim=3, **FAST)


def test_wrong_shape_later_raises_from_run():
    calls = {"n": 0}

    def f(x):
        calls["n"] += 1
        return x[:, 0] if calls["n"] == 1 else x[:-1, 0]
    integ = vf.Integrator(f, dim=2, **FAST)
    with pytest.raises(ValueError, match=r"for a batch of \d+ points"):
        integ()
    assert integ.result.nitn == 0


def test_exception_in_the_integrand_propagates():
    class Broken(Exception):
        pass
    seen = {"n": 0}

    def f(x):
        seen["n"] += 1
        if seen["n"] > 3:
            raise Broken("no luck")
        return x[:, 0]
    integ = vf.Integrator(f, dim=2, **dict(FAST, calls=10**6))
    with pytest.raises(Broken, match="no luck") as info:
        integ()
    assert "f" in "".join(str(t.name) for t in info.traceback)
    # The stop flag ends the iteration without calling f for every batch.
    assert seen["n"] < 100


def test_nan_is_reported_with_the_point():
    integ = vf.Integrator(lambda x: np.where(x[:, 0] < 0.5, np.nan, 1.0),
                          dim=1, **FAST)
    with pytest.raises(vf.Error, match="nan at x = "):
        integ()


def test_python_integrand_options():
    f = lambda x: x[:, 0]  # noqa: E731
    with pytest.raises(ValueError, match="option 'on_nonfinite'.*nan_to_num"):
        vf.Integrator(f, dim=1, on_nonfinite="zero")
    with pytest.raises(ValueError, match="option 'domain'.*interval 0"):
        vf.Integrator(f, domain=[(1, 0)])
    with pytest.raises(ValueError, match="option 'domain'.*inf"):
        vf.Integrator(f, domain=[(0, math.inf)])
    with pytest.raises(ValueError, match="option 'domain'.*2 intervals"):
        vf.Integrator(f, dim=3, domain=[(0, 1), (0, 1)])
    with pytest.raises(ValueError, match="option 'domain'.*pairs"):
        vf.Integrator(f, domain=[0, 1])
    with pytest.raises(ValueError, match="option 'dim'"):
        vf.Integrator(f)
    with pytest.raises(ValueError, match="option 'dim'"):
        vf.Integrator(f, dim=0)
    with pytest.raises(vf.Error, match="GPU"):
        vf.Integrator(f, dim=1, devices="gpu")
    integ = vf.Integrator(f, dim=1, devices="all", name="ramp")
    assert integ.integrand.name == "ramp"
    assert all(kind == "cpu" for _, kind, _ in integ.devices)


def test_evaluate_and_events_of_a_python_integrand():
    integ = vf.Integrator(lambda x: 2 * x[:, 0], dim=2, **FAST)
    np.testing.assert_array_equal(integ.integrand([[0.25, 0.5]]), [0.5])
    r = integ()
    integ.freeze()
    ev = integ.sample(5000)
    np.testing.assert_array_equal(ev.f[:, 0], 2 * ev.x[:, 0])
    assert within(ev.weights.mean(), ev.weights.std() / math.sqrt(5000),
                  r.mean)
