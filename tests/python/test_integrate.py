#===- tests/python/test_integrate.py - Integrator on compiled integrands ---===#
#
# Options (each bad value a ValueError or TypeError naming the option),
# accuracy within 5 sigma of exact values, the Result's attributes and
# printing, parameter scans, freezing, grids, states and checkpoints,
# progress displays. Fixed seeds throughout.
#
#===------------------------------------------------------------------------===#
import json
import math
import sys
import types
import warnings

import numpy as np
import pytest

import vegasflow as vf
from conftest import within

FAST = dict(calls=20000, iterations=4, warmup=2, devices="cpu:2")
EXACT4 = math.erf(5) ** 4  # gauss with a = 0.1


@pytest.mark.parametrize("option,value,kind", [
    ("calls", 1, ValueError), ("calls", 2.5, ValueError),
    ("calls", "many", TypeError), ("iterations", 0, ValueError),
    ("warmup", -1, ValueError), ("seed", -1, ValueError),
    ("seed", 2**64, ValueError), ("alpha", -0.5, ValueError),
    ("alpha", float("nan"), ValueError), ("beta", 1.5, ValueError),
    ("beta", None, TypeError), ("ninc", 1, ValueError),
    ("max_hcube", 0, ValueError), ("schedule", "fastest", ValueError),
    ("schedule", 3, TypeError), ("on_nonfinite", "ignore", ValueError),
    ("devices", "cpu:0", ValueError), ("devices", "tpu", ValueError),
    ("devices", "cpu,cpu:2", ValueError), ("devices", "gpu:x", ValueError),
    ("devices", "sim:-1", ValueError), ("devices", 4, TypeError),
    ("dim", 3, ValueError), ("domain", [(0, 1)], ValueError),
    ("progress", "yes", TypeError), ("precision", "f16", ValueError),
    ("precision", 32, ValueError),
])
def test_bad_option_names_the_option(gauss, option, value, kind):
    """ Integrator(..., option=bad) """
    with pytest.raises(kind, match=f"option '{option}'|progress"):
        integ = vf.Integrator(gauss, **{option: value})
        integ.run(iterations=1, calls=100)


def test_single_precision(gauss):
    """ Integrator(..., precision='f32') """
    opts = dict(calls=20000, iterations=4, warmup=2, seed=2)
    one, two = (vf.Integrator(gauss, precision="f32", devices=d, **opts).run()
                for d in ("cpu:1", "cpu:2"))
    assert one.precision == two.precision == "f32"
    assert (one.mean, one.sdev) == (two.mean, two.sdev)  # bitwise
    dbl = vf.Integrator(gauss, devices="cpu:2", **opts).run()
    assert dbl.precision == "f64" and dbl.mean != one.mean
    assert within(one.mean, one.sdev, EXACT4)
    # The floor is single precision's, sqrt(d + 2) 2^-23 |I| (d = 4).
    assert one.roundoff_floor == pytest.approx(
        math.sqrt(6) * 2**-23 * abs(one.mean), rel=1e-12)
    with pytest.warns(RuntimeWarning, match="rtol 1e-09 is below what "
                      "single precision can deliver"):
        integ = vf.Integrator(gauss, precision="f32", rtol=1e-9, **opts)
    assert any("single precision" in n for n in integ.notes)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an rtol it can reach: no warning
        vf.Integrator(gauss, precision="f32", rtol=1e-3, **opts)
    assert "precision" in integ.settings()


def test_single_precision_needs_compiled_code():
    """ a Python callable has no single-precision code """
    with pytest.raises(ValueError, match="single-precision.*'precision'"):
        vf.Integrator(lambda x: x[:, 0], dim=1, precision="f32")


def test_bad_run_arguments_and_params(gauss):
    integ = vf.Integrator(gauss, **FAST)
    with pytest.raises(ValueError, match="option 'iterations'"):
        integ.run(iterations=0)
    with pytest.raises(ValueError, match="option 'calls'"):
        integ(neval=1)
    with pytest.raises(ValueError, match="option 'params'.*'b'"):
        integ.set_param("b", 1)
    with pytest.raises(ValueError, match="option 'a'"):
        integ.set_param("a", float("inf"))
    with pytest.raises(ValueError, match="option 'params'"):
        vf.Integrator(gauss, params={"z": 1})
    with pytest.raises(TypeError, match="Integrand"):
        vf.Integrator("gauss.vf")


def test_gpu_required_without_gpu_is_an_error(gauss):
    if vf.devices()["gpus"]:
        pytest.skip("this machine has a GPU")
    with pytest.raises(vf.Error, match="no GPU"):
        vf.Integrator(gauss, devices="gpu")
    integ = vf.Integrator(gauss, devices="all")
    assert any("no GPU" in n for n in integ.notes)


def test_scalar_result_within_5_sigma(gauss):
    """ Integrator.__call__, Result """
    integ = vf.Integrator(gauss, calls=50000, iterations=5, warmup=3,
                          seed=3, devices="cpu:2")
    r = integ()
    assert isinstance(r.mean, float) and isinstance(r.sdev, float)
    assert within(r.mean, r.sdev, EXACT4)
    assert r.nitn == 5 and len(r.iterations) == 8
    assert [row.warmup for row in r.iterations] == [True] * 3 + [False] * 5
    assert r.dof == 4 and r.chi2 == pytest.approx(r.chi2_dof * 4)
    assert 0 <= r.Q <= 1
    assert r.covariance.shape == (1, 1)
    assert r.covariance[0, 0] == pytest.approx(r.sdev ** 2, rel=1e-12)
    assert r.itn_mean.shape == (5,) and r.itn_sdev.shape == (5,)
    assert r.itn_mean[-1] == r.iterations[-1].mean
    last = r.iterations[-1]
    assert (last.cum_mean, last.cum_sdev) == (r.mean, r.sdev)
    assert math.isnan(r.iterations[0].cum_mean)
    assert r.evaluations == sum(row.samples for row in r.iterations)
    assert r.wall_s > 0 and r.evaluations > 0
    assert [d.name for d in r.devices] == ["cpu:0", "cpu:1"]
    assert sum(d.samples for d in r.devices) == r.evaluations
    assert all(0 <= d.imbalance <= 1 and d.error == "" for d in r.devices)
    assert len(last.devices) == 2
    assert integ.result.mean == r.mean


def test_vector_result_and_covariance(moments):
    """ vector integrand: arrays and covariance """
    r = vf.Integrator(moments, seed=5, **FAST)()
    assert r.mean.shape == (3,) and r.sdev.shape == (3,)
    for c, exact in enumerate([2, 2, 8 / 3]):
        assert within(r.mean[c], r.sdev[c], exact)
    assert r.covariance.shape == (3, 3)
    np.testing.assert_allclose(np.sqrt(np.diag(r.covariance)), r.sdev,
                               rtol=1e-12)
    np.testing.assert_array_equal(r.covariance, r.covariance.T)
    assert r.itn_mean.shape == (4, 3) and r.dof == 3 * 3
    assert str(r).startswith("[") and str(r).count("(") == 3
    assert "3[2]" in r.summary() and "1w[2]" in r.summary()


def test_str_summary_and_html(gauss):
    """ str(result), summary(), _repr_html_ """
    r = vf.Integrator(gauss, **FAST)()
    s = str(r)
    digits = s[s.index("(") + 1:s.index(")")]
    decimals = len(s[:s.index("(")].split(".")[1])
    assert abs(float(s[:s.index("(")]) - r.mean) <= 0.5 * 10 ** -decimals
    assert abs(int(digits) * 10 ** -decimals - r.sdev) <= r.sdev * 0.1
    lines = r.summary().splitlines()
    assert lines[0].split() == ["itn", "integral", "wgt", "average",
                                "chi2/dof", "Q"]
    assert len(lines) == 2 + 6 and lines[2].split()[0] == "1w"
    assert lines[-1].split()[2] == s
    html = vf._format.summary_html(r)
    assert html.startswith("<table>") and html.count("<tr>") == 7
    assert s in html and "gauss" in repr(r)
    assert "id='iterations-0'" in r._repr_html_()  # test_report.py


def test_same_seed_same_bits_any_devices(gauss):
    """ bitwise reproducibility across thread counts and schedules """
    a = vf.Integrator(gauss, seed=9, **FAST)()
    b = vf.Integrator(gauss, seed=9, **dict(FAST, devices="cpu:1"),
                      schedule="static")()
    c = vf.Integrator(gauss, seed=10, **FAST)()
    assert (a.mean, a.sdev, a.chi2_dof) == (b.mean, b.sdev, b.chi2_dof)
    assert a.mean != c.mean


def test_parameter_scan_without_recompiling(moments):
    """ set_param in a loop; params """
    integ = vf.Integrator(moments, seed=2, **FAST)
    for b in (1.0, 2.0, 3.0):
        integ = vf.Integrator(moments, seed=2, params={"b": b}, **FAST)
        assert integ.params == {"b": b}
        r = integ()
        assert within(r.mean[2], r.sdev[2], b ** 3 / 3)
    integ.set_param("b", 1.5)
    assert integ.params == {"b": 1.5}
    r = integ.run(iterations=3)  # adds to the statistics of b = 3: Q drops
    last = r.iterations[-1]
    assert within(last.mean[1], last.sdev[1], 1.5 ** 2 / 2)


def test_aliases_and_run_arguments(gauss):
    """ integ(nitn=, neval=), run(iterations, calls, warmup) """
    integ = vf.Integrator(gauss, **FAST)
    r = integ(nitn=2, neval=5000, warmup=0)
    assert r.nitn == 2 and len(r.iterations) == 2
    assert r.iterations[0].samples < 6000
    r = integ.run(1, 5000, 1)
    assert r.nitn == 3 and len(r.iterations) == 4
    assert integ.plan == dict(iterations=1, calls=5000, warmup=1, done=2)


def test_freeze_keeps_the_map(gauss, tmp_path):
    """ freeze, frozen, save_grid, load_grid """
    integ = vf.Integrator(gauss, seed=4, **FAST)
    with pytest.raises(vf.Error, match="no iteration"):
        integ.save_grid(tmp_path / "g")
    integ()
    assert not integ.frozen
    integ.freeze()
    assert integ.frozen
    integ.save_grid(tmp_path / "a.grid")
    integ.run(iterations=2)
    integ.save_grid(tmp_path / "b.grid")
    assert (tmp_path / "a.grid").read_bytes() == (tmp_path / "b.grid").read_bytes()
    trained = vf.Integrator(gauss, seed=5, **dict(FAST, warmup=0))
    trained.load_grid(tmp_path / "a.grid")
    fresh = vf.Integrator(gauss, seed=5, **dict(FAST, warmup=0))
    assert trained().iterations[0].sdev < fresh().iterations[0].sdev
    with pytest.raises(vf.Error, match="b.grid|grid"):
        vf.Integrator(vf.compile("integrand f(x in [0, 1]) = x[0]").f
                      ).load_grid(tmp_path / "b.grid")


def test_state_and_checkpoint_resume_bitwise(gauss, tmp_path):
    """ save_state, load_state, checkpoint, resume """
    ck = tmp_path / "run.ckpt"
    full = vf.Integrator(gauss, seed=6, **FAST)()
    first = vf.Integrator(gauss, seed=6, checkpoint=ck, **FAST)
    first.run(iterations=4)
    # A state saved midway: rerun 3 iterations of the plan and save.
    part = vf.Integrator(gauss, seed=6, **FAST)
    part.save_state(tmp_path / "empty.state")
    resumed = vf.Integrator(gauss, seed=6, **FAST)
    resumed.load_state(ck)
    assert resumed.plan["done"] == 6
    assert resumed.result.mean == full.mean
    again = vf.Integrator(gauss, seed=7, **FAST)
    with pytest.raises(vf.Error, match="seed"):
        again.load_state(ck)
    with pytest.raises(vf.Error, match="nope"):
        again.load_state(tmp_path / "nope")
    with pytest.raises(vf.Error):
        vf.Integrator(gauss, checkpoint=tmp_path / "no" / "dir" / "x.ckpt")
    first.checkpoint(None)


def test_progress_callback_and_tqdm(gauss, monkeypatch, capsys):
    """ progress=callable, progress=True (tqdm or text) """
    seen = []
    integ = vf.Integrator(gauss, progress=seen.append,
                          **dict(FAST, calls=200000))
    integ()
    assert all(isinstance(p, vf.Progress) for p in seen)
    assert seen[-1].done == seen[-1].total == 6 and seen[-1].fraction == 1
    assert [p.done for p in seen] == sorted(p.done for p in seen)
    bars = []

    class FakeTqdm:
        def __init__(self, total, unit):
            bars.append(self)
            self.total, self.n, self.closed = total, 0, False

        def set_postfix_str(self, s, refresh):
            self.postfix = s

        def refresh(self):
            pass

        def close(self):
            self.closed = True
    fake = types.ModuleType("tqdm.auto")
    fake.tqdm = FakeTqdm
    monkeypatch.setitem(sys.modules, "tqdm", types.ModuleType("tqdm"))
    monkeypatch.setitem(sys.modules, "tqdm.auto", fake)
    integ.run(progress=True)
    assert len(bars) == 1 and bars[0].total == 6 and bars[0].closed
    assert bars[0].n == 6
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # not installed
    integ.run(progress=True)
    assert "itn" in capsys.readouterr().err


def test_progress_callback_error_stops_the_run(gauss):
    def boom(p):
        raise RuntimeError("callback failed")
    opts = dict(FAST, iterations=30, calls=50000)
    integ = vf.Integrator(gauss, progress=boom, **opts)
    with pytest.raises(RuntimeError, match="callback failed"):
        integ()
    # Stopped at an iteration boundary, resumable: the same run() finishes
    # it with the uninterrupted result, bit for bit.
    assert 1 <= integ.plan["done"] < 32
    r = integ.run(progress=False)
    full = vf.Integrator(gauss, **opts)()
    assert (r.mean, r.sdev, r.nitn) == (full.mean, full.sdev, 30)


def test_nonfinite_stop_and_zero():
    """ on_nonfinite """
    bad = vf.compile("integrand f(x in [0, 1]) = 1 / (x[0] - x[0])").f
    with pytest.raises(vf.Error, match="at x ="):
        vf.Integrator(bad, **FAST)()
    r = vf.Integrator(bad, on_nonfinite="zero", **FAST)()
    assert r.mean == 0 and r.iterations[0].nonfinite == r.iterations[0].samples


def test_json_matches_the_result(gauss):
    """ Result.to_json """
    r = vf.Integrator(gauss, seed=8, **FAST)()
    d = json.loads(r.to_json())
    assert d["integrand"] == "gauss" and d["result"]["mean"] == r.mean
    assert d["settings"]["seed"] == 8 and d["settings"]["calls"] == 20000
    assert len(d["iterations"]) == 6
    assert len(r.to_json(indent=None).splitlines()) == 1


def test_module_level_names():
    """ devices(), __version__ """
    d = vf.devices()
    assert d["cpu_threads"] >= 1
    assert d["gpus"] or d["no_gpu_reason"]
    assert vf.__version__.count(".") == 2


HIST = """
integrand ee(x in [-1, 1] * [0, 1]) {
    let c = x[0]
    hist costheta(c, -0.5, 0.5, 4)
    hist plane(c, -1, 1, 2, x[1], 0, 0.5, 3)
    return 3/8 * (1 + c^2) * 2 * x[1]
}
"""


def test_histograms_are_numpy_arrays():
    """ result.histograms[name]: edges, mean, sdev, flows """
    integ = vf.Integrator(vf.compile(HIST, name="hist.vf").ee, **FAST)
    r = integ.run()
    assert list(r.histograms) == ["costheta", "plane"]
    h = r.histograms["costheta"]
    assert isinstance(h, vf.Histogram)
    np.testing.assert_array_equal(h.edges[0], [-0.5, -0.25, 0, 0.25, 0.5])
    assert h.edges[0].tobytes() == np.array(json.loads(r.to_json())[
        "histograms"][0]["axes"][0]["edges"]).tobytes()
    assert h.mean.shape == h.sdev.shape == (4,) and h.outside is None
    exact = lambda a, b: 3 / 8 * ((b - a) + (b**3 - a**3) / 3)
    cells = list(zip(h.mean, h.sdev)) + [h.underflow, h.overflow]
    want = [exact(-0.5 + 0.25 * k, -0.25 + 0.25 * k) for k in range(4)] + \
        [exact(-1, -0.5), exact(0.5, 1)]
    for (m, e), w in zip(cells, want):
        assert within(m, e, w)
    total = h.mean.sum() + h.underflow[0] + h.overflow[0]
    assert total == pytest.approx(r.mean, rel=1e-13)
    p = r.histograms["plane"]
    assert p.mean.shape == (2, 3) and p.underflow is None
    assert len(p.edges) == 2 and len(p.edges[1]) == 4
    assert p.mean.sum() + p.outside[0] == pytest.approx(r.mean, rel=1e-13)

def test_no_histograms_is_an_empty_dict(gauss):
    assert vf.Integrator(gauss, **FAST).run().histograms == {}
    assert vf.Integrator(gauss, **FAST).run().weight_lists == {}


WEIGHTS = """
integrand f(x in [0, 1]^2) {
    let f = x[0] * x[1] + 1
    weights w(k in 0..3: f * (1 + k / 10))
    return f
}
"""


def test_weight_lists_are_numpy_arrays():
    """ result.weight_lists[name]: mean, sdev, envelope, ratio and
    ratio_sdev, as in the JSON """
    r = vf.Integrator(vf.compile(WEIGHTS, name="w.vf").f, **FAST).run()
    w = r.weight_lists["w"]
    assert isinstance(w, vf.WeightList) and w.mean.shape == (3,)
    np.testing.assert_allclose(w.mean, r.mean * np.array([1, 1.1, 1.2]),
                               rtol=1e-12)
    assert w.envelope == (w.mean.min(), w.mean.max())
    # Not over a PDF set's members: the band is the envelope.
    assert w.band == "envelope"
    assert w.band_range == (float(r.mean), *w.envelope)
    listed = json.loads(r.to_json())["weight_lists"][0]
    assert [e["error"] for e in listed["entries"]] == list(w.sdev)
    np.testing.assert_allclose(w.ratio, [1, 1.1, 1.2], rtol=1e-12)
    assert w.ratio_sdev.shape == (3,) and np.all(w.ratio_sdev < 1e-10)
    assert listed["ratios"] == list(w.ratio)
    assert listed["ratio_errors"] == list(w.ratio_sdev)


def test_histograms_resume_bitwise(tmp_path):
    """ a state saved midway, loaded and extended, ends with the histograms
    of the uninterrupted run, bit for bit """
    ee = vf.compile(HIST, name="hist.vf").ee
    a = vf.Integrator(ee, seed=3, **FAST).run(iterations=4)
    half = vf.Integrator(ee, seed=3, **FAST)
    half.run(iterations=2)
    half.save_state(tmp_path / "mid.state")
    resumed = vf.Integrator(ee, seed=3, **FAST)
    resumed.load_state(tmp_path / "mid.state")
    assert resumed.result.histograms["costheta"].underflow == \
        vf.Integrator(ee, seed=3, **FAST).run(iterations=2) \
        .histograms["costheta"].underflow
    b = resumed.run(iterations=4)
    for name in ("costheta", "plane"):
        ha, hb = a.histograms[name], b.histograms[name]
        assert ha.mean.tobytes() == hb.mean.tobytes()
        assert ha.sdev.tobytes() == hb.sdev.tobytes()
        assert (ha.underflow, ha.overflow, ha.outside) == \
            (hb.underflow, hb.overflow, hb.outside)
        np.testing.assert_array_equal(ha.edges[0], hb.edges[0])
