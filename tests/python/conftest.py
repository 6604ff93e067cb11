#===- tests/python/conftest.py - Fixtures for the vegasflow tests ----------===#
#
# Paths from ctest's environment (vegasc, the build and source trees) and
# the integrands the tests share. Every test runs on two CPU threads at
# most: the CI machine has two cores.
#
#===------------------------------------------------------------------------===#
import os
import pathlib

import pytest

import vegasflow as vf

SOURCE_DIR = pathlib.Path(os.environ.get(
    "VF_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
LEPAGE = SOURCE_DIR / "examples" / "lepage.vf"

# Lepage's Gaussian in 4 dimensions: exact erf(1/(2a))^4 ~ 1 for a = 0.1.
GAUSS4 = """
param a = 0.1
integrand gauss(x in [0, 1]^4) =
    prod(i in 0..4: exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))
"""

# Three moments of x0 on [0, b]: b, b^2/2, b^3/3; the box depends on b.
MOMENTS = """
param b = 2
integrand moments(x in [0, b]^2) -> [3] {
    return [1 / b, x[0] / b, x[0]^2 / b]
}
"""


@pytest.fixture(scope="session")
def vegasc():
    path = os.environ.get("VF_VEGASC")
    if not path:
        pytest.skip("VF_VEGASC is not set (run through ctest)")
    return path


@pytest.fixture(scope="session")
def vegasc_emu():
    """vegasc with the fake CUDA driver's warp emulation (tests/fakecuda):
    the shipped vegasc runs no GPU kernel on the fake driver."""
    path = os.environ.get("VF_VEGASC_EMU")
    if not path:
        pytest.skip("VF_VEGASC_EMU is not set (run through ctest)")
    return path


@pytest.fixture(scope="session")
def gauss():
    return vf.compile(GAUSS4, name="gauss4.vf").gauss


@pytest.fixture(scope="session")
def moments():
    return vf.compile(MOMENTS, name="moments.vf").moments


def within(value, sdev, exact, sigmas=5):
    """|value - exact| <= sigmas * sdev, up to rounding (a constant
    component has sdev ~ 0)."""
    return abs(value - exact) <= sigmas * sdev + 1e-12 * abs(exact)
