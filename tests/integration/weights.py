#!/usr/bin/env python3
"""Weight lists accumulated on CPU threads.

    weights.py VEGASC [MPIEXEC]

A list w(k in 0..5: f * (1 + k / 10)) on f = x0 x1 + 1 (integral 5/4):
each entry within 5 sigma of (1 + k/10) 5/4 and, being exactly
proportional to f per sample, (1 + k/10) times the central result to
1e-12; the JSON's entries, errors and envelope, and the table's line;
bitwise the same lists on 1 and 3 threads, under a dynamic schedule and
resumed from a checkpoint after 2 of the 4 iterations, and the integral
bitwise that of the integrand without the list. Each entry's ratio to
the central value is 1 + k/10 to 1e-12 with an error below 1e-12 of it
(exactly proportional: no spread), while the entry's own error is the
central one scaled; for a variation that moves with x, the ratio's error
is below the entry's own relative error (the correlation counted).
1000 entries with two histograms (1 + k/1000 times f): bitwise on 1 and
2 threads, as task parts merged (--task-part/--task-merge) and on 2 MPI
ranks (given MPIEXEC), each entry (1 + k/1000) times the central value
to 1e-12;
1025 entries are refused, naming the limit. An entry that is not finite
where x0 < 1/2 adds nothing there: its value is the integral over
x0 > 1/2 (11/16), its ratio 11/20, while the central value keeps its
bits.
"""
import os
import sys

from vftest import check, expect, finish, mpirun, task_parts, vegasc, \
    workdir, write_source

EXACT = 1.25


def source(name, lists):
    return write_source(name, "integrand f(x in [0, 1]^2) {\n"
                        "    let f = x[0] * x[1] + 1\n" + lists +
                        "    return f\n}\n")


def fingerprint(doc):
    res = doc["result"]
    return (res["mean"], res["error"], doc.get("weight_lists"),
            [(it["mean"], it["error"]) for it in doc["iterations"]])


def check_entries(doc):
    lists = doc["weight_lists"]
    check([w["name"] for w in lists] == ["w", "v"], "the lists w and v")
    entries = lists[0]["entries"]
    check(len(entries) == 5, "five entries (0..5 is half-open)")
    central = doc["result"]["mean"]
    central = central[0] if isinstance(central, list) else central
    for k, e in enumerate(entries):
        factor = 1 + k / 10
        check(abs(e["value"] - factor * EXACT) < 5 * e["error"],
              f"entry {k} within 5 sigma of {factor} * 5/4")
        check(abs(e["value"] - factor * central) <= 1e-12 * abs(central),
              f"entry {k} is {factor} times the central result")
    values = [e["value"] for e in entries]
    env = lists[0]["envelope"]
    check(env == {"low": min(values), "high": max(values)},
          "the envelope is the entries' least and largest")
    central_error = doc["result"]["error"]
    central_error = (central_error[0] if isinstance(central_error, list)
                     else central_error)
    for k, (r, e) in enumerate(zip(lists[0]["ratios"],
                                   lists[0]["ratio_errors"])):
        factor = 1 + k / 10
        check(abs(r - factor) <= 1e-12 * factor, f"ratio {k} is {factor}")
        check(0 <= e <= 1e-12 * factor, f"ratio {k}'s error below 1e-12")
        check(abs(entries[k]["error"] / (factor * central_error) - 1) < 0.05,
              f"entry {k}'s own error is the central one scaled")


def check_correlated(doc):
    """Entry k = f (1 + k (x0 - 1/2) / 10): its ratio's error counts the
    correlation with f, so it is below the entry's relative error."""
    lists = doc["weight_lists"]
    v = lists[1]
    check(v["name"] == "v" and len(v["ratios"]) == 3, "the list v")
    for k in (1, 2):
        entry = v["entries"][k]
        rel = entry["error"] / entry["value"]
        check(0 < v["ratio_errors"][k] < 0.5 * rel,
              f"v[{k}]: the ratio's error {v['ratio_errors'][k]:.3g} below "
              f"half the entry's relative error {rel:.3g}")
        check(abs(v["ratios"][k] - entry["value"] / lists[0]["entries"][0][
            "value"]) < 1e-9, f"v[{k}]: the ratio is the entry over f")


def check_nonfinite(exe, base, ref):
    """Entry 1 is NaN where x0 < 1/2 (log of a negative number)."""
    nf = source("nonfinite", "    weights n(k in 0..2: "
                "f * (1 + k * 0 * log(x[0] - 0.5 + 1 - k)))\n")
    r = vegasc(exe, [nf] + base + ["--devices", "cpu:1"])
    if not check(r.rc == 0 and r.doc, "a non-finite entry: the run"):
        print(r)
        return
    check(fingerprint(r.doc)[:2] == fingerprint(ref.doc)[:2],
          "a non-finite entry: the integral keeps its bits")
    n = r.doc["weight_lists"][0]
    e0, e1 = n["entries"]
    check(abs(e0["value"] - EXACT) < 5 * e0["error"], "entry 0 is f")
    check(abs(e1["value"] - 11 / 16) < 5 * e1["error"],
          "entry 1 integrates over x0 > 1/2 only (11/16)")
    check(abs(n["ratios"][1] - 11 / 20) < 5 * n["ratio_errors"][1],
          "entry 1's ratio within 5 sigma of 11/20")


def check_many(exe, base, mpiexec):
    """1000 entries after two histograms: 2 * 1000 + 1 cells of lists."""
    many = source("many", "    hist h1(x[0], 0, 1, 4)\n"
                  "    hist h2(x[1], 0, 1, 3)\n"
                  "    weights a(k in 0..600: f * (1 + k / 1000))\n"
                  "    weights b(k in 600..1000: f * (1 + k / 1000))\n")
    one = vegasc(exe, [many] + base + ["--devices", "cpu:1"])
    two = vegasc(exe, [many] + base + ["--devices", "cpu:2"])
    if not check(one.rc == 0 and two.rc == 0 and one.doc and two.doc,
                 "1000 entries: both runs"):
        print(one)
        print(two)
        return
    check(fingerprint(two.doc) == fingerprint(one.doc),
          "1000 entries: 2 threads bitwise 1 thread")
    check(one.doc["histograms"] == two.doc["histograms"],
          "1000 entries: the histograms bitwise too")
    steps = base[base.index("--iterations") + 1] + base[
        base.index("--warmup") + 1]
    merged = task_parts(exe, [many] + base, steps, "many")
    check(merged is not None and fingerprint(merged)[:3] ==
          fingerprint(one.doc)[:3],
          "1000 entries: task parts merged bitwise 1 thread")
    if mpiexec:
        ranks = mpirun(mpiexec, exe, [many] + base + ["--devices", "cpu:1"])
        check(ranks is not None and
              fingerprint(ranks) == fingerprint(one.doc),
              "1000 entries: 2 MPI ranks bitwise 1 thread")
    central = one.doc["result"]["mean"]
    central = central[0] if isinstance(central, list) else central
    values = [e["value"] for w in one.doc["weight_lists"]
              for e in w["entries"]]
    check(len(values) == 1000, "1000 entries over the two lists")
    worst = max(abs(v - (1 + k / 1000) * central) / ((1 + k / 1000) * central)
                for k, v in enumerate(values))
    check(worst <= 1e-12, f"each entry (1 + k/1000) times the central value "
          f"to 1e-12 (worst {worst:.3g})")


def main(exe, mpiexec=None):
    lists = source("lists", "    weights w(k in 0..5: f * (1 + k / 10))\n"
                   "    weights v(k in 0..3: f * (1 + k * (x[0] - 0.5) / 10))\n")
    plain = source("plain", "")
    base = ["-q", "--seed", 7, "--calls", 20000, "--iterations", 4,
            "--warmup", 1]
    one = vegasc(exe, [lists] + base + ["--devices", "cpu:1"])
    three = vegasc(exe, [lists] + base + ["--devices", "cpu:3"])
    dyn = vegasc(exe, [lists] + base +
                 ["--devices", "cpu:3", "--schedule", "dynamic:1"])
    ref = vegasc(exe, [plain] + base + ["--devices", "cpu:1"])
    state = os.path.join(workdir(), "weights.ckpt")
    half = base[:base.index("--iterations")] + ["--iterations", 2, "--warmup",
                                                1]
    vegasc(exe, [lists] + half + ["--checkpoint", state], json_out=False)
    resumed = vegasc(exe, [lists] + base + ["--resume", state])
    runs = (one, three, dyn, ref, resumed)
    if not check(all(r.rc == 0 and r.doc for r in runs), "the five runs"):
        for r in runs:
            print(r)
        return
    check_entries(one.doc)
    check_correlated(one.doc)
    check(fingerprint(three.doc) == fingerprint(one.doc),
          "3 threads: bitwise 1 thread's result and lists")
    check(fingerprint(dyn.doc) == fingerprint(one.doc),
          "dynamic:1: bitwise 1 thread's result and lists")
    check(fingerprint(resumed.doc) == fingerprint(one.doc),
          "resumed after 2 iterations: bitwise the uninterrupted run")
    check(fingerprint(one.doc)[:2] == fingerprint(ref.doc)[:2],
          "the integral bitwise that of the integrand without the list")
    check("weight_lists" not in ref.doc, "no lists, no weight_lists")
    table = vegasc(exe, [lists] + base + ["--devices", "cpu:1"],
                   json_out=False)
    check(table.rc == 0 and
          any(line.startswith("weights w: central ") and "envelope [" in
              line and "; entries " in line
              for line in table.out.splitlines()),
          "the table's line for w")
    check_many(exe, base, mpiexec)
    check_nonfinite(exe, base, ref)
    big = source("big", "    weights a(k in 0..1000: f * k)\n"
                 "    weights b(k in 0..25: f * k)\n")
    expect(exe, [big] + base + ["--devices", "cpu:1"], 1,
           "1025 entries", r"have 1025 entries so far",
           r"at most 1024 over all its lists")


if __name__ == "__main__":
    main(*sys.argv[1:3])
    finish()
