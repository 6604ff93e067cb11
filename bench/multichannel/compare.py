#!/usr/bin/env python3
#===- bench/multichannel/compare.py - Multi-channel against one channel ---===#
#
# Usage: compare.py VEGASC [--calls N] [--iterations N] [--warmup N]
#                   [--events N] [--seed N] [--devices D]
#
# Issue 37's benchmark: each multi-channel example of examples/physics/
# against its single-channel twin in the same file, in the same run and
# with the same settings (equal samples), printing per integrand the
# estimate and its pull against multichannel_refs.py's quadrature, the
# error, the error times the square root of the CPU seconds (the devices'
# busy time in the JSON), the unweighting efficiency of --events
# unweighted events (where the file has an event record) and the channel
# weights alpha reached; then the ratios against the targets: an error at
# least 3x smaller on the Dalitz plot and the anti-diagonal, and on the
# line shape an efficiency at least 2x the Breit-Wigner map's at
# Gamma = 4 MeV and at least 0.85 at the physical width.
#
#===----------------------------------------------------------------------===#
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tests", "integration"))
import multichannel_refs as refs  # noqa: E402

PHYSICS = os.path.join(ROOT, "examples", "physics")
# name: (file, multi-channel integrand, twin, --param list, reference)
CASES = {
    "line shape, Gamma = 2.4952": (
        "zgamma_lineshape.vf", "lineshape", "lineshape_bw", [],
        lambda: refs.lineshape()[0]),
    "line shape, Gamma = 0.004": (
        "zgamma_lineshape.vf", "lineshape", "lineshape_bw", ["gz=0.004"],
        lambda: refs.lineshape(0.004)[0]),
    "Dalitz, phi + K*": (
        "dalitz_two_resonances.vf", "dalitz", "dalitz_flat", [],
        lambda: refs.dalitz()[0]),
    "anti-diagonal peaks": (
        "antidiagonal_peaks.vf", "peaks", "antidiagonal_plain", [],
        lambda: refs.antidiagonal()[0]),
}


class Runner:
    def __init__(self, o, workdir):
        self.o, self.workdir = o, workdir

    def vegasc(self, path, integrand, params):
        """One run: (the JSON document, vegasc's output) or (None, why)."""
        out = os.path.join(self.workdir, "r.json")
        o = self.o
        args = [o.vegasc, path, "--integrand", integrand, "-q", "--seed",
                str(o.seed), "--calls", str(o.calls), "--iterations",
                str(o.iterations), "--warmup", str(o.warmup), "--devices",
                o.devices, "--json", out]
        for p in params:
            args += ["--param", p]
        with open(path) as f:
            has_record = f"integrand {integrand}_event(" in f.read()
        if o.events and has_record:
            args += ["--events", str(o.events), "--events-out",
                     os.path.join(self.workdir, "events.lhe")]
        env = dict(os.environ, VF_CACHE_DIR=os.path.join(self.workdir, "c"))
        p = subprocess.run(args, capture_output=True, text=True, env=env)
        if p.returncode != 0:
            return None, p.stderr
        with open(out) as f:
            return json.load(f), p.stdout + p.stderr

    def run(self, file, integrand, params):
        """The run's figures, or a string saying why there are none."""
        path = os.path.join(PHYSICS, file)
        doc, text = self.vegasc(path, integrand, params)
        if doc is None:
            return "failed: " + text.strip().splitlines()[-1]
        res = doc["result"]
        eff = re.search(r"efficiency ([0-9.e+-]+)", text)
        return {
            "mean": res["mean"], "error": res["error"],
            "samples": res["evaluations"],
            "cpu_s": sum(d["busy_s"] for d in doc["devices"]),
            "efficiency": float(eff.group(1)) if eff else None,
            "alpha": [(c["name"], c["alpha"])
                      for c in doc.get("channels", [])],
        }


def row(label, integrand, r, exact):
    if isinstance(r, str):
        print(f"  {label:6} {integrand:20} {r}")
        return
    pull = (r["mean"] - exact) / r["error"] if r["error"] else math.inf
    eff = "-" if r["efficiency"] is None else f"{r['efficiency']:.3f}"
    alpha = " ".join(f"{n}={a:.3f}" for n, a in r["alpha"]) or "-"
    print(f"  {label:6} {integrand:20} {r['mean']:.10g} +- {r['error']:.3g}"
          f" (pull {pull:+.2f}), {r['samples']} samples,"
          f" err*sqrt(cpu s) {r['error'] * math.sqrt(r['cpu_s']):.3g},"
          f" efficiency {eff}, alpha {alpha}")


def ratios(name, multi, twin):
    """The targets of issue 37 on the figures both runs have."""
    if isinstance(multi, str) or isinstance(twin, str):
        print("  ratios: need both runs")
        return
    gain = twin["error"] / multi["error"]
    cost = (twin["error"] * math.sqrt(twin["cpu_s"])) / \
        (multi["error"] * math.sqrt(multi["cpu_s"]))
    line = f"  error ratio (twin / multi) {gain:.2f}x, " \
           f"error*sqrt(cpu) ratio {cost:.2f}x"
    if name.startswith("line shape"):
        e1, e0 = multi["efficiency"], twin["efficiency"]
        if e1 is not None and e0 is not None:
            line += f", efficiency ratio {e1 / e0:.2f}x"
            target = "efficiency >= 0.85" if "2.4952" in name else \
                "efficiency ratio >= 2"
            met = e1 >= 0.85 if "2.4952" in name else e1 >= 2 * e0
            line += f" (target {target}: {'met' if met else 'NOT met'})"
    else:
        line += f" (target >= 3x: {'met' if gain >= 3 else 'NOT met'})"
    print(line)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("vegasc")
    ap.add_argument("--calls", type=int, default=100000)
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--events", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--devices", default="cpu:1")
    o = ap.parse_args()
    print(f"calls {o.calls}, {o.warmup} warm-up + {o.iterations} iterations,"
          f" seed {o.seed}, devices {o.devices}, {o.events} events")
    with tempfile.TemporaryDirectory() as wd:
        runner = Runner(o, wd)
        for name, (file, multi, twin, params, reference) in CASES.items():
            exact = reference()
            print(f"{name} ({file}, reference {exact:.12g})")
            m = runner.run(file, multi, params)
            t = runner.run(file, twin, params)
            row("multi", multi, m, exact)
            row("single", twin, t, exact)
            ratios(name, m, t)


if __name__ == "__main__":
    main()
