#===- tests/python/test_vegas.py - vegas's forms ----------------------------===#
#
# A script written for Lepage's vegas, with the import changed: each form
# of docs/python.md's "From vegas to vegasflow" table against the same run
# done the vegasflow way, bitwise where the samples are the same. A call
# returns its own iterations' statistics, and a call after a call is one
# run whose earlier iterations were warm-up: the same samples, the same
# weights, the same bits. And each misuse names what was probably meant.
#
#===------------------------------------------------------------------------===#
import numpy as np
import pytest

import vegasflow as vf
from conftest import within

N = 20000
BOX = [[0, 1], [0, 2]]
OPTS = dict(seed=3, devices="cpu:2")


def f(x):
    return np.exp(-x[:, 0] * x[:, 1])


def f2(x):
    return np.column_stack([np.exp(-x[:, 0] * x[:, 1]), x[:, 0] * x[:, 1]])


def same(a, b):
    """The same statistics, bit for bit."""
    assert np.array_equal(np.atleast_1d(a.mean), np.atleast_1d(b.mean))
    assert np.array_equal(np.atleast_1d(a.sdev), np.atleast_1d(b.sdev))
    assert np.array_equal(a.covariance, b.covariance)
    assert (a.chi2, a.dof, a.Q, a.nitn) == (b.chi2, b.dof, b.Q, b.nitn)
    assert np.array_equal(a.itn_mean, b.itn_mean)


def reference(fcn, iterations, warmup):
    """The vegasflow way: one run of `warmup` + `iterations`."""
    return vf.Integrator(fcn, domain=BOX, calls=N, **OPTS).run(
        iterations, N, warmup)


def test_domain_first_and_the_integrand_at_call_time():
    """ Integrator(domain); integ(f, nitn=, neval=) """
    integ = vf.Integrator(BOX, **OPTS)
    r = integ(f, nitn=4, neval=N)
    same(r, reference(f, 4, 5))
    assert integ.integrand.name == "f" and r.nitn == 4
    # Integrator(f, domain): the domain as the second argument.
    same(vf.Integrator(f, BOX, **OPTS)(nitn=4, neval=N), r)
    # nitn= and neval= at construction, as vegas's Integrator takes them.
    same(vf.Integrator(f, BOX, nitn=4, neval=N, **OPTS)(), r)


def call_average(before, sdevs, means):
    """The mean of a call's iterations alone, as the library's RAvg
    computes it (runtime/integrator/Stats.cpp): each iteration weighted
    by the variance of the one before it, `before` for the first."""
    preds = [before] + list(sdevs[:-1])
    smallest = min(preds)
    sum_w = sum_wi = 0.0
    for pred, mean in zip(preds, means):
        r = smallest / pred
        sum_w += r * r
        sum_wi += r * r * mean
    return sum_wi / sum_w


@pytest.mark.parametrize("fcn", [f, f2], ids=["scalar", "vector"])
def test_each_call_has_its_own_statistics(fcn):
    """ integ(f, ...) then integ(f, ...) again: the second call's
    iterations alone, the map still adapting """
    integ = vf.Integrator(BOX, **OPTS)
    first = integ(fcn, nitn=3, neval=N)
    second = integ(fcn, nitn=4, neval=N)
    same(first, reference(fcn, 3, 5))
    assert second.nitn == 4 and len(second.itn_results) == 4
    assert second.dof == np.size(second.mean) * 3
    assert integ.result.nitn == 4
    # The samples of one run that adds the iterations up: no second
    # warm-up, the map trained by the first call's iterations.
    acc = vf.Integrator(fcn, BOX, calls=N, **OPTS)
    acc.run(3, N, 5)
    whole = acc.run(4, N, 0)
    assert whole.nitn == 7
    assert np.array_equal(whole.itn_mean[3:], second.itn_mean)
    assert np.array_equal(whole.itn_sdev[3:], second.itn_sdev)
    # Their statistics alone.
    if np.ndim(second.mean) == 0:
        assert second.mean == call_average(
            first.itn_sdev[-1], second.itn_sdev, second.itn_mean)
    assert not np.array_equal(second.mean, whole.mean)


def test_a_call_of_a_compiled_integrand_or_module():
    """ Integrator(m.f); integ(m.f, nitn=, neval=); integ(module) """
    module = vf.compile("integrand g(x in [0, 1]^2) = exp(-x[0] * x[1])")
    integ = vf.Integrator(module.g, **OPTS)
    first = integ(module.g, nitn=2, neval=N)
    second = integ(module, nitn=3, neval=N)
    acc = vf.Integrator(module.g, calls=N, **OPTS)
    same(acc.run(2, N, 5), first)
    whole = acc.run(3, N, 0)
    assert np.array_equal(whole.itn_mean[2:], second.itn_mean)
    assert second.mean == call_average(first.itn_sdev[-1], second.itn_sdev,
                                       second.itn_mean)


def test_accumulate_across_calls():
    """ integ(f, ..., accumulate=True) and run(): one set of statistics """
    integ = vf.Integrator(BOX, **OPTS)
    integ(f, nitn=3, neval=N)
    r = integ(f, nitn=4, neval=N, accumulate=True)
    acc = vf.Integrator(f, BOX, calls=N, **OPTS)
    acc.run(3, N, 5)
    same(r, acc.run(4, N, 0))
    assert r.nitn == 7


def test_warmup_where_asked():
    """ warmup= on a call; the Integrator's warmup before the first call """
    integ = vf.Integrator(f, BOX, warmup=2, **OPTS)
    first = integ(nitn=2, neval=N)
    assert sum(r.warmup for r in first.iterations) == 2
    second = integ(nitn=2, neval=N, warmup=1)
    acc = vf.Integrator(f, BOX, calls=N, **OPTS)
    acc.run(2, N, 2)
    whole = acc.run(2, N, 1)
    assert np.array_equal(whole.itn_mean[2:], second.itn_mean)
    # The row that weights the call's first iteration is the one before
    # it, kept as a warm-up row.
    assert [r.warmup for r in second.iterations] == [True, True, False,
                                                     False]


def test_an_interrupted_call_continues_bitwise(tmp_path):
    """ a call stopped by a callback (or Ctrl-C), then the same call; and
    its saved state (as its checkpoint) resumed in another Integrator """
    full = vf.Integrator(BOX, **OPTS)
    full(f, nitn=3, neval=N)
    expected = full(f, nitn=4, neval=N)
    integ = vf.Integrator(BOX, **OPTS)
    integ(f, nitn=3, neval=N)
    integ.checkpoint(tmp_path / "ck")
    stop = lambda p: p.done < 2  # noqa: E731  (False stops the run)
    part = integ(f, nitn=4, neval=N, progress=stop)
    assert part.stopped_because == "cancelled" and part.nitn == 2
    integ.save_state(tmp_path / "part")
    same(integ(f, nitn=4, neval=N), expected)
    resumed = vf.Integrator(f, BOX, calls=N, **OPTS)
    resumed.load_state(tmp_path / "part")
    assert resumed.plan["done"] == 2
    same(resumed(nitn=4, neval=N), expected)
    # The checkpoint of the finished call restores its statistics.
    final = vf.Integrator(f, BOX, calls=N, **OPTS)
    final.load_state(tmp_path / "ck")
    same(final.result, expected)


def test_batchintegrand_decorators():
    """ @vegas.batchintegrand, @lbatchintegrand, @rbatchintegrand """
    assert vf.batchintegrand(f) is f and vf.lbatchintegrand(f) is f

    @vf.rbatchintegrand
    def by_rows(x):
        return np.exp(-x[0] * x[1])
    same(vf.Integrator(by_rows, BOX, **OPTS)(nitn=2, neval=N),
         vf.Integrator(f, BOX, **OPTS)(nitn=2, neval=N))


def test_result_names():
    """ result.mean, sdev, chi2, dof, Q, summary(), itn_results """
    r = vf.Integrator(BOX, **OPTS)(f, nitn=4, neval=N)
    assert within(r.mean, r.sdev, _ein2())
    assert r.dof == 3 and r.chi2 == pytest.approx(r.chi2_dof * 3)
    assert 0 <= r.Q <= 1 and "Q" in r.summary()
    assert [i.mean for i in r.itn_results] == list(r.itn_mean)
    assert all(not i.warmup for i in r.itn_results)


def _ein2():
    """int_0^1 int_0^2 exp(-x y) dy dx = Ein(2)."""
    import math
    return sum((-1) ** (k + 1) * 2 ** k / (k * math.factorial(k))
               for k in range(1, 40))


def test_map():
    """ integ.map: grid, inc, ninc, dim, map(y), jac(y) """
    integ = vf.Integrator(BOX, **OPTS)
    with pytest.raises(TypeError, match=r"integ\(f, nitn"):
        integ.map
    integ = vf.Integrator(f, BOX, **OPTS)
    assert integ.map is None
    integ(nitn=2, neval=N)
    m = integ.map
    assert m.dim == 2 and m.grid.shape == (2, m.ninc + 1)
    assert m.grid[:, 0].tolist() == [0, 0] and m.grid[:, -1].tolist() == [1, 2]
    assert np.all(m.inc > 0) and np.allclose(m.inc.sum(axis=1), [1, 2])
    y = np.random.default_rng(1).random((1000, 2))
    x = m(y)
    assert x.shape == (1000, 2) and np.all(x >= 0) and np.all(x <= [1, 2])
    # The Jacobian integrates to the volume over y.
    assert m.jac(y).mean() == pytest.approx(2, rel=0.1)
    assert m(np.array([0.5, 0.5])).shape == (2,)
    integ(nitn=1, neval=N)
    assert not np.array_equal(integ.map.grid, m.grid)  # a snapshot


def test_random_batch():
    """ for x, wgt in integ.random_batch(): ... after freeze() """
    integ = vf.Integrator(f, BOX, **OPTS)
    integ(nitn=3, neval=N)
    with pytest.raises(vf.Error, match=r"integ\.freeze\(\)"):
        integ.random_batch()
    integ = _trained()
    terms = [wgt * f(x) for x, wgt in integ.random_batch(50000, batch=8192)]
    terms = np.concatenate(terms)
    assert len(terms) == 50000
    sdev = terms.std() * np.sqrt(len(terms))
    assert within(terms.sum(), sdev, _ein2())
    # The same points and weights as sample() from the same state.
    ev = _trained().sample(1000)
    x, wgt = next(_trained().random_batch(1000))
    assert np.array_equal(x, ev.x) and np.array_equal(wgt, ev.jac / 1000)


def _trained():
    """A frozen Integrator after three iterations."""
    integ = vf.Integrator(f, BOX, **OPTS)
    integ(nitn=3, neval=N)
    integ.freeze()
    return integ


def test_settings():
    """ integ.settings() """
    text = vf.Integrator(BOX, alpha=0.25, **OPTS).settings()
    assert "alpha" in text and "0.25" in text and "given at the first" in text
    assert "calls (neval)" in vf.Integrator(f, BOX, **OPTS).settings()


@pytest.mark.parametrize("make,call,message", [
    (lambda: vf.Integrator(BOX), lambda i: i(nitn=2),
     r"no integrand yet.*integ\(f, nitn=10"),
    (lambda: vf.Integrator(BOX), lambda i: i.result, r"integ\(f, nitn"),
    (lambda: vf.Integrator(f, BOX), lambda i: i(lambda x: x[:, 0], nitn=2),
     r"another Integrator.*load_grid"),
    (lambda: vf.Integrator(f, BOX), lambda i: i(f, alpha=0.1),
     r"alpha= when making the Integrator"),
    (lambda: vf.Integrator(f, BOX), lambda i: i(f, adapt=False),
     r"integ\.freeze\(\)"),
    (lambda: vf.Integrator(f, BOX), lambda i: i(f, 3, nitn=2),
     r"given twice"),
    (lambda: vf.Integrator(f, BOX), lambda i: i(f, "10"),
     r"integrand comes first"),
    (lambda: vf.Integrator(f, BOX), lambda i: i(f, nitt=2),
     r"did you mean nitn="),
])
def test_misuse_of_a_call_names_the_fix(make, call, message):
    integ = make()
    with pytest.raises(TypeError, match=message):
        call(integ)


@pytest.mark.parametrize("args,kwargs,message", [
    ((), {}, r"needs an integrand or a domain"),
    ((BOX,), {"domain": BOX}, r"domain= is given too"),
    (("integrand g(x in [0,1]) = 1",), {}, r"vf\.compile"),
    ((f, BOX), {"max_nhcube": 10}, r"max_hcube="),
    ((f, BOX), {"nstrat": [4, 4]}, r"calls= and max_hcube="),
    ((f, BOX), {"neval": 10, "calls": 10}, r"given twice"),
    ((f, BOX), {"nitn": 2, "iterations": 2}, r"given twice"),
])
def test_misuse_of_the_constructor_names_the_fix(args, kwargs, message):
    with pytest.raises(TypeError, match=message):
        vf.Integrator(*args, **kwargs)


def test_a_bad_domain_is_refused_at_construction():
    with pytest.raises(ValueError, match="option 'domain'"):
        vf.Integrator([[0, 1], [2, 2]])
