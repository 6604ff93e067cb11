#!/usr/bin/env python3
#===- tests/integration/batch.py - TOML batch runs end to end -------------===#
#
# Usage: batch.py VEGASC
#
# `vegasc runs.toml` (docs/user-guide.md, "Batch runs (TOML)"): every key
# of [defaults] and [[run]] reaches the run's settings; run keys override
# the defaults; inline sources and scans run; each scan point gives
# bitwise the result of `vegasc FILE.vf --param ...` with the same settings
# (one compiled module serves every point); the JSON document and the CSV
# file hold every run, failed ones included (the CSV file in its long
# layout, kept under csv_layout = "long"; batch_scan.py has the wide one
# and the scan's seeds); --json/--csv on the command
# line override the TOML's output and csv; conflicting options are usage
# errors (exit 2); the example batch runs.
#
#===----------------------------------------------------------------------===#
import csv
import io
import json
import math
import os
import subprocess
import sys

from vftest import check, finish, vegasc, workdir, write_source

GAUSS = """param a = 0.2
param c = 0.5
integrand g(x in [0, 1]^2) = exp(-((x[0] - c)^2 + (x[1] - c)^2) / a^2)
"""


def gauss_exact(a, c=0.5):
    one = a * math.sqrt(math.pi) / 2 * (math.erf((1 - c) / a) + math.erf(c / a))
    return one * one


def write(name, text):
    path = os.path.join(workdir(), name)
    with open(path, "w") as f:
        f.write(text)
    return path


def run(exe, args):
    env = dict(os.environ)
    env["VF_CACHE_DIR"] = os.path.join(workdir(), "cache")
    p = subprocess.run([exe] + [str(a) for a in args], capture_output=True,
                       text=True, env=env, timeout=300)
    return p


def main():
    exe = sys.argv[1]
    os.makedirs(os.path.join(workdir(), "sub"), exist_ok=True)
    # The .vf file sits beside the TOML file, in another folder than the
    # working directory: `file` is relative to the TOML file.
    write("sub/gauss.vf", GAUSS)
    toml = write("sub/runs.toml", """
[defaults]
devices = "cpu:2"
calls = 3000
iterations = 4
warmup = 2
seed = 5
schedule = "adaptive"
alpha = 0.75
beta = 0.5
ninc = 200
on_nonfinite = "zero"
output = "out/results.json"
csv = "results.csv"
csv_layout = "long"

[[run]]
name = "plain"
file = "gauss.vf"

[[run]]
name = "override"
file = "gauss.vf"
integrand = "g"
params = { a = 0.1 }
devices = "cpu:1"
calls = 4e3
iterations = 3
warmup = 1
seed = 9
schedule = "dynamic"
alpha = 0.5
beta = 0.75
ninc = 100
on_nonfinite = "stop"

[[run]]
name = "inline"
source = '''
param k = 2
integrand m(x in [0, 1]) -> [2] {
    return [exp(-k * x[0]), x[0]]
}
'''

[[run]]
name = "scan"
file = "gauss.vf"
params = { c = 0.4 }
scan = { a = [0.1, 0.3] }

[[run]]
name = "grid"
file = "gauss.vf"
scan = { a = [0.1, 0.3], c = { from = 0.4, to = 0.6, steps = 3 } }
""")
    os.makedirs(os.path.join(workdir(), "sub", "out"), exist_ok=True)
    p = run(exe, [toml, "-v"])
    ok = check(p.returncode == 0, "the batch succeeds (exit 0)")
    if not ok:
        print(p.stdout, p.stderr)
        finish()
    check("batch: compiled 2 modules (" in p.stderr and
          "for 11 runs" in p.stderr,
          "one module for gauss.vf (10 runs) and one for the inline source")
    with open(os.path.join(workdir(), "sub/out/results.json")) as f:
        doc = json.load(f)
    runs = doc["runs"]
    check(doc["summary"] == {"runs": 11, "ok": 11, "failed": 0, "skipped": 0},
          "summary counts 11 runs, all ok")
    check(doc["vegasflow"]["schema"] == 1 and doc["config"] == toml,
          "the document names its schema and the TOML file")
    names = [r["name"] for r in runs]
    check(names == ["plain", "override", "inline"] + ["scan"] * 2 +
          ["grid"] * 6, f"one JSON entry per run, in order ({names})")

    # Every key of [defaults] reaches the settings; the run's own keys win.
    s = runs[0]["settings"]
    want = {"seed": 5, "calls": 3000, "iterations": 4, "warmup": 2,
            "alpha": 0.75, "beta": 0.5, "ninc": 200, "devices": "cpu:2",
            "cpu_threads": 2, "on_nonfinite": "zero", "schedule": "adaptive",
            "params": {"a": 0.2, "c": 0.5}}
    check(all(s[k] == v for k, v in want.items()),
          f"defaults reach the settings: {s}")
    check(s["file"].endswith("sub/gauss.vf") and os.path.exists(s["file"]),
          "file is resolved against the TOML file's folder")
    s = runs[1]["settings"]
    want = {"seed": 9, "calls": 4000, "iterations": 3, "warmup": 1,
            "alpha": 0.5, "beta": 0.75, "ninc": 100, "devices": "cpu:1",
            "cpu_threads": 1, "on_nonfinite": "stop", "schedule": "dynamic",
            "params": {"a": 0.1, "c": 0.5}}
    check(all(s[k] == v for k, v in want.items()),
          f"every key of a run overrides [defaults]: {s}")
    check(len([i for i in runs[1]["iterations"] if i["warmup"]]) == 1 and
          len(runs[1]["iterations"]) == 4,
          "override: 1 warm-up + 3 iterations ran")
    check(runs[1]["devices"] and len(runs[1]["devices"]) == 1,
          "override: devices = cpu:1 ran one worker")

    # Inline source, vector-valued.
    r = runs[2]
    exact = [(1 - math.exp(-2)) / 2, 0.5]
    check(r["integrand"] == "m" and r["settings"]["file"] is None and
          "integrand m" in r["settings"]["source"],
          "inline: the source is recorded in the settings")
    check(all(abs(m - e) < 5 * err for m, e, err in
              zip(r["result"]["mean"], exact, r["result"]["error"])),
          f"inline: both components within 5 sigma of {exact}")

    # Scans: the points and the full parameter sets.
    pts = [(r["point"], r["settings"]["params"]) for r in runs[3:5]]
    check(pts == [({"a": 0.1}, {"a": 0.1, "c": 0.4}),
                  ({"a": 0.3}, {"a": 0.3, "c": 0.4})],
          f"scan of a with params c = 0.4: {pts}")
    grid = [(r["point"]["a"], r["point"]["c"]) for r in runs[5:]]
    check(grid == [(0.1, 0.4), (0.1, 0.5), (0.1, 0.6),
                   (0.3, 0.4), (0.3, 0.5), (0.3, 0.6)],
          f"two scanned parameters: the product, first one slowest: {grid}")
    for r in runs[3:]:
        p_ = r["settings"]["params"]
        m, e = r["result"]["mean"], r["result"]["error"]
        ex = gauss_exact(p_["a"], p_["c"])
        check(abs(m - ex) < 5 * e,
              f"{r['name']} {r['point']}: {m} +- {e} within 5 sigma of {ex}")

    # A scan point is bitwise the same run as the command line's.
    for r in (runs[1], runs[4], runs[9]):
        st = r["settings"]
        args = [os.path.join(workdir(), "sub/gauss.vf"), "-q",
                "--calls", st["calls"], "--iterations", st["iterations"],
                "--warmup", st["warmup"], "--seed", st["seed"],
                "--alpha", st["alpha"], "--beta", st["beta"],
                "--ninc", st["ninc"], "--devices", st["devices"],
                "--on-nonfinite", st["on_nonfinite"]]
        for k, v in st["params"].items():
            args += ["--param", f"{k}={v!r}"]
        cli = vegasc(exe, args)
        same = cli.rc == 0 and cli.doc["result"] == {
            k: v for k, v in r["result"].items() if k != "wall_s"} | {
            "wall_s": cli.doc["result"]["wall_s"]}
        same = same and [i["mean"] for i in cli.doc["iterations"]] == \
            [i["mean"] for i in r["iterations"]]
        check(same, f"{r['name']} {r['point']}: bitwise the result of "
                    f"vegasc {' '.join(map(str, args[1:]))}")

    # The CSV: one row per run and component, parameter columns.
    with open(os.path.join(workdir(), "sub/results.csv")) as f:
        rows = list(csv.DictReader(f))
    check(len(rows) == 12, f"CSV: 12 rows (11 runs, inline has 2 "
                           f"components), got {len(rows)}")
    check(set(["param.a", "param.c", "param.k", "mean", "error", "Q",
               "chi2_dof", "status", "message"]) <= set(rows[0].keys()),
          f"CSV columns: {list(rows[0].keys())}")
    jmeans = []
    for r in runs:
        m = r["result"]["mean"]
        jmeans += m if isinstance(m, list) else [m]
    check([float(r["mean"]) for r in rows] == jmeans,
          "CSV means equal the JSON's bitwise")
    check([r["param.a"] for r in rows[4:6]] == ["0.1", "0.3"] and
          rows[4]["param.c"] == "0.4" and rows[2]["param.k"] == "2" and
          rows[2]["param.a"] == "",
          "CSV parameter columns: values used, empty where absent")

    # Table: one row per run and component.
    lines = p.stdout.strip().splitlines()
    check(len(lines) == 13 and lines[0].startswith("run") and
          lines[3].startswith("inline[0]") and "a=0.1 c=0.6" in lines[9],
          "summary table: a header and 12 rows")

    # Failures: the batch continues, the documents record them, exit 1.
    bad = write("bad.toml", """
[defaults]
calls = 1000
iterations = 2
[[run]]
name = "nan"
source = 'integrand f(x in [0, 1]) = log(x[0] - 0.5)'
[[run]]
name = "ok"
source = 'integrand f(x in [0, 1]) = x[0]'
""")
    p = run(exe, [bad, "--json", "-", "--csv", os.path.join(workdir(), "b.csv")])
    d = json.loads(p.stdout)
    check(p.returncode == 1, "a failed run: exit 1")
    check([r["status"] for r in d["runs"]] == ["failed", "ok"] and
          "is nan at" in d["runs"][0]["error"],
          "--json -: the document alone on stdout, with the failure")
    check("nan " in p.stderr and "FAILED" in p.stderr,
          "--json -: the table goes to stderr")
    with open(os.path.join(workdir(), "b.csv")) as f:
        rows = list(csv.DictReader(f))
    check([r["status"] for r in rows] == ["failed", "ok"] and
          "is nan at" in rows[0]["message"],
          "CSV records the failed run and its message")
    p = run(exe, [bad, "--fail-fast", "--json", "-"])
    d = json.loads(p.stdout)
    check(p.returncode == 1 and
          [r["status"] for r in d["runs"]] == ["failed", "skipped"],
          "--fail-fast: the run after a failure is skipped")

    # Usage errors.
    for args, what in (
            ([toml, "--calls", "100"], "--calls with a batch"),
            ([toml, "--param", "a=1"], "--param with a batch"),
            ([toml, "--config", toml], "both FILE and --config"),
            ([toml, "--json", "-", "--csv", "-"], "JSON and CSV on stdout"),
            ([os.path.join(workdir(), "sub/gauss.vf"), "--csv", "x.csv"],
             "--csv without a batch")):
        p = run(exe, args)
        check(p.returncode == 2 and "error:" in p.stderr,
              f"{what}: usage error, exit 2")

    # The example batch of the repository runs.
    ex = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                      "examples", "batch.toml")
    p = run(exe, [ex, "-q", "--json", os.path.join(workdir(), "ex.json")])
    with open(os.path.join(workdir(), "ex.json")) as f:
        d = json.load(f)
    check(p.returncode == 0 and d["summary"]["failed"] == 0 and
          d["summary"]["runs"] >= 4, "examples/batch.toml runs")
    finish()


if __name__ == "__main__":
    main()
