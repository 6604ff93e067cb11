#!/usr/bin/env python3
#===- tests/integration/report.py - The HTML report in a real browser ----===#
#
# Usage: report.py VEGASC
#
# vegasc --report FILE.html for a single run (with --exact) and for a TOML
# batch of two runs, each page rendered by headless Chromium (Debian
# chromium; skipped with a message only when it is not installed):
#  1. the page is self-contained: no http(s) reference, no external script
#     or style;
#  2. Chromium's DOM after load has the page's own check "ok N runs" (no
#     script error, every expected plot present by id) in a hidden element,
#     not shown to the reader, and the plots by id: convergence-K (the
#     warm-up shaded), grid-K-D for every axis, devices-K, and one section
#     per batch run; no strata-K unless --report-strata; a simple page is
#     under 300 KB;
#  3. a screenshot is taken and is a PNG of the window's size;
#  4. for an integrand with a 1-D and a 2-D histogram: hist-0-NAME for
#     each (counted by the page's own check), the 1-D one with a marker and
#     an error bar per bin and its relative errors (histrel-0-NAME), the
#     2-D one a cell per bin with its value and error, and its relative
#     errors as histerr-0-NAME; with --report-ref (another seed's
#     --hist-csv) the reference drawn over the 1-D one and a ratio panel
#     (histratio-0-NAME), with --report-log a log axis, with
#     --report-strata the strata map; a reference that does not read stops
#     vegasc before the run;
#  5. a vector integrand: a convergence plot per component and a table row
#     per iteration and component;
#  6. a 1000 x 1000 histogram: drawn merged, with a message saying so, on a
#     page under 1 MB (it was 212 MB).
#
#===----------------------------------------------------------------------===#
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

from vftest import check, finish, vegasc, workdir, write_source

SRC = """integrand peak(x in [0, 1]^3) =
    exp(-((x[0] - 0.3)^2 + (x[1] - 0.6)^2 + (x[2] - 0.5)^2) / 0.02)
"""
# Histograms: a 1-D one of 12 bins (its range cut at 0.9 so the overflow
# is not empty) and a 2-D one of 4 x 8 cells.
HIST_SRC = """integrand ee(x in [-1, 1] * [0, 2*pi]) {
    let c = x[0]
    hist costheta(c, -1, 0.9, 12)
    hist plane(c, -1, 1, 4, x[1], 0, 2*pi, 8)
    return 3/(16*pi) * (1 + c^2)
}
"""
VECTOR_SRC = """integrand fb(x in [-1, 1]) -> [2] = [1 + x, if x > 0 then 1 + x else -1 - x]
"""
BIG_SRC = """integrand big(x in [0, 1]^2) {
    hist b(x[0], 0, 1, 1000, x[1], 0, 1, 1000)
    return x[0] * x[1]
}
"""
SELFCHECK = r'id="selfcheck" hidden="">([^<]*)<'
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update",
         "--disable-sync"]


def chromium(args, page):
    profile = tempfile.mkdtemp(dir=workdir())
    return subprocess.run(
        [shutil.which("chromium")] + FLAGS + [f"--user-data-dir={profile}"] +
        args + ["file://" + page], capture_output=True, text=True, timeout=120)


def svg(dom, ident):
    """The <svg id=IDENT> element's text in Chromium's DOM, or None."""
    m = re.search(r'<svg id="' + re.escape(ident) + r'".*?</svg>', dom,
                  re.S)
    return m.group(0) if m else None


def look_histograms(page):
    """Every histogram of HIST_SRC drawn, with error bars (1-D: a marker
    and an error line per bin; 2-D: a cell per bin with its value and error
    on hover, and the map of relative errors)."""
    dom = chromium(["--dump-dom"], page).stdout
    m = re.search(SELFCHECK, dom)
    check(m and m.group(1) == "ok 1 runs",
          f"histograms: the page's own check (every hist by id): "
          f"{m.group(1) if m else None!r}")
    check(svg(dom, "histrel-0-costheta") is not None,
          "the 1-D histogram's relative errors by id histrel-0-costheta")
    one = svg(dom, "hist-0-costheta")
    if check(one is not None, "the 1-D histogram by id hist-0-costheta"):
        bars = len(re.findall(r'<line [^>]*stroke="#c33"', one))
        check(one.count("<circle") == 12 and bars == 12,
              f"hist-0-costheta: 12 bins, each with its error bar "
              f"({one.count('<circle')} markers, {bars} error bars)")
        check("overflow" in dom and "underflow" in dom,
              "the 1-D histogram's flows are written")
    two = svg(dom, "hist-0-plane")
    if check(two is not None, "the 2-D histogram by id hist-0-plane"):
        cells = re.findall(r"<title>([^<]*)</title>", two)
        check(len(cells) == 32 and all("\u00b1" in c for c in cells),
              f"hist-0-plane: 32 cells, each with value and error "
              f"({len(cells)})")
    check(svg(dom, "histerr-0-plane") is not None,
          "the 2-D histogram's relative errors by id histerr-0-plane")


def look(page, runs, dims, shot):
    with open(page) as f:
        html = f.read()
    check(not re.search(r"(src|href)\s*=\s*['\"]?https?:", html) and
          "<link" not in html and "<script src" not in html,
          f"{os.path.basename(page)}: self-contained (no network, no "
          f"external script or style)")
    dom = chromium(["--dump-dom"], page)
    if not check(dom.returncode == 0, "chromium renders the page"):
        print(dom.stderr[-2000:])
        return
    m = re.search(SELFCHECK, dom.stdout)
    check(m and m.group(1) == f"ok {runs} runs",
          f"the page's own check after load, hidden: "
          f"{m.group(1) if m else None!r}")
    check("Uncaught" not in dom.stderr, "no script error on the console")
    for k in range(runs):
        ids = [f"run-{k}", f"convergence-{k}", f"devices-{k}",
               f"iterations-{k}"] + [f"grid-{k}-{d}" for d in range(dims)]
        missing = [i for i in ids if f'id="{i}"' not in dom.stdout]
        check(not missing, f"run {k}: every plot by id (missing {missing})")
        conv = svg(dom.stdout, f"convergence-{k}-0")
        check(conv is not None and "<title>warm-up" in conv,
              f"run {k}: the warm-up iterations shaded on the convergence "
              f"plot")
    check('id="strata-0"' not in dom.stdout,
          "no strata map unless asked for")
    s = chromium(["--window-size=1100,2400", f"--screenshot={shot}"], page)
    ok = s.returncode == 0 and os.path.exists(shot)
    if check(ok, "a screenshot is taken"):
        with open(shot, "rb") as f:
            head = f.read(24)
        w, h = struct.unpack(">II", head[16:24])
        check(head[:8] == b"\x89PNG\r\n\x1a\n" and (w, h) == (1100, 2400),
              f"the screenshot is a 1100x2400 PNG ({w}x{h})")


def look_reference(exe, hsrc):
    """--report-ref, --report-log and --report-strata on the histograms'
    page; a reference that does not read is refused before the run."""
    ref = os.path.join(workdir(), "ref.csv")
    vegasc(exe, [hsrc, "--calls", 20000, "--iterations", 4, "-q", "--seed",
                 2, "--hist-csv", ref])
    page = os.path.join(workdir(), "ref.html")
    r = vegasc(exe, [hsrc, "--calls", 20000, "--iterations", 4, "-q",
                     "--report", page, "--report-ref", ref, "--report-log",
                     "costheta", "--report-strata"])
    if not check(r.rc == 0 and os.path.exists(page),
                 "--report with --report-ref, --report-log, --report-strata"):
        return
    shot = os.path.join(workdir(), "ref.png")
    look_dom = chromium(["--dump-dom"], page).stdout
    m = re.search(SELFCHECK, look_dom)
    check(m and m.group(1) == "ok 1 runs", "the reference page checks itself")
    one = svg(look_dom, "hist-0-costheta") or ""
    check('stroke="#2a2"' in one and "stroke-dasharray" in one,
          "the reference is drawn over the 1-D histogram")
    ratio = svg(look_dom, "histratio-0-costheta")
    if check(ratio is not None, "the ratio panel by id histratio-0-costheta"):
        check(ratio.count("<circle") == 12, "a ratio per bin")
        pulls = re.search(r"pull\u00b2 = ([0-9.e+-]+) over 12 bins", look_dom)
        check(pulls and float(pulls.group(1)) < 12 + 5 * 24 ** 0.5,
              f"the pulls of two seeds agree with chi2(12): "
              f"{pulls.group(1) if pulls else None}")
    check(">0.5</text>" in one and ">1</text>" in one,
          "--report-log: ticks of a log axis (0.5, 1)")
    check('id="strata-0"' in look_dom, "--report-strata draws the strata")
    s = chromium(["--window-size=1100,2400", f"--screenshot={shot}"], page)
    check(s.returncode == 0 and os.path.exists(shot), "a screenshot of it")
    bad = os.path.join(workdir(), "bad.csv")
    with open(bad, "w") as f:
        f.write("histogram,x_lo,x_hi,value\ncostheta,0,1,x\n")
    b = vegasc(exe, [hsrc, "--report", page, "--report-ref", bad],
               json_out=False)
    check(b.rc != 0 and "line 2" in b.err and "result" not in b.out,
          f"a reference that does not read stops vegasc before the run "
          f"({b.err.strip()!r})")


def short_report(exe, name, src, what):
    """The page of a short run of SRC (3 iterations, 2 warm-up), or None
    when vegasc failed."""
    page = os.path.join(workdir(), name + ".html")
    r = vegasc(exe, [write_source(name, src), "--calls", 20000,
                     "--iterations", 3, "--warmup", 2, "-q", "--report",
                     page])
    return page if check(r.rc == 0, f"--report of {what}") else None


def look_components(exe):
    """A vector integrand: every component plotted and tabulated."""
    page = short_report(exe, "fb", VECTOR_SRC, "a vector integrand")
    if not page:
        return
    dom = chromium(["--dump-dom"], page).stdout
    m = re.search(SELFCHECK, dom)
    check(m and m.group(1) == "ok 1 runs", "the vector page checks itself")
    check(all(svg(dom, f"convergence-0-{c}") is not None for c in (0, 1)),
          "a convergence plot per component (convergence-0-0, -0-1)")
    table = re.search(r'<table id="iterations-0">.*?</table>', dom, re.S)
    rows = table.group(0).count("<tr") if table else 0
    check(rows == 1 + 5 * 2, f"a table row per iteration and component "
          f"({rows} rows with the header)")


WEIGHTS_SRC = """integrand f(x in [0, 1]^2) {
    let f = x[0] * x[1] + 1
    weights scales(k in 0..7: f * (1 + (k - 3) / 20))
    weights two(k in 0..2: f * (2 - k))
    return f
}
"""


def look_variations(exe):
    """Weight lists: a plot per list (entries over the integrand's value)
    and a table of the bands whose limits are the entries' least and
    largest."""
    page = short_report(exe, "wl", WEIGHTS_SRC, "an integrand with lists")
    if not page:
        return
    dom = chromium(["--dump-dom"], page).stdout
    m = re.search(SELFCHECK, dom)
    check(m and m.group(1) == "ok 1 runs", "the lists' page checks itself")
    check(all(svg(dom, f"weights-0-{i}") is not None for i in (0, 1)),
          "a plot per weight list (weights-0-0, weights-0-1)")
    table = re.search(r'<table id="weightstable-0">.*?</table>', dom, re.S)
    rows = re.findall(r"<tr><td>(\w+)</td><td>(\d+)</td><td>(\w+)</td>",
                      table.group(0)) if table else []
    check(rows == [("scales", "7", "envelope"), ("two", "2", "envelope")],
          f"the bands' table names each list, its entries and band ({rows})")


def look_capped(exe):
    """A 1000 x 1000 histogram: merged, said, and a page under 1 MB."""
    page = short_report(exe, "big", BIG_SRC, "a 1000 x 1000 histogram")
    if not page:
        return
    size = os.path.getsize(page)
    with open(page) as f:
        html = f.read()
    check("1000000 bins, more than the report draws" in html,
          "the page says the histogram is drawn merged")
    check(size < 1_000_000, f"the page is under 1 MB ({size} bytes)")


def main():
    exe = sys.argv[1]
    if not shutil.which("chromium"):
        print("SKIPPED: chromium is not installed (scripts/install-deps.sh "
              "installs it); the report is not rendered")
        sys.exit(0)
    src = write_source("peak", SRC)
    page = os.path.join(workdir(), "single.html")
    r = vegasc(exe, [src, "--calls", 20000, "--iterations", 6, "-q",
                     "--report", page, "--exact", 0.0555])
    if check(r.rc == 0 and os.path.exists(page), "--report writes the page"):
        look(page, 1, 3, os.path.join(workdir(), "single.png"))
        with open(page) as f:
            check("exact 0.0555" in f.read(), "the exact value is drawn")
        size = os.path.getsize(page)
        check(size < 300_000, f"a simple page is under 300 KB ({size} "
              f"bytes)")
    hsrc = write_source("hists", HIST_SRC)
    hpage = os.path.join(workdir(), "hists.html")
    h = vegasc(exe, [hsrc, "--calls", 20000, "--iterations", 4, "-q",
                     "--report", hpage])
    if check(h.rc == 0 and os.path.exists(hpage),
             "--report of an integrand with histograms"):
        look(hpage, 1, 2, os.path.join(workdir(), "hists.png"))
        look_histograms(hpage)
        look_reference(exe, hsrc)
    look_components(exe)
    look_variations(exe)
    look_capped(exe)
    toml = os.path.join(workdir(), "b.toml")
    with open(toml, "w") as f:
        f.write(f'[defaults]\ncalls = 20000\niterations = 4\n'
                f'[[run]]\nname = "a"\nfile = "{src}"\n'
                f'[[run]]\nname = "b"\nfile = "{src}"\nbeta = 0\n')
    bpage = os.path.join(workdir(), "batch.html")
    b = vegasc(exe, [toml, "-q", "--report", bpage], json_out=False)
    if check(b.rc == 0 and os.path.exists(bpage),
             "--report of a batch writes the page"):
        look(bpage, 2, 3, os.path.join(workdir(), "batch.png"))
    look_scan(exe)
    finish()


def look_scan(exe):
    """A batch run scanning one parameter: a plot per quantity (the
    component and the derived item) against the parameter, a point per
    scan point with its error bar and the band as two dashed lines."""
    src = write_source("scanned", "param a = 1\n"
                       "integrand s(x in [0, 1]) = a * x\n"
                       "derived twice = 2 * s\n")
    toml = os.path.join(workdir(), "scan.toml")
    with open(toml, "w") as f:
        f.write(f'[defaults]\ncalls = 4000\niterations = 3\n'
                f'[[run]]\nname = "line"\nfile = "{src}"\n'
                f'scan = {{ a = {{ from = 1, to = 3, steps = 5 }} }}\n')
    page = os.path.join(workdir(), "scan.html")
    r = vegasc(exe, [toml, "-q", "--report", page], json_out=False)
    if not check(r.rc == 0 and os.path.exists(page),
                 "--report of a scan writes the page"):
        return
    look(page, 5, 1, os.path.join(workdir(), "scan.png"))
    with open(page) as f:
        html = f.read()
    check("<h2>Scan: line over a</h2>" in html, "the scan's own plots first")
    for q, name in ((0, "result"), (1, "twice")):
        plot = svg(html.replace("'", '"'), f"scan-0-{q}")
        ok = plot is not None and name in plot and \
            plot.count("<circle") == 5 and plot.count("stroke-dasharray") == 2
        check(ok, f"scan plot of {name}: 5 points and the band's 2 dashed "
                  f"lines")


if __name__ == "__main__":
    main()
