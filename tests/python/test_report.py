#===- tests/python/test_report.py - The HTML report from Python ------------===#
#
# Result._repr_html_ is the report's section for a notebook (scoped style,
# no script), report_html() and write_report() the page vegasc --report
# writes, for the result and the map the integrator had when it was taken;
# the histograms of the integrand are drawn by id, each component of a
# vector integrand has its convergence plot, and the report's options
# (strata, log, reference) draw what they say.
#
#===------------------------------------------------------------------------===#
import os
import re
import subprocess

import numpy as np
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
    for ident in ("run-0", "convergence-0", "convergence-0-0",
                  "iterations-0", "grid-0-0", "grid-0-1", "devices-0",
                  "hist-0-costheta", "histrel-0-costheta", "hist-0-plane",
                  "histerr-0-plane"):
        assert f"id='{ident}'" in html, ident
    # The strata map is asked for; a simple page stays small.
    assert "id='strata-0'" not in html
    assert len(r.report_html()) < 300_000
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
        assert f"<svg id='convergence-0-{k}'" in html
    # A row per iteration and component: 2 warm-up and 4 measured.
    table = re.search(r"<table id='iterations-0'>.*?</table>", html).group(0)
    assert table.count("<tr") == 1 + 6 * 2
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


def analytic_costheta():
    """costheta's bins for 3/(16 pi) (1 + c^2) over [0, 2 pi]: the
    integral of 3/8 (1 + c^2) over each bin."""
    edges = np.linspace(-1, 1, 9)
    prim = 3 / 8 * (edges + edges ** 3 / 3)
    return edges, np.diff(prim)


def pulls(html):
    m = re.search(r"&Sigma; pull&sup2; = ([0-9.e+-]+) over (\d+) bins", html)
    return float(m.group(1)), int(m.group(2))


def test_report_options(ee, tmp_path):
    """ Result.report_html(strata=, log=, reference=) """
    r = vf.Integrator(ee, **FAST)()
    other = vf.Integrator(ee, seed=2, **FAST)()
    page = r.report_html(strata=True, log="costheta", reference=other)
    for ident in ("strata-0", "histratio-0-costheta", "histrel-0-costheta"):
        assert f"id='{ident}'" in page, ident
    # Two seeds: the pulls follow chi2 with 8 degrees of freedom.
    chi2, bins = pulls(page)
    assert bins == 8 and chi2 < 8 + 5 * 4
    one = re.search(r"<svg id='hist-0-costheta'.*?</svg>", page).group(0)
    assert "stroke='#2a2'" in one and "stroke-dasharray" in one
    # The same reference from the CSV vegasc --hist-csv writes, and an
    # analytic one as (edges, values): its pulls are the run's own.
    h = other.histograms["costheta"]
    csv = tmp_path / "ref.csv"
    csv.write_text("histogram,cell,x_lo,x_hi,y_lo,y_hi,value,error\n" + "".join(
        f"costheta,{i},{lo!r},{hi!r},,,{v!r},{e!r}\n" for i, (lo, hi, v, e)
        in enumerate(zip(h.edges[0], h.edges[0][1:], h.mean, h.sdev))))
    assert r.report_html(reference=csv) == r.report_html(reference=other)
    exact = r.report_html(reference={"costheta": analytic_costheta()})
    chi2, bins = pulls(exact)
    assert bins == 8 and chi2 < 8 + 5 * 4
    # A log axis is drawn for every 1-D histogram with log=True.
    assert r.report_html(log=True) == r.report_html(log=["costheta"])
    assert r.report_html(log="nosuch").count("no 1-D histogram of that name")


def test_report_option_errors(ee, tmp_path):
    r = vf.Integrator(ee, **FAST)()
    with pytest.raises(TypeError, match="reference"):
        r.report_html(reference=3)
    with pytest.raises(ValueError, match="edges"):
        r.report_html(reference={"costheta": ([0, 1], [1, 2])})
    bad = tmp_path / "bad.csv"
    bad.write_text("histogram,x_lo,x_hi,value\ncostheta,0,1,1\n"
                   "costheta,2,3,1\n")
    with pytest.raises(ValueError, match="line 3.*previous one ended"):
        r.report_html(reference=bad)


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
    assert re.search(r'id="selfcheck" hidden="">ok 1 runs<', dom)
