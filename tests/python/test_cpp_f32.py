#===- tests/python/test_cpp_f32.py - C and C++ integrands in single precision ===#
#
# --precision f32 with C/C++ code written in vf_real (vf/integrand.h): a
# whole integrand in C++ (VF_INTEGRAND: f32-poly.cpp, arithmetic only, and
# f32-gauss.cpp, which calls exp and sqrt) and a .vf integrand
# calling C++ (f32-extern.vf), each within 5 sigma of its exact integral,
# bitwise the same on one and two CPU threads and on fake GPUs
# (vegasc-emu, as test_cpp.py), and not the double run's result (the C++
# ran in float), through vegasc and the Python Integrator. A file with
# double arithmetic is refused in f32 through Python too, naming its line;
# it runs in f64. The IR is checked by
# tests/lit/clang/single-precision.test.
#
#===------------------------------------------------------------------------===#
import json
import math
import os
import subprocess

import pytest

import vegasflow as vf

from conftest import SOURCE_DIR

INPUTS = SOURCE_DIR / "tests" / "lit" / "clang" / "Inputs"

# (file, integrand, exact values)
CASES = [(INPUTS / "f32-poly.cpp", "poly", [7 / 4]),
         (INPUTS / "f32-gauss.cpp", "gauss2", [math.erf(5) ** 2]),
         # [1.5 x y + x^3, x + 2 y] with s = 1.5
         (INPUTS / "f32-extern.vf", "f", [1.5 / 4 + 1 / 4, 1.5])]


@pytest.fixture(scope="module", autouse=True)
def clang_built():
    try:
        vf.compile(INPUTS / "f32-poly.cpp")
    except vf.CompileError as e:
        if "built without C and C++ integrands" in str(e):
            pytest.skip("vegasflow built with -DVF_CLANG_INTEGRANDS=OFF")
        raise


def run(exe, path, integrand, *args, env=None):
    out = subprocess.run([exe, str(path), "--integrand", integrand,
                          "--calls", "20000", "--iterations", "4",
                          "--seed", "7", "--json", "-", "-q", *args],
                         capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout[out.stdout.index("{"):])["result"]


def as_list(v):
    return v if isinstance(v, list) else [v]


def fingerprint(res):
    return (res["mean"], res["error"])


@pytest.mark.parametrize("path, integrand, exact", CASES,
                         ids=lambda p: getattr(p, "name", None))
def test_f32_accurate_bitwise_and_not_f64(vegasc, vegasc_emu, path,
                                          integrand, exact):
    one = run(vegasc, path, integrand, "--precision", "f32",
              "--devices", "cpu:1")
    assert one["precision"] == "f32"
    for m, e, x in zip(as_list(one["mean"]), as_list(one["error"]), exact):
        assert abs(m - x) < 5 * e, (m, e, x)
    two = run(vegasc, path, integrand, "--precision", "f32",
              "--devices", "cpu:2", "--schedule", "dynamic:3")
    assert fingerprint(two) == fingerprint(one)
    fake = os.path.join(os.environ["VF_BUILD_DIR"], "lib",
                        "libvf_fakecuda.so")
    env = dict(os.environ, VF_CUDA_LIBRARY=fake, VF_FAKE_CUDA_DEVICES="2")
    for devices in ("gpu", "gpu:0,cpu:1"):
        gpu = run(vegasc_emu, path, integrand, "--precision", "f32",
                  "--devices", devices, env=env)
        assert fingerprint(gpu) == fingerprint(one), devices
    dbl = run(vegasc, path, integrand, "--devices", "cpu:1")
    assert dbl["precision"] == "f64"
    assert as_list(dbl["mean"]) != as_list(one["mean"])


def test_f32_through_python():
    """ Integrator(C++ integrand, precision='f32') """
    m = vf.compile(INPUTS / "f32-gauss.cpp")
    opts = dict(calls=20000, iterations=4, warmup=2, seed=5)
    one, two = (vf.Integrator(m["gauss2"], precision="f32", devices=d,
                              **opts).run() for d in ("cpu:1", "cpu:2"))
    assert one.precision == "f32"
    assert (one.mean, one.sdev) == (two.mean, two.sdev)
    assert abs(one.mean - math.erf(5) ** 2) < 5 * one.sdev
    dbl = vf.Integrator(m["gauss2"], devices="cpu:1", **opts).run()
    assert dbl.precision == "f64" and dbl.mean != one.mean


def test_double_literal_refused_in_f32_only():
    """ Integrator(C file with x[0] * 0.5, precision='f32') """
    m = vf.compile(INPUTS / "f32-literal.c")
    with pytest.raises(vf.Error, match=r"f32-literal\.c:5:43: error: "
                       r"double-precision arithmetic .* function 'vf_cxx_f'"):
        vf.Integrator(m["f"], precision="f32")
    res = vf.Integrator(m["f"], calls=2000, iterations=2, seed=1).run()
    assert abs(res.mean - 0.25) < 5 * res.sdev


def test_pdf_handle_in_f32_gives_the_vf_bits(vegasc):
    """ vf_xfx, vf_alphas in vf_real against .vf's xfx, alphas in f32 """
    lum = SOURCE_DIR / "tests" / "testdata" / "pdfextern" / "lum_f32.vf"
    env = dict(os.environ, LHAPDF_DATA_PATH=str(
        SOURCE_DIR / "tests" / "testdata" / "pdf"))

    def value(integrand, at, *args):
        out = subprocess.run([vegasc, str(lum), "--integrand", integrand,
                              "--eval", "--at", at, *args],
                             capture_output=True, text=True, env=env)
        assert out.returncode == 0, out.stderr
        return out.stdout.split()[-1]
    for at in ("0.3,0.4", "0.01,0.9", "0.77,0.002"):
        c32 = value("c_form", at, "--precision", "f32")
        assert c32 == value("vf_form", at, "--precision", "f32"), at
        assert c32 != value("c_form", at), at
