#!/usr/bin/env python3
"""Runs `vegasc --eval` on every source of known_integrals.toml at the
midpoint of its domain and prints `NAME: value [value...]`, one line each.

Usage: eval_known_integrals.py TOML VEGASC OUTDIR
Domains are read from the integrand header (`x in [lo, hi]^d * ...`); bounds
may use numbers and pi. Exits 1 if any vegasc run fails.
"""
import math
import os
import re
import subprocess
import sys
import tomllib

HEADER = re.compile(r"integrand\s+\w+\s*\(\s*\w+\s+in\s+(.*?)\)\s*(->|=)", re.S)
INTERVAL = re.compile(r"\[([^\],]+),([^\]]+)\](?:\s*\^\s*(\d+))?")


def midpoint(source):
    domain = HEADER.search(source).group(1)
    point = []
    for lo, hi, power in INTERVAL.findall(domain):
        env = {"pi": math.pi, "e": math.e}
        mid = (eval(lo, env) + eval(hi, env)) / 2
        point += [mid] * int(power or 1)
    return point


def main():
    toml_path, vegasc, out_dir = sys.argv[1:4]
    with open(toml_path, "rb") as f:
        table = tomllib.load(f)
    os.makedirs(out_dir, exist_ok=True)
    failed = False
    for name, entry in table.items():
        if not isinstance(entry, dict) or "source" not in entry:
            continue
        path = os.path.join(out_dir, name + ".vf")
        with open(path, "w") as out:
            out.write(entry["source"])
        at = ",".join(repr(v) for v in midpoint(entry["source"]))
        run = subprocess.run([vegasc, "--eval", path, "--at", at],
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(f"{name}: FAILED ({run.returncode}): {run.stderr.strip()}")
            failed = True
            continue
        print(f"{name}: " + " ".join(run.stdout.split()))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
