#!/usr/bin/env python3
#===- tests/integration/cli.py - Bad input gets a clear error -------------===#
#
# Usage: cli.py VEGASC
#
# Every mistake a user can make on the command line or in the integrand
# ends with the documented exit code (1: input error or failed run, 2: usage
# error; docs/user-guide.md) and a message that says what is wrong.
#
#===----------------------------------------------------------------------===#
import json
import math
import re
import sys

from vftest import check, expect, finish, vegasc, workdir, write_source

SMALL = ["--calls", 4000, "--iterations", 2, "--warmup", 1, "-q"]


def main():
    exe = sys.argv[1]
    two = write_source("two", "param a = 1\nparam b = 2\n"
                       "integrand f(x in [0, 1]) = a + b * x\n"
                       "integrand g(x in [0, 1]^2) = x[0] * x[1]\n")
    # A working run first, so the failures below are the inputs' fault.
    r = vegasc(exe, [two, "--integrand", "f", "--param", "a=2",
                     "--param", "b=4"] + SMALL)
    check(r.rc == 0 and abs(r.doc["result"]["mean"] - 4.0) < 1e-3,
          "--param a=2 --param b=4: integral of 2 + 4x is 4")

    # --json - puts the document alone on standard output.
    r = vegasc(exe, [two, "--integrand", "g", "--json", "-"] + SMALL[:-1],
               json_out=False)
    try:
        doc = json.loads(r.out)
    except ValueError:
        doc = None
    check(r.rc == 0 and doc is not None and doc["integrand"] == "g",
          "--json -: standard output is exactly the JSON document")
    check("result = " in r.err, "--json -: the result line goes to stderr")

    expect(exe, [two, "--integrand", "h"] + SMALL, 1,
           "unknown integrand", "no integrand named 'h'", r"\bf\b", r"\bg\b")
    expect(exe, [two] + SMALL, 1, "several integrands, none chosen",
           "--integrand")
    expect(exe, [workdir() + "/missing.vf"] + SMALL, 1, "missing file",
           "cannot read", "missing.vf")
    for calls in ("-5", "0", "1"):
        expect(exe, [two, "--integrand", "f", "--calls", calls,
                     "--iterations", 1], 2, f"--calls {calls}", "calls")
    expect(exe, [two, "--integrand", "f", "--iterations", "0"], 2,
           "--iterations 0", "iterations")
    expect(exe, [two, "--integrand", "f", "--param", "bb=1"] + SMALL, 2,
           "unknown parameter", "unknown parameter 'bb'",
           "did you mean 'b'")
    expect(exe, [two, "--integrand", "f", "--param", "a=x"] + SMALL, 2,
           "non-numeric parameter", "NAME=VALUE")
    expect(exe, [two, "--integrand", "f", "--devices", "gpu"] + SMALL, 1,
           "--devices gpu", "GPU")
    expect(exe, [two, "--integrand", "f", "--devices", "cpu:0"] + SMALL, 2,
           "--devices cpu:0", "positive number of threads")
    expect(exe, [two, "--integrand", "f", "--devices", "tpu"] + SMALL, 2,
           "--devices tpu", "expected all, cpu, cpu:N, gpu, gpu:N")
    expect(exe, [two, "--integrand", "f", "--beta", "2"] + SMALL, 2,
           "--beta 2", "--beta must be from 0 to 1")
    expect(exe, [two, "--integrand", "f", "--on-nonfinite=maybe"] + SMALL, 2,
           "--on-nonfinite=maybe", "stop|zero|maybe")

    # The library checks every setting (vf::checkOptions, vf::checkRunPlan)
    # and names it as an option; vegasc names its flag instead, and refuses
    # before compiling (a usage error, exit 2).
    for args, flag in ((["--calls", "1"], "--calls must be a whole number "
                        "of samples from 2"),
                       (["--iterations", "0"], "--iterations must be an "
                        "integer from 1"),
                       (["--warmup", "2000000"], "--warmup must be an "
                        "integer from 0 to 1000000"),
                       (["--alpha", "-1"], "--alpha must be from 0 to 1.5"),
                       (["--beta", "2"], "--beta must be from 0 to 1"),
                       (["--ninc", "1"], "--ninc must be an integer from 2 "
                        "to 100000"),
                       (["--schedule", "dynamic:0"], "--schedule"),
                       (["--schedule", "bogus"], "--schedule.*unknown "
                        "schedule 'bogus'"),
                       (["--on-nonfinite", "maybe"], "--on-nonfinite must "
                        "be \"stop\" or \"zero\""),
                       (["--devices", "cpu:0"], "--devices.*cpu:0")):
        r = expect(exe, [two, "--integrand", "f", "-q"] + args, 2,
                   " ".join(args), flag)
        check("option '" not in r.err,
              f"{' '.join(args)}: the flag is named, not the option")

    # A domain that is empty for the parameter value given at run time.
    dom = write_source("dom", "param b = 1\nintegrand f(x in [0, b]) = x\n")
    expect(exe, [dom, "--param", "b=-1"] + SMALL, 1, "empty domain",
           r"\[0, -1\]", "empty")

    # NaN: log(x - 0.5) is NaN for x < 0.5. The default stops and names the
    # point; the named coordinate must really be one where f is NaN.
    nan = write_source("nan", "integrand f(x in [0, 1]) = log(x[0] - 0.5)\n")
    r = expect(exe, [nan] + SMALL, 1, "NaN integrand", "nan", r"at x = \[",
               "--on-nonfinite=zero")
    m = re.search(r"at x = \[([^\]]*)\]", r.err)
    if check(m is not None, "NaN integrand: message gives the point"):
        x = float(m.group(1))
        check(0 < x < 0.5, f"NaN integrand: x = {x} is where log(x - 0.5) "
                           f"is NaN")
    # --on-nonfinite=zero completes, counts the bad samples (about half of
    # the first, uniform iteration) and reports a finite result.
    r = vegasc(exe, [nan, "--on-nonfinite=zero"] + SMALL)
    if check(r.rc == 0 and r.doc is not None, "--on-nonfinite=zero: exit 0"):
        its = r.doc["iterations"]
        check(all(it["nonfinite"] > 0 for it in its),
              "--on-nonfinite=zero: every iteration reports nonfinite > 0")
        frac = its[0]["nonfinite"] / its[0]["samples"]
        check(0.4 < frac < 0.6, f"--on-nonfinite=zero: first iteration "
                                f"{frac:.2f} non-finite, about half")
        check(r.doc["settings"]["on_nonfinite"] == "zero",
              "--on-nonfinite=zero: recorded in settings")
        check(math.isfinite(r.doc["result"]["mean"]),
              "--on-nonfinite=zero: finite result")
    finish()


if __name__ == "__main__":
    main()
