#===- tests/python/test_cpp.py - C and C++ integrands against .vf ones -----===#
#
# examples/cpp: the helicity-amplitude C++ (ee_ll.cpp, the whole integrand
# in C++, its twin ee_ll_std.cpp in std::complex, and ee_mumu_extern.vf,
# .vf kinematics calling C++) against the
# closed formulas in .vf (examples/physics/ee_mumu.vf, examples/cpp/
# drell_yan.vf): equal to 1e-12 relative at 500 points of the unit square,
# integrals within 5 sigma of each other and of the exact cross section
# (computed here from Ellis, Stirling and Webber's formula); C++ integrands
# bitwise the same result for any CPU thread count and schedule and with
# fake GPUs (vegasc-emu on tests/fakecuda, which runs the GPU kernel's host
# build behind the PTX compiled from the C++; std-headers.cpp, which uses
# every standard header vegasflow provides, std::complex arithmetic among
# them). The same for C11
# (tests/testdata/c: ee_mumu.c, the formula in C, and ee_mumu_c.vf calling
# it).
#
#===------------------------------------------------------------------------===#
import json
import math
import os
import subprocess

import numpy as np
import pytest

import vegasflow as vf

from conftest import SOURCE_DIR

CPP = SOURCE_DIR / "examples" / "cpp"
C = SOURCE_DIR / "tests" / "testdata" / "c"
PHYSICS = SOURCE_DIR / "examples" / "physics"


@pytest.fixture(scope="module")
def modules():
    try:
        vf.compile(CPP / "ee_ll.cpp")
    except vf.CompileError as e:
        if "built without C and C++ integrands" in str(e):
            pytest.skip("vegasflow built with -DVF_CLANG_INTEGRANDS=OFF")
        raise
    return {"cpp": vf.compile(CPP / "ee_ll.cpp"),
            "extern": vf.compile(CPP / "ee_mumu_extern.vf"),
            "std": vf.compile(CPP / "ee_ll_std.cpp"),
            "formula": vf.compile(PHYSICS / "ee_mumu.vf"),
            "dy": vf.compile(CPP / "drell_yan.vf"),
            "c": vf.compile(C / "ee_mumu.c"),
            "c_extern": vf.compile(C / "ee_mumu_c.vf")}


def points(n=500):
    # Away from the poles c = +-1 only by what the generator draws.
    return np.random.default_rng(20).random((n, 2))


def assert_close(got, want):
    got, want = np.asarray(got), np.asarray(want)
    scale = np.maximum(np.abs(want), 1e-300)
    worst = np.max(np.abs(got - want) / scale)
    assert worst <= 1e-12, f"relative difference {worst:.3g}"


def test_sigma_three_ways_agree_pointwise(modules):
    x = points()
    want = modules["formula"]["sigma"](x)
    assert np.all(want > 0)
    assert_close(modules["cpp"]["sigma"](x), want)
    assert_close(modules["cpp"]["sigma_spinors"](x), want)
    assert_close(modules["extern"]["sigma"](x), want)


# ee_ll_std.cpp: the spinor amplitudes in std::complex (vegasflow's
# <complex>) against ee_ll.cpp's hand-written complex type, on and off the
# Z peak.
def test_std_complex_twin_agrees_pointwise(modules):
    x = points()
    for rs in (91.19, 10.0, 200.0):
        want = modules["cpp"]["sigma_spinors"](x, rs=rs)
        assert_close(modules["std"]["sigma"](x, rs=rs), want)
        assert_close(modules["std"]["sigma"](x, rs=rs),
                     modules["formula"]["sigma"](x, rs=rs))


# std-headers.cpp's complex arithmetic (products, Smith's quotients, exp,
# sqrt, abs, norm, arg, pow) against numpy's at 500 points.
def test_std_complex_against_numpy():
    module = vf.compile(SOURCE_DIR / "tests" / "lit" / "clang" / "Inputs" /
                        "std-headers.cpp")
    x = points()
    m, w = 0.5, 0.1
    z = (x[:, 0] - 0.3) + 1j * (x[:, 1] + 0.2)
    p = 1 / ((x[:, 0] - m * m) + 1j * m * w)
    q = (z * p) / (z + (1.5 - 0.25j))
    e = np.exp(2j * np.pi * x[:, 1]) * np.sqrt(z)
    parts = np.sort(np.stack([np.abs(q), np.abs(e) ** 2, np.abs(x[:, 0]),
                              np.angle(e)]), axis=0)
    largest = np.argmax(parts, axis=0)
    want0 = np.clip(parts.sum(axis=0), 0, None) + np.maximum.reduce(
        [q.real, q.imag, e.real]) + largest
    want1 = q.real * q.imag + (z ** 3).imag
    got = np.asarray(module["amp"](x))
    assert_close(got[:, 0], want0)
    np.testing.assert_allclose(got[:, 1], want1, rtol=1e-12, atol=1e-14)


def test_sigma_agrees_off_the_peak(modules):
    x = points(200)
    for rs in (10.0, 60.0, 200.0):
        want = modules["formula"]["sigma"](x, rs=rs)
        for way in ("cpp", "extern", "c", "c_extern"):
            assert_close(modules[way]["sigma"](x, rs=rs), want)


def test_c_sigma_agrees_pointwise(modules):
    x = points()
    want = modules["formula"]["sigma"](x)
    assert_close(modules["c"]["sigma"](x), want)
    assert_close(modules["c_extern"]["sigma"](x), want)


def test_bins_agree_pointwise(modules):
    # The .vf formula now fills a histogram of cos(theta) instead (checked
    # bin by bin by integration.physics); the two C++ ways still agree.
    x = points()
    want = modules["cpp"]["bins"](x)
    assert want.shape == (500, 10)
    assert np.count_nonzero(want) > 400
    assert_close(modules["extern"]["bins"](x), want)


def test_drell_yan_agrees_with_its_formula(modules):
    x = points()
    for name in ("uubar_ll", "ddbar_ll"):
        want = modules["dy"][name](x)
        assert_close(modules["cpp"][name](x), want)


def exact_sigma(rs):
    alpha, gf, mz, gz, sw2 = 1 / 128, 1.1663787e-5, 91.1876, 2.4952, 0.2312
    s = rs * rs
    k = math.sqrt(2) * gf * mz**2 / (4 * math.pi * alpha)
    d = (s - mz**2)**2 + gz**2 * mz**2
    chi1, chi2 = k * s * (s - mz**2) / d, k**2 * s**2 / d
    v, a = -0.5 + 2 * sw2, -0.5
    a0 = 1 + 2 * v**2 * chi1 + (v**2 + a**2)**2 * chi2
    return 0.3893794e9 * 4 * math.pi * alpha**2 / (3 * s) * a0


def test_integrals_within_five_sigma(modules):
    exact = exact_sigma(91.19)
    results = {}
    for way in ("cpp", "extern", "c", "c_extern", "formula"):
        r = vf.Integrator(modules[way]["sigma"], calls=20000, warmup=1,
                          iterations=5, devices="cpu:2", seed=3)()
        assert abs(r.mean - exact) < 5 * r.sdev, (way, r.mean, r.sdev)
        results[way] = r
    # The same points and the same values to rounding: the same estimate.
    assert abs(results["cpp"].mean - results["formula"].mean) < \
        1e-9 * exact
    for way in ("extern", "c", "c_extern"):
        assert abs(results[way].mean - results["formula"].mean) < \
            1e-9 * exact, way


def run_json(vegasc, source, *args, env=None, integrand="sigma"):
    out = subprocess.run([vegasc, str(source), "--integrand", integrand,
                          "--calls", "20000", "--iterations", "4",
                          "--json", "-", "-q", *args],
                         capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout[out.stdout.index("{"):])
    res = doc["result"]
    return (res["mean"], res["error"],
            [(it["mean"], it["error"]) for it in doc["iterations"]])


# large.cpp is over the inlining limit: on the CPU one out-of-line function
# calling the math library, on a GPU all of it inlined.
@pytest.mark.parametrize("path, integrand", [
    (CPP / "ee_ll.cpp", "sigma"), (CPP / "ee_mumu_extern.vf", "sigma"),
    (CPP / "ee_ll_std.cpp", "sigma"),
    (C / "ee_mumu.c", "sigma"), (C / "ee_mumu_c.vf", "sigma"),
    (SOURCE_DIR / "tests" / "lit" / "clang" / "Inputs" / "large.cpp",
     "large"),
    (SOURCE_DIR / "tests" / "lit" / "clang" / "Inputs" / "std-headers.cpp",
     "amp")], ids=lambda p: getattr(p, "name", p))
def test_bitwise_across_threads_schedules_and_fake_gpus(vegasc, vegasc_emu,
                                                        modules, path,
                                                        integrand):
    assert_bitwise(vegasc, vegasc_emu, path, integrand, threads=2)


def assert_bitwise(vegasc, vegasc_emu, path, integrand, threads):
    """The same result on one CPU thread as on `threads` under three
    schedules and on fake GPUs, alone and beside a CPU thread."""
    def run(*args, env=None, exe=vegasc):
        return run_json(exe, path, *args, env=env, integrand=integrand)
    base = run("--devices", "cpu:1")
    many = f"cpu:{threads}"
    for args in (["--devices", many],
                 ["--devices", many, "--schedule", "static"],
                 ["--devices", many, "--schedule", "dynamic:3"]):
        assert run(*args) == base, args
    fake = os.path.join(os.environ["VF_BUILD_DIR"], "lib",
                        "libvf_fakecuda.so")
    env = dict(os.environ, VF_CUDA_LIBRARY=fake, VF_FAKE_CUDA_DEVICES="2")
    for devices in ("gpu", "gpu:0,cpu:1", "all"):
        assert run("--devices", devices, env=env, exe=vegasc_emu) == base, \
            devices
