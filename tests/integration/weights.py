#!/usr/bin/env python3
"""Weight lists accumulated on CPU threads.

    weights.py VEGASC

A list w(k in 0..5: f * (1 + k / 10)) on f = x0 x1 + 1 (integral 5/4):
each entry within 5 sigma of (1 + k/10) 5/4 and, being exactly
proportional to f per sample, (1 + k/10) times the central result to
1e-12; the JSON's entries, errors and envelope, and the table's line;
bitwise the same lists on 1 and 3 threads, under a dynamic schedule and
resumed from a checkpoint after 2 of the 4 iterations, and the integral
bitwise that of the integrand without the list. More
entries than the sampler holds (16 with the histograms) are refused,
naming the limit.
"""
import os
import sys

from vftest import check, expect, finish, vegasc, workdir, write_source

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
    check([w["name"] for w in lists] == ["w"], "one list, named w")
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


def main(exe):
    lists = source("lists", "    weights w(k in 0..5: f * (1 + k / 10))\n")
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
    big = source("big", "    weights w(k in 0..17: f * k)\n")
    expect(exe, [big] + base + ["--devices", "cpu:1"], 1,
           "17 entries", r"17 weight-list entries",
           r"at most 16 of them together")


if __name__ == "__main__":
    main(sys.argv[1])
    finish()
