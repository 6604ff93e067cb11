#===- tests/python/test_cpp_stdlib.py - C++ with the system's library -----===#
#
# tests/lit/clang/std-library.cpp includes <map>, <string> and <vector>,
# which need the C++ run-time library: it runs on the CPU only, compiled
# with the system's libstdc++ and linked against the process's (here
# Python's, through the library). Its values at 500 points are those of
# its .vf twin, 1 + 2 x + 3 pow(y, 2), bit for bit; its integral is 3
# within 5 sigma, the same bits on 1 and 3 CPU threads, through the
# library and through vegasc alike, and with fake GPUs present
# (tests/fakecuda), which --devices all leaves out and --devices gpu
# cannot use.
#
#===------------------------------------------------------------------------===#
import json
import os
import subprocess

import numpy as np
import pytest

import vegasflow as vf

from conftest import SOURCE_DIR

SOURCE = SOURCE_DIR / "tests" / "lit" / "clang" / "std-library.cpp"


@pytest.fixture(scope="module")
def module():
    try:
        return vf.compile(SOURCE)
    except vf.CompileError as e:
        if "built without C and C++ integrands" in str(e):
            pytest.skip("vegasflow built with -DVF_CLANG_INTEGRANDS=OFF")
        raise


def test_warns_cpu_only_at_each_include(module):
    for header in ("map", "string", "vector"):
        assert (f"warning: cannot run on a GPU: <{header}> needs the C++ "
                "run-time library") in module.warnings
    assert "this file runs on the CPU only" in module.warnings


# pow is the math library's, as in a .vf file (libm's, correctly rounded,
# differs from it in the last bit at a few of these points).
def test_values_exact_at_points(module):
    twin = vf.compile("integrand poly(x in [0, 1]^2) = "
                      "1 + 2 * x[0] + 3 * pow(x[1], 2)")
    x = np.random.default_rng(38).random((500, 2))
    got = np.asarray(module["poly"](x)).reshape(-1)
    assert np.array_equal(got, np.asarray(twin["poly"](x)).reshape(-1))
    want = 1 + 2 * x[:, 0] + 3 * (x[:, 1] * x[:, 1])
    np.testing.assert_allclose(got, want, rtol=1e-15)


def test_integral_within_five_sigma_and_bitwise_on_threads(module):
    results = [vf.Integrator(module["poly"], calls=20000, warmup=2,
                             iterations=5, devices=f"cpu:{n}", seed=5)()
               for n in (1, 3)]
    r = results[0]
    assert abs(r.mean - 3) < 5 * r.sdev, (r.mean, r.sdev)
    assert (results[1].mean, results[1].sdev) == (r.mean, r.sdev)


def run_vegasc(vegasc, devices, env=None):
    return subprocess.run([vegasc, str(SOURCE), "--integrand", "poly",
                           "--calls", "20000", "--iterations", "4",
                           "--devices", devices, "--json", "-", "-q", "-w"],
                          capture_output=True, text=True, env=env)


def vegasc_result(vegasc, devices, env=None):
    out = run_vegasc(vegasc, devices, env)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout[out.stdout.index("{"):])
    return doc["result"]["mean"], doc["result"]["error"], [
        (it["mean"], it["error"]) for it in doc["iterations"]]


def test_vegasc_bitwise_on_threads(vegasc):
    one = vegasc_result(vegasc, "cpu:1")
    assert abs(one[0] - 3) < 5 * one[1]
    assert vegasc_result(vegasc, "cpu:3") == one


# With (fake) GPUs present, --devices all runs on the CPU threads, the same
# bits; --devices gpu refuses the file, naming the header.
def test_fake_gpus_all_runs_on_cpu_and_gpu_refuses(vegasc, vegasc_emu):
    fake = os.path.join(os.environ["VF_BUILD_DIR"], "lib",
                        "libvf_fakecuda.so")
    env = dict(os.environ, VF_CUDA_LIBRARY=fake, VF_FAKE_CUDA_DEVICES="2")
    assert vegasc_result(vegasc_emu, "all", env) == \
        vegasc_result(vegasc, "cpu:1")
    out = run_vegasc(vegasc_emu, "gpu", env)
    assert out.returncode == 1
    assert ('"<map> needs the C++ run-time library (it allocates memory), '
            'which a GPU does not have') in out.stderr
