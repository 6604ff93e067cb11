#===- tests/python/test_cli.py - The same bits as vegasc -------------------===#
#
# For the same file, seed and settings, vegasflow.Integrator's result is
# vegasc's JSON result bit for bit (the JSON writes shortest round-trip
# doubles), iteration by iteration, for scalar and vector integrands, and
# Result.to_json() writes the same result and iterations.
#
#===------------------------------------------------------------------------===#
import json
import subprocess

import pytest

import vegasflow as vf
from conftest import LEPAGE, MOMENTS

RUNS = [
    ("lepage", dict(seed=7, calls=30000, iterations=4, warmup=2,
                    devices="cpu:2"), {}),
    ("lepage", dict(seed=3, calls=20000, iterations=3, warmup=0,
                    devices="cpu:1", alpha=1.5, beta=0.0), {"a": 0.2}),
    ("moments", dict(seed=5, calls=10000, iterations=3, warmup=1,
                     devices="cpu:2", schedule="static"), {"b": 3.0}),
]


def vegasc_json(vegasc, path, opts, params):
    args = [vegasc, str(path), "-q", "--json", "-"]
    for k, v in opts.items():
        args += [f"--{k}", str(v)]
    for k, v in params.items():
        args += ["--param", f"{k}={v}"]
    out = subprocess.run(args, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize("name,opts,params", RUNS)
def test_bitwise_equal_to_vegasc(vegasc, tmp_path, name, opts, params):
    path = LEPAGE
    if name == "moments":
        path = tmp_path / "moments.vf"
        path.write_text(MOMENTS)
    cli = vegasc_json(vegasc, path, opts, params)
    integ = vf.Integrator(vf.compile(path)[name], params=params, **opts)
    r = integ()
    scalar = r.outputs == 1
    want = cli["result"]
    assert (r.mean if scalar else list(r.mean)) == want["mean"]
    assert (r.sdev if scalar else list(r.sdev)) == want["error"]
    assert (r.chi2_dof, r.Q) == (want["chi2_dof"], want["Q"])
    assert r.evaluations == want["evaluations"]
    if not scalar:
        assert r.covariance.tolist() == want["covariance"]
    assert len(r.iterations) == len(cli["iterations"])
    for row, c in zip(r.iterations, cli["iterations"]):
        assert (row.index, row.warmup, row.samples) == (c["index"],
                                                        c["warmup"],
                                                        c["samples"])
        assert (row.mean if scalar else list(row.mean)) == c["mean"]
        assert (row.sdev if scalar else list(row.sdev)) == c["error"]
    mine = json.loads(r.to_json())
    assert mine["result"]["mean"] == want["mean"]
    assert [i["mean"] for i in mine["iterations"]] == \
        [i["mean"] for i in cli["iterations"]]
    assert mine["settings"]["seed"] == cli["settings"]["seed"]


def test_python_checkpoint_resumes_in_vegasc(vegasc, tmp_path):
    """ a run stopped in Python is finished by vegasc --resume, bitwise """
    opts = dict(seed=4, calls=50000, iterations=30, warmup=1,
                devices="cpu:2")
    ck = tmp_path / "py.ckpt"

    def stop(p):
        raise InterruptedError
    integ = vf.Integrator(vf.compile(LEPAGE).lepage, checkpoint=ck,
                          progress=stop, **opts)
    with pytest.raises(InterruptedError):
        integ()
    assert 1 <= integ.plan["done"] < 31
    args = [vegasc, str(LEPAGE), "-q", "--json", "-", "--resume", str(ck)]
    for k, v in opts.items():
        args += [f"--{k}", str(v)]
    out = subprocess.run(args, capture_output=True, text=True, check=True)
    full = vegasc_json(vegasc, LEPAGE, opts, {})
    assert json.loads(out.stdout)["result"] == dict(
        full["result"], wall_s=json.loads(out.stdout)["result"]["wall_s"])


def test_vegasc_checkpoint_loads_in_python(vegasc, tmp_path):
    """ load_state of vegasc's checkpoint gives vegasc's result """
    opts = dict(seed=2, calls=20000, iterations=3, warmup=1, devices="cpu:2")
    ck = tmp_path / "cli.ckpt"
    args = [vegasc, str(LEPAGE), "-q", "--json", "-", "--checkpoint", str(ck)]
    for k, v in opts.items():
        args += [f"--{k}", str(v)]
    cli = json.loads(subprocess.run(args, capture_output=True, text=True,
                                    check=True).stdout)
    integ = vf.Integrator(vf.compile(LEPAGE).lepage, **opts)
    integ.load_state(ck)
    assert integ.plan["done"] == 4
    assert integ.result.mean == cli["result"]["mean"]
    assert integ.result.sdev == cli["result"]["error"]
