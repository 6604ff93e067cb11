#!/usr/bin/env python3
#===- tests/integration/batch_scan.py - A scan's seeds and its wide CSV ---===#
#
# Usage: batch_scan.py VEGASC
#
# A TOML scan (docs/user-guide.md, "Seeds of a scan"):
#  1. each point runs with its own seed, the documented pointSeed(seed,
#     index) (the guide's Python lines, copied below): a 21-point scan of
#     f = 1 + a x0, whose integral 1 + a/2 is known at every point, has
#     sum(pull^2) within chi2_21's 0.1%-99.9% quantiles (6.45 to 46.8), and
#     its pulls are not coherent (not all of one sign, neighbours not
#     correlated); with seeds = "same" every point draws the same samples
#     (the map and the strata are held, alpha = beta = 0, so that the
#     points differ only in a), and the pulls are one pull 21 times;
#  2. the run is reproducible: again, on another number of threads, the
#     CSV file is the same bytes; a point reruns alone with its seed;
#  3. the wide CSV (the default with a scan): a row per point, the scanned
#     parameter, value and error per component, chi2/dof, Q, the
#     covariance's upper triangle, the derived item r = f[1] / f[0] and its
#     error, the seed; numbers the JSON's bitwise;
#  4. seeds = [...] gives each point its listed seed; csv_layout = "long"
#     keeps the row-per-component table; mistakes in both keys are
#     located errors (exit 1).
#
#===----------------------------------------------------------------------===#
import csv
import math
import os
import sys

from vftest import check, expect, finish, vegasc, workdir, write_source

F = """param a = 1
integrand f(x in [0, 1]^2) -> [2] {
    return [1 + a * x[0], x[0] * x[1]]
}
derived r = f[1] / f[0]
"""

SCAN = """[defaults]
calls = 4000
iterations = 4
warmup = 2
seed = 7
alpha = 0
beta = 0
devices = "{devices}"
csv = "{csv}"
{extra}
[[run]]
name = "line"
file = "{file}"
scan = {{ a = {{ from = 0.1, to = 2.1, steps = 21 }} }}
"""

M63 = (1 << 63) - 1


def mix(x):
    """SplitMix64's finaliser modulo 2^63 (docs/user-guide.md)."""
    x &= M63
    x ^= x >> 30
    x = (x * 0xbf58476d1ce4e5b9) & M63
    x ^= x >> 27
    x = (x * 0x94d049bb133111eb) & M63
    return x ^ (x >> 31)


def point_seed(seed, index):
    return mix((mix(seed) + index) & M63)


def batch(exe, name, file, devices="cpu:2", extra=""):
    """Runs the scan; its CSV rows, the JSON document and the CSV's text."""
    path = os.path.join(workdir(), name + ".csv")
    toml = os.path.join(workdir(), name + ".toml")
    with open(toml, "w") as f:
        f.write(SCAN.format(devices=devices, csv=path, file=file,
                            extra=extra))
    r = vegasc(exe, [toml, "-q"])
    if not check(r.rc == 0 and r.doc, f"{name}: the batch runs"):
        print(r)
        finish()
    with open(path) as f:
        text = f.read()
    return list(csv.DictReader(text.splitlines())), r.doc, text


def pulls(rows):
    return [(float(r["value_0"]) - (1 + float(r["a"]) / 2)) /
            float(r["error_0"]) for r in rows]


def lag1(p):
    """The correlation of neighbouring points' pulls."""
    m = sum(p) / len(p)
    num = sum((p[i] - m) * (p[i + 1] - m) for i in range(len(p) - 1))
    return num / sum((x - m) ** 2 for x in p)


def wide_layout(rows, doc):
    cols = ["run", "a", "value_0", "error_0", "value_1", "error_1",
            "chi2_dof", "Q", "cov_0_0", "cov_0_1", "cov_1_1", "derived.r",
            "derived.r.error", "seed", "status", "message"]
    check(list(rows[0].keys()) == cols,
          f"wide CSV: its columns ({list(rows[0].keys())})")
    check(len(rows) == 21 and all(r["status"] == "ok" for r in rows) and
          [float(r["a"]) for r in rows] ==
          [round(0.1 * (k + 1), 15) for k in range(21)],
          "wide CSV: a row per point, the scanned value first")
    same = True
    for r, j in zip(rows, doc["runs"]):
        res = j["result"]
        same &= [float(r["value_0"]), float(r["value_1"])] == res["mean"]
        same &= [float(r["error_0"]), float(r["error_1"])] == res["error"]
        same &= float(r["chi2_dof"]) == res["chi2_dof"]
        same &= float(r["Q"]) == res["Q"]
        cov = res["covariance"]
        same &= [float(r["cov_0_0"]), float(r["cov_0_1"]),
                 float(r["cov_1_1"])] == [cov[0][0], cov[0][1], cov[1][1]]
        same &= int(r["seed"]) == j["settings"]["seed"]
        d = res["derived"][0]
        same &= d["name"] == "r" and [float(r["derived.r"]),
                                      float(r["derived.r.error"])] == \
            [d["mean"], d["error"]]
    check(same, "wide CSV: every number the JSON's, bit for bit")


def main():
    exe = sys.argv[1]
    f = write_source("flat", F)
    rows, doc, text = batch(exe, "scan", f)
    wide_layout(rows, doc)

    seeds = [int(r["seed"]) for r in rows]
    check(seeds == [point_seed(7, k) for k in range(21)] and
          len(set(seeds)) == 21,
          "per-point seeds: pointSeed(7, index), all different")
    p = pulls(rows)
    s = sum(x * x for x in p)
    check(6.45 < s < 46.8, f"sum(pull^2) = {s:.2f}: within chi2_21's "
                           f"0.1%-99.9% quantiles (6.45, 46.8)")
    check(min(p) < 0 < max(p) and abs(lag1(p)) < 0.75,
          f"pulls not coherent: signs mixed, neighbour correlation "
          f"{lag1(p):.2f}")

    again, _, text2 = batch(exe, "again", f, devices="cpu:1")
    check(text2 == text, "reproducible: the same CSV, byte for byte, again "
                         "and on 1 thread instead of 2")
    k = 12
    one = vegasc(exe, [f, "-q", "--param", f"a={rows[k]['a']}", "--seed",
                       seeds[k], "--calls", 4000, "--iterations", 4,
                       "--warmup", 2, "--alpha", 0, "--beta", 0])
    check(one.rc == 0 and one.doc["result"]["mean"] == doc["runs"][k]
          ["result"]["mean"], "a point reruns alone with its seed, bitwise")

    same, _, _ = batch(exe, "same", f, extra='seeds = "same"')
    ps = pulls(same)
    check({int(r["seed"]) for r in same} == {7},
          'seeds = "same": every point runs with the run\'s seed')
    check(max(ps) - min(ps) < 1e-9 * max(map(abs, ps)),
          f'seeds = "same": the same pull at every point, coherent '
          f'({min(ps):.6f} to {max(ps):.6f})')

    listed = os.path.join(workdir(), "listed.toml")
    with open(listed, "w") as fh:
        fh.write(f"""[defaults]
calls = 1000
iterations = 2
csv_layout = "long"
[[run]]
name = "l"
file = "{f}"
scan = {{ a = [1, 2, 3] }}
seeds = [5, 0, 9223372036854775807]
[[run]]
name = "plain"
file = "{f}"
seed = 4
""")
    lcsv = os.path.join(workdir(), "listed.csv")
    r = vegasc(exe, [listed, "-q", "--csv", lcsv])
    with open(lcsv) as fh:
        lrows = list(csv.DictReader(fh))
    check(r.rc == 0 and [x["seed"] for x in lrows] ==
          ["5", "5", "0", "0", "9223372036854775807",
           "9223372036854775807", "4", "4"] and
          [x["component"] for x in lrows[:2]] == ["0", "1"],
          'seeds = [...]: the listed seeds; csv_layout = "long": a row per '
          'component; a run without a scan keeps its seed')

    bad = os.path.join(workdir(), "bad.toml")
    with open(bad, "w") as fh:
        fh.write(f"""[defaults]
seeds = [1, 2]
csv_layout = "tall"
[[run]]
file = "{f}"
scan = {{ a = [1, 2, 3] }}
seeds = [1, 2]
[[run]]
file = "{f}"
seeds = "each"
""")
    expect(exe, [bad], 1, "bad seeds and csv_layout",
           r"bad\.toml:2:9: error: 'seeds' must be .*a list of seeds "
           r"belongs in a \[\[run\]\], got an array",
           r"bad\.toml:3:14: error: 'csv_layout' must be \"wide\" .* got "
           r"\"tall\"",
           r"bad\.toml:7:9: error: 'seeds' lists 2 seeds for 3 scan points",
           r"bad\.toml:10:9: error: 'seeds' must be \"per-point\" .* or a "
           r"list of seeds, one per point, got \"each\"")
    finish()


if __name__ == "__main__":
    main()
