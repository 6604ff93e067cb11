#!/usr/bin/env python3
"""Writes each `source = \"\"\"...\"\"\"` of known_integrals.toml to OUTDIR/NAME.vf.

Usage: extract_known_integrals.py TOML OUTDIR
Prints the number of sources written, so a test can check that none was lost.
"""
import os
import sys
import tomllib


def main():
    toml_path, out_dir = sys.argv[1], sys.argv[2]
    with open(toml_path, "rb") as f:
        table = tomllib.load(f)
    os.makedirs(out_dir, exist_ok=True)
    count = 0
    for name, entry in table.items():
        if not isinstance(entry, dict) or "source" not in entry:
            continue
        with open(os.path.join(out_dir, name + ".vf"), "w") as out:
            out.write(entry["source"])
        count += 1
    print(f"extracted {count} sources")


if __name__ == "__main__":
    main()
