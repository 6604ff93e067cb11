#===- tests/python/test_events.py - Weighted and unweighted events ---------===#
import math

import numpy as np
import pytest

import vegasflow as vf
from conftest import within

FAST = dict(calls=20000, iterations=4, warmup=2, devices="cpu:2")


def trained(integrand, seed=1):
    integ = vf.Integrator(integrand, seed=seed, **FAST)
    result = integ()
    integ.freeze()
    return integ, result


def test_sample_arrays_and_their_mean(gauss):
    """ Integrator.sample """
    integ, r = trained(gauss)
    ev = integ.sample(20000)
    x, w = ev
    assert x is ev.x and w is ev.weights and len(ev) == 20000
    assert ev.x.shape == (20000, 4) and ev.f.shape == (20000, 1)
    assert ev.jac.shape == ev.weights.shape == (20000,)
    assert ((ev.x > 0) & (ev.x < 1)).all()
    np.testing.assert_allclose(ev.weights, ev.jac * ev.f[:, 0], rtol=1e-15)
    np.testing.assert_allclose(ev.f[:, 0], gauss(ev.x), rtol=1e-13)
    err = ev.weights.std() / math.sqrt(len(ev))
    assert within(ev.weights.mean(), math.hypot(err, r.sdev), r.mean)
    assert "20000 events" in repr(ev)


def test_events_are_reproducible_and_continue_the_stream(gauss):
    a, _ = trained(gauss, seed=2)
    b, _ = trained(gauss, seed=2)
    first, second = a.sample(70000), a.sample(10)
    both = b.sample(70010)  # more than one chunk of 2^16
    np.testing.assert_array_equal(both.x[:70000], first.x)
    np.testing.assert_array_equal(both.x[70000:], second.x)
    assert len(a.sample(0)) == 0


def test_unweighted_events(moments):
    """ Integrator.unweight, UnweightStats """
    integ, r = trained(moments)
    ev = integ.unweight(2000, wmax_events=20000)
    s = ev.stats
    assert len(ev) == s.accepted == 2000 and ev.f.shape == (2000, 3)
    assert s.drawn >= 2000 and s.efficiency == pytest.approx(2000 / s.drawn)
    assert (np.abs(ev.weights) >= 1).all()
    assert s.overshoot == np.count_nonzero(np.abs(ev.weights) > 1)
    assert within(s.mean, math.hypot(s.sdev, r.sdev[0]), r.mean[0])
    assert ev.integral == pytest.approx(s.wmax * ev.weights.sum() / s.drawn)


def test_events_need_a_frozen_trained_integrator(gauss):
    integ = vf.Integrator(gauss, **FAST)
    with pytest.raises(vf.Error):
        integ.sample(10)
    integ()
    with pytest.raises(vf.Error, match="freeze"):
        integ.unweight(10)
    integ.freeze()
    with pytest.raises(ValueError, match="option 'n'"):
        integ.sample(-1)
    with pytest.raises(ValueError, match="option 'wmax_events'"):
        integ.unweight(10, wmax_events=0)
