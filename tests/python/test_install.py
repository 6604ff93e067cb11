#===- tests/python/test_install.py - import vegasflow from a prefix --------===#
#
# `cmake --install` into a fresh prefix prints where the package went;
# with only that folder on PYTHONPATH (run from elsewhere, the build tree
# out of reach), vegasflow imports, loads the prefix's libvegasflow.so and
# integrates.
#
#===------------------------------------------------------------------------===#
import os
import re
import subprocess
import sys

import pytest

PROGRAM = """
import vegasflow as vf
m = vf.compile("integrand f(x in [0, 1]^2) = x[0] * x[1]")
r = vf.Integrator(m.f, calls=10000, warmup=1, iterations=3, devices="cpu:1")()
print("file", vf.__file__)
print("result", r.mean, r.sdev)
print("maps", [l.split()[-1] for l in open("/proc/self/maps")
               if "libvegasflow" in l][0])
"""


def test_install_prefix_imports(tmp_path):
    build = os.environ.get("VF_BUILD_DIR")
    if not build:
        pytest.skip("VF_BUILD_DIR is not set (run through ctest)")
    prefix = tmp_path / "prefix"
    out = subprocess.run(["cmake", "--install", build, "--prefix",
                          str(prefix)], capture_output=True, text=True,
                         check=True).stdout
    m = re.search(r"vegasflow Python module: (\S+) \(PYTHONPATH=", out)
    assert m, out
    site = m.group(1)
    assert site.startswith(str(prefix))
    assert os.path.isfile(os.path.join(site, "vegasflow", "__init__.pyi"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = site
    run = subprocess.run([sys.executable, "-c", PROGRAM], cwd=tmp_path,
                         env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = dict(line.split(" ", 1) for line in run.stdout.splitlines())
    assert lines["file"].startswith(site)
    assert lines["maps"].startswith(str(prefix))
    mean, sdev = map(float, lines["result"].split())
    assert abs(mean - 0.25) <= 5 * sdev


def test_an_interpreter_it_was_not_built_for_is_told_which_one_to_run():
    """ import vegasflow without numpy (as another Python, a pyenv one,
    would be): an ImportError naming this interpreter and the one the build
    is for, not a bare ModuleNotFoundError. """
    code = ("import sys; sys.modules['numpy'] = None\n"
            "try:\n"
            "    import vegasflow\n"
            "except ImportError as e:\n"
            "    print(type(e).__name__, e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, env=dict(os.environ)).stdout
    from vegasflow import _build
    assert out.startswith("ImportError vegasflow cannot be imported by "
                          f"Python {sys.version_info.major}."), out
    assert f"at {sys.executable}" in out and "numpy" in out, out
    assert f"built for Python {_build.VERSION[0]}.{_build.VERSION[1]} at " \
           f"{_build.PYTHON}" in out, out
