#!/usr/bin/env python3
"""Writes an integrand with N lets: a chain (each uses the one before) or,
with --unused, N lets none of which is used.

Usage: many_lets.py N [--unused] > FILE.vf
"""
import sys

n = int(sys.argv[1])
unused = "--unused" in sys.argv[2:]
print("integrand f(x in [0, 1]) {")
if unused:
    for i in range(n):
        print(f"  let u{i} = x")
    print("  return x")
else:
    print("  let a0 = x")
    for i in range(1, n):
        print(f"  let a{i} = a{i - 1} + 1")
    print(f"  return a{n - 1}")
print("}")
