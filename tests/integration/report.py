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
#     script error, every expected plot present by id) and the plots by id:
#     convergence-K, grid-K-D for every axis, strata-K, devices-K, and one
#     section per batch run;
#  3. a screenshot is taken and is a PNG of the window's size;
#  4. for an integrand with a 1-D and a 2-D histogram: hist-0-NAME for
#     each (counted by the page's own check), the 1-D one with a marker and
#     an error bar per bin, the 2-D one a cell per bin with its value and
#     error, and its relative errors as histerr-0-NAME.
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
    m = re.search(r"id=\"selfcheck\">([^<]*)<", dom)
    check(m and m.group(1) == "ok 1 runs",
          f"histograms: the page's own check (every hist by id): "
          f"{m.group(1) if m else None!r}")
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
    m = re.search(r"id=\"selfcheck\">([^<]*)<", dom.stdout)
    check(m and m.group(1) == f"ok {runs} runs",
          f"the page's own check after load: {m.group(1) if m else None!r}")
    check("Uncaught" not in dom.stderr, "no script error on the console")
    for k in range(runs):
        ids = [f"run-{k}", f"convergence-{k}", f"strata-{k}", f"devices-{k}",
               f"iterations-{k}"] + [f"grid-{k}-{d}" for d in range(dims)]
        missing = [i for i in ids if f'id="{i}"' not in dom.stdout]
        check(not missing, f"run {k}: every plot by id (missing {missing})")
    s = chromium(["--window-size=1100,2400", f"--screenshot={shot}"], page)
    ok = s.returncode == 0 and os.path.exists(shot)
    if check(ok, "a screenshot is taken"):
        with open(shot, "rb") as f:
            head = f.read(24)
        w, h = struct.unpack(">II", head[16:24])
        check(head[:8] == b"\x89PNG\r\n\x1a\n" and (w, h) == (1100, 2400),
              f"the screenshot is a 1100x2400 PNG ({w}x{h})")


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
    hsrc = write_source("hists", HIST_SRC)
    hpage = os.path.join(workdir(), "hists.html")
    h = vegasc(exe, [hsrc, "--calls", 20000, "--iterations", 4, "-q",
                     "--report", hpage])
    if check(h.rc == 0 and os.path.exists(hpage),
             "--report of an integrand with histograms"):
        look(hpage, 1, 2, os.path.join(workdir(), "hists.png"))
        look_histograms(hpage)
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
    finish()


if __name__ == "__main__":
    main()
