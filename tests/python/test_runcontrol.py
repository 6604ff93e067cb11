#===- tests/python/test_runcontrol.py - rtol/atol, extend, summary --------===#
#
# Integrator(rtol=, atol=) stops when the target is met and says why
# (Result.stopped_because, target_met), the same for any thread count; bad
# targets are ValueErrors naming the option; extend() and load_state() +
# run() with more iterations equal one longer run bit for bit; summary()
# has every iteration; roundoff_floor is reported.
#
#===------------------------------------------------------------------------===#
import time

import pytest

import vegasflow as vf

FAST = dict(calls=20000, warmup=2)


def test_target_met_within_the_cap(gauss):
    r = vf.Integrator(gauss, rtol=3e-3, iterations=60, devices="cpu:1",
                      **FAST).run()
    assert r.stopped_because == "target" and r.target_met is True
    assert 2 <= r.nitn < 60
    assert r.sdev <= 3e-3 * abs(r.mean)
    again = vf.Integrator(gauss, rtol=3e-3, iterations=60, devices="cpu:2",
                          **FAST).run()
    assert (again.mean, again.sdev, again.nitn) == (r.mean, r.sdev, r.nitn)


def test_target_not_met_and_no_target(gauss):
    r = vf.Integrator(gauss, atol=1e-15, iterations=3, **FAST).run()
    assert r.stopped_because == "max_iterations" and r.target_met is False
    plain = vf.Integrator(gauss, iterations=3, **FAST).run()
    assert plain.stopped_because == "iterations" and plain.target_met is None
    assert 0 < plain.roundoff_floor < plain.sdev


@pytest.mark.parametrize("kw", [dict(rtol=-1), dict(rtol=0), dict(atol=0),
                                dict(atol=float("inf"))])
def test_bad_targets(gauss, kw):
    with pytest.raises(ValueError, match=list(kw)[0]):
        vf.Integrator(gauss, **kw)


def test_extend_equals_one_longer_run(gauss, tmp_path):
    whole = vf.Integrator(gauss, iterations=8, **FAST).run()
    integ = vf.Integrator(gauss, iterations=4, **FAST)
    integ.run()
    ext = integ.extend(8)
    assert (ext.mean, ext.sdev, ext.chi2_dof) == (whole.mean, whole.sdev,
                                                 whole.chi2_dof)
    state = tmp_path / "s.ckpt"
    first = vf.Integrator(gauss, iterations=4, **FAST)
    first.run()
    first.save_state(state)
    second = vf.Integrator(gauss, iterations=8, **FAST)
    second.load_state(state)
    r = second.run()
    assert (r.mean, r.sdev) == (whole.mean, whole.sdev)
    with pytest.raises(ValueError, match="already measured 8 iterations"):
        integ.extend(2)


def test_summary(gauss):
    integ = vf.Integrator(gauss, iterations=3, **FAST)
    integ.run()
    s = integ.summary()
    assert "chi2/dof" in s and "every iteration ran" in s
    assert len([l for l in s.splitlines() if l.strip()[:1].isdigit()]) == 5


def test_progress_returning_false_cancels(gauss):
    # vf::Integrator::cancel() through a callback: no exception, the
    # iterations completed are the result, and the same run() continues
    # it to the uninterrupted one bit for bit.
    opts = dict(calls=20000, iterations=6, warmup=1, devices="cpu:2", seed=5)
    integ = vf.Integrator(gauss, **opts)
    seen = []

    def progress(p):
        seen.append(p.done)
        if p.done < 2:
            return None
        # A slow answer must still stop the run here: the library waits
        # for each iteration's callbacks before it starts the next one.
        time.sleep(0.3)
        return False
    r = integ.run(progress=progress)
    assert r.stopped_because == "cancelled"
    assert 2 <= integ.plan["done"] < 7
    assert r.nitn == integ.plan["done"] - 1  # the warm-up is not measured
    assert integ.result.mean == r.mean
    full = vf.Integrator(gauss, **opts).run()
    again = integ.run()
    assert again.stopped_because == "iterations"
    assert (again.mean, again.sdev, again.nitn) == (full.mean, full.sdev,
                                                   full.nitn)


def test_progress_returning_none_or_true_runs_on(gauss):
    r = vf.Integrator(gauss, iterations=3, **FAST).run(
        progress=lambda p: True)
    assert r.stopped_because == "iterations" and r.nitn == 3
