#===- tests/python/test_report.py - The HTML report from Python ------------===#
#
# Result._repr_html_ is the report's section for a notebook (scoped style,
# no script), report_html() and write_report() the page vegasc --report
# writes, for the result and the map the integrator had when it was taken;
# the histograms of the integrand are drawn by id.
#
#===------------------------------------------------------------------------===#
import os
import re
import subprocess

import pytest

import vegasflow as vf

FAST = dict(calls=20000, iterations=4, warmup=2, devices="cpu:2")

HISTS = """
integrand ee(x in [-1, 1] * [0, 2*pi]) {
    let c = x[0]
    hist costheta(c, -1, 1, 8)
    hist plane(c, -1, 1, 2, x[1], 0, 2*pi, 3)
    return 3/(16*pi) * (1 + c^2)
}
"""


@pytest.fixture(scope="module")
def ee():
    return vf.compile(HISTS, name="hists.vf").ee


def test_repr_html_is_the_report_section(ee):
    """ Result._repr_html_ """
    r = vf.Integrator(ee, **FAST)()
    html = r._repr_html_()
    assert html.startswith("<style>.vf-report")
    assert "<div class='vf-report'>" in html and "<script" not in html
    assert "<html" not in html and "<body" not in html
    for ident in ("run-0", "convergence-0", "iterations-0", "grid-0-0",
                  "grid-0-1", "strata-0", "devices-0", "hist-0-costheta",
                  "hist-0-plane", "histerr-0-plane"):
        assert f"id='{ident}'" in html, ident
    # Every rule of the style is scoped, so a notebook keeps its own.
    style = html[len("<style>"):html.index("</style>")]
    assert all(rule.strip().startswith(".vf-report")
               for rule in re.findall(r"(?:^|})([^{}]+){", style))
    assert f"{r.mean:.15g}" in html
    # 8 bins with a marker and an error bar each.
    one = re.search(r"<svg id='hist-0-costheta'.*?</svg>", html).group(0)
    assert one.count("<circle") == 8
    assert len(re.findall(r"<line [^>]*stroke='#c33'", one)) == 8


def test_every_component_and_derived_item(tmp_path):
    """ the report's result lines: each component, then derived items """
    m = vf.compile("""
integrand fb(x in [-1, 1]) -> [2] = [1 + x, if x > 0 then 1 + x else -1 - x]
derived afb = fb[1] / fb[0]
""", name="fb.vf")
    r = vf.Integrator(m.fb, **FAST)()
    html = r._repr_html_()
    for k in (0, 1):
        assert f"result[{k}] = {r.mean[k]:.15g} &plusmn; " in html
    d = r.derived["afb"]
    assert f"afb = {d.mean:.15g} &plusmn; {d.sdev:.3g} (derived)" in html


def test_report_html_and_write_report(ee, tmp_path):
    """ Result.report_html, Result.write_report """
    integ = vf.Integrator(ee, **FAST)
    r = integ()
    page = r.report_html(exact=1.0)
    assert page.startswith("<!DOCTYPE html>") and "id='selfcheck'" in page
    assert "exact 1" in page and not re.search(r"(src|href)\s*=\s*['\"]?http",
                                               page)
    # The map of the result, not of the integrator later on.
    integ(iterations=2)
    assert r.report_html(exact=1.0) == page
    path = tmp_path / "r.html"
    assert r.write_report(path, exact=1.0) == str(path)
    assert path.read_text() == page
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]


def test_write_report_errors(ee, tmp_path):
    r = vf.Integrator(ee, **FAST)()
    with pytest.raises(FileNotFoundError):
        r.write_report(tmp_path / "no" / "such" / "r.html")
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(TypeError):
        r.report_html(exact="one")
    bare = vf.Result(r._h, "ee", {})
    assert bare._repr_html_().startswith("<table>")
    with pytest.raises(ValueError, match="no map to report"):
        bare.report_html()


def test_the_page_renders_in_chromium(ee, tmp_path):
    """ the written page in headless Chromium: its own check passes """
    chromium = "/usr/bin/chromium"
    if not os.path.exists(chromium):
        pytest.skip("chromium is not installed")
    path = tmp_path / "r.html"
    vf.Integrator(ee, **FAST)().write_report(path)
    dom = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu",
         f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
         path.as_uri()], capture_output=True, text=True, timeout=120).stdout
    assert re.search(r'id="selfcheck">ok 1 runs<', dom)
