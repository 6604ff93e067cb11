#===- tests/python/test_example.py - examples/python runs ------------------===#
import subprocess
import sys

from conftest import SOURCE_DIR


def test_tour_runs_and_agrees_with_exact_values():
    out = subprocess.run([sys.executable,
                          str(SOURCE_DIR / "examples" / "python" / "tour.py")],
                         capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stdout + out.stderr
    for step in ("(1)", "(2)", "(3)", "(4)", "(4b)", "(5)"):
        assert step in out.stdout
    assert "unweighted events" in out.stdout
