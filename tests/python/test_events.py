#===- tests/python/test_events.py - Weighted and unweighted events ---------===#
import json
import math
import os
import subprocess

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


EE = """
integrand ee(x in [-1, 1] * [0, 2*pi]) = 3/(16*pi) * (1 + x[0]^2)
integrand ee_event(x in [-1, 1] * [0, 2*pi]) -> [12] {
    let s = sqrt(1 - x[0]^2)
    return [11, -1, 50, 0, 0, 50,   13, 1, 50, 50*s*cos(x[1]),
            50*s*sin(x[1]), 50*x[0]]
}
"""

# ee_event in the layout a shower reads: [idprup, scale, aqed, aqcd], then
# 13 numbers per particle (docs/user-guide.md, "Events for generators").
EE_SHOWER = EE + """
integrand ee_shower(x in [-1, 1] * [0, 2*pi]) -> [30] {
    let s = sqrt(1 - x[0]^2)
    return [7, 100, 1/128, 0.118,
            11, -1, 0, 0, 0, 0, 50, 0, 0, 50, 0, 0, 9,
            13, 1, 1, 0, 0, 0, 50, 50*s*cos(x[1]), 50*s*sin(x[1]), 50*x[0],
            0, 0, 9]
}
"""


def read_events(path):
    """vf_read_events' summary (HepMC3's own readers), or a skip."""
    reader = os.path.join(os.environ.get("VF_BUILD_DIR", ""), "bin",
                          "vf_read_events")
    if not os.path.exists(reader):
        pytest.skip("vf_read_events is not built (no HepMC3)")
    p = subprocess.run([reader, str(path)], capture_output=True, text=True,
                       timeout=120, check=True)
    return json.loads(p.stdout)


@pytest.fixture(scope="module")
def ee_module():
    return vf.compile(EE, name="ee.vf")


def test_write_events_lhe_and_hepmc3(ee_module, tmp_path):
    """ Integrator.write_events, EventFile """
    integ, r = trained(ee_module.ee)
    lhe = integ.write_events(tmp_path / "e.lhe", 500, wmax_events=5000)
    assert (lhe.format, lhe.written, lhe.weighted) == ("lhe", 500, False)
    assert 0.5 < lhe.efficiency <= 1 and lhe.wmax > 0
    got = read_events(tmp_path / "e.lhe")
    assert got["events"] == 500 and got["particles"] == 2
    assert got["idwtup"] == 3 and all(w >= 1 for w in got["weights"])
    assert abs(got["xsec"] - r.mean) <= 1e-13 * r.mean
    assert abs(got["xsec_error"] - r.sdev) <= 1e-13 * r.sdev
    hep = integ.write_events(str(tmp_path / "e.hepmc3"), 2000, weighted=True,
                             record=ee_module.ee_event, cross_section=2.5,
                             cross_section_error=0.5)
    assert (hep.format, hep.written, hep.efficiency) == ("hepmc3", 2000, None)
    got = read_events(tmp_path / "e.hepmc3")
    w = np.array(got["weights"])
    assert got["events"] == 2000 and abs(got["xsec"] - 2.5) < 1e-12
    assert within(w.mean(), w.std() / math.sqrt(len(w)), r.mean)
    assert abs(hep.sum_weights - w.sum()) <= 1e-9 * abs(w.sum())


def test_write_events_errors(ee_module, gauss, tmp_path):
    integ = vf.Integrator(ee_module.ee, **FAST)
    with pytest.raises(vf.Error, match="trained|run"):
        integ.write_events(tmp_path / "e.lhe", 10)
    integ, _ = trained(ee_module.ee)
    with pytest.raises(ValueError, match=r"must end in \.lhe"):
        integ.write_events(tmp_path / "e.txt", 10)
    with pytest.raises(ValueError, match="no event record 'nosuch'"):
        integ.write_events(tmp_path / "e.lhe", 10, record="nosuch")
    with pytest.raises(TypeError, match="option 'record'"):
        integ.write_events(tmp_path / "e.lhe", 10, record=3)
    with pytest.raises(vf.Error, match="dimensions"):
        integ.write_events(tmp_path / "e.lhe", 10, record=gauss)
    with pytest.raises(ValueError, match="option 'n'"):
        integ.write_events(tmp_path / "e.lhe", 1.5)
    with pytest.raises(vf.Error, match="cannot write"):
        integ.write_events(tmp_path / "no" / "dir" / "e.lhe", 10)
    assert list(tmp_path.iterdir()) == []
    # A Python integrand has no module to find NAME_event in.
    py = vf.Integrator(lambda x: x[:, 0], dim=2, **FAST)
    py()
    py.freeze()
    with pytest.raises(ValueError, match="no event record 'lambda_event'|"
                                         "no event record"):
        py.write_events(tmp_path / "e.lhe", 10)


def test_write_events_for_a_shower(tmp_path):
    """ Integrator.write_events(event_layout=, beams=, beam_energies=,
    pdf_id=) """
    m = vf.compile(EE_SHOWER, name="ee_shower.vf")
    integ, _ = trained(m.ee)
    integ.write_events(tmp_path / "s.lhe", 50, record="ee_shower",
                       event_layout="lhe", beams=(11, -11),
                       beam_energies="50, 50", pdf_id=0)
    got = read_events(tmp_path / "s.lhe")
    assert got["beams"] == [11, -11] and got["energies"] == [50, 50]
    assert got["processes"] == [7] and set(got["idprup"]) == {7}
    assert set(got["scales"]) == {100} and set(got["aqcd"]) == {0.118}
    assert got["mothers"] == [0, 0, 1, 0]
    with pytest.raises(ValueError, match="option 'beams' must be the two"):
        integ.write_events(tmp_path / "b.lhe", 5, beams="p,p",
                           beam_energies=(50, 50))
    with pytest.raises(ValueError, match="option 'beams' and option "
                                         "'beam_energies' go together"):
        integ.write_events(tmp_path / "b.lhe", 5, beams=(11, -11))
    with pytest.raises(ValueError, match=r"4 \+ 13 per particle \(17\)"):
        integ.write_events(tmp_path / "b.lhe", 5, event_layout="lhe")
    assert not (tmp_path / "b.lhe").exists()


LISTS = """
integrand f(x in [0, 1]^2) {
    let v = 1 + x[0] * x[1]
    weights scales(k in 0..7: v * (1 + k / 10))
    weights pdf(k in 1..4: v * (1 + k / 10))
    return v
}
integrand f_event(x in [0, 1]^2) -> [12] =
    [11, -1, 50, 0, 0, 50,  13, 1, 50, 50 * x[0], 0, 50 * sqrt(1 - x[0]^2)]
"""


def test_weight_lists_at_events(tmp_path):
    """ Events.weight_lists, write_events with weight lists """
    m = vf.compile(LISTS, name="lists.vf")
    integ, _ = trained(m.f)
    factors = {"scales": 1 + np.arange(7) / 10,
               "pdf": 1 + np.arange(1, 4) / 10}
    for ev in (integ.sample(3000), integ.unweight(500)):
        assert list(ev.weight_lists) == ["scales", "pdf"]
        for name, k in factors.items():
            np.testing.assert_allclose(
                ev.weight_lists[name], np.outer(ev.weights, k), rtol=1e-12)
    plain, _ = trained(vf.compile("integrand g(x in [0, 1]) = x").g)
    assert plain.sample(10).weight_lists == {}
    integ.write_events(tmp_path / "w.lhe", 200)
    got = read_events(tmp_path / "w.lhe")
    assert got["rwgt_ids"] == ([f"scales_{k}" for k in range(7)] +
                               [f"pdf_{k}" for k in range(1, 4)])
    np.testing.assert_allclose(
        got["rwgt"], np.outer(got["weights"], np.concatenate(
            [factors["scales"], factors["pdf"]])), rtol=1e-12)
