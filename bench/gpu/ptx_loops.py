#!/usr/bin/env python3
"""The loops of a PTX kernel and the instructions in each, for estimating
what a sample costs (docs/gpu-benchmarks.md).

    vegasc --emit=ptx lepage8.vf > lepage8.ptx
    bench/gpu/ptx_loops.py lepage8.ptx [--entry vf_sample_tiles_gpu]
                           [--trips HEADER=N ...] [--per N]

Splits the entry's body into basic blocks at labels and after branches,
finds each natural loop from its back edge (an edge to a block that
dominates its source; blocks the entry cannot reach are left out), and
prints the loop tree: for every loop its header label, its blocks'
instructions outside inner loops, and a short account of what they do
(shuffles, votes, global and local loads and stores, divisions, calls,
floating-point arithmetic in f64 and in f32, conversions between them).
Without --trips that is all; with them, each loop's body is weighed by
its trip count per execution of the enclosing one (HEADER=N, N may be
fractional). An inner loop not named runs once; an outermost loop not
named (the tile's set-up, say) counts not at all, like the code outside
every loop, so name the loop over the tile's blocks with =1. The
weighted total is divided by --per (say 32, the samples of a block) for
instructions per sample. The counts are PTX instructions, not SASS:
ptxas expands some (a double division, a 64-bit shuffle) and folds
others.
"""

import argparse
import collections
import re
import sys

LABEL = re.compile(r"^\s*(\$?[\w$]+):\s*$")
BRANCH = re.compile(r"\bbra(?:\.uni)?\s+(\$?[\w$]+)\s*;")
KINDS = [
    ("shfl", re.compile(r"\bshfl\.")),
    ("vote/match", re.compile(r"\b(vote|match)\.")),
    ("bar.warp", re.compile(r"\bbar\.warp\.sync")),
    ("ld.global", re.compile(r"\bld\.global")),
    ("st.global", re.compile(r"\bst\.global")),
    ("ld.local", re.compile(r"\bld\.local")),
    ("st.local", re.compile(r"\bst\.local")),
    ("div/rcp", re.compile(r"\b(div|rcp)\.")),
    ("call", re.compile(r"\bcall")),
    # Floating-point arithmetic by precision (--precision f32 should leave
    # the integrand no f64), and the conversions between the two.
    ("f64 arith", re.compile(
        r"\b(add|sub|mul|fma|div|rcp|sqrt|rsqrt|neg|abs|min|max|setp|testp|"
        r"copysign)\.[\w.]*\bf64\b")),
    ("f32 arith", re.compile(
        r"\b(add|sub|mul|fma|div|rcp|sqrt|rsqrt|neg|abs|min|max|setp|testp|"
        r"copysign|ex2|lg2)\.[\w.]*\bf32\b")),
    ("cvt f32/f64", re.compile(r"\bcvt\.(?:\w+\.)*f(?:64\.f32|32\.f64)\b")),
]


def entry_body(text, name):
    """The instruction lines of the first .entry whose name starts with name."""
    m = re.search(r"\.entry\s+(" + re.escape(name) + r"[\w$]*)\s*\(", text)
    if not m:
        sys.exit("ptx_loops: no .entry named %s*" % name)
    start = text.index("{", text.index(")", m.end()))
    depth, i = 0, start
    while True:
        c = text[i]
        depth += c == "{"
        depth -= c == "}"
        if depth == 0:
            break
        i += 1
    return m.group(1), text[start + 1 : i].splitlines()


def statements(lines):
    """The body's statements, a multi-line one (a call's operand list)
    joined into one, comments and directives dropped; labels kept as
    ("label", name)."""
    out, pending = [], ""
    for line in lines:
        code = line.split("//")[0].strip()
        if not code:
            continue
        m = LABEL.match(code)
        if m and not pending:
            out.append(("label", m.group(1)))
            continue
        pending = (pending + " " + code).strip()
        if pending.endswith(";") or pending.endswith("}") or pending == "{":
            if not pending.startswith(".") and pending not in ("{", "}"):
                out.append(("instr", pending))
            pending = ""
    return out


def blocks_of(lines):
    """[(label, [instructions], [branch targets], falls_through)], a block
    ending at every label and after every branch or return (LLVM gives no
    label to the block a loop falls out of)."""
    blocks, label, body, n = [], "entry", [], 0

    def close():
        blocks.append([label, body])

    for kind, text in statements(lines):
        if kind == "label":
            close()
            label, body = text, []
            continue
        body.append(text)
        if BRANCH.search(text) or "ret;" in text:
            close()
            n += 1
            label, body = "%s+%d" % (label.split("+")[0], n), []
    close()
    blocks = [b for b in blocks if b[1] or "+" not in b[0]]
    out = []
    for label, body in blocks:
        targets = [t for l in body for t in BRANCH.findall(l)]
        last = body[-1] if body else ""
        through = not (re.match(r"^bra(\.uni)?\s", last) or "ret;" in last)
        out.append((label, body, targets, through))
    return out


def loops_of(blocks):
    """{header index: set of block indices}: the natural loop of every back
    edge, an edge whose target dominates its source (blocks laid out after
    their loop, a slow path say, branch up without being loops)."""
    index = {b[0]: i for i, b in enumerate(blocks)}
    succs = collections.defaultdict(set)
    preds = collections.defaultdict(set)
    for i, (_, _, targets, through) in enumerate(blocks):
        for t in targets:
            succs[i].add(index[t])
        if through and i + 1 < len(blocks):
            succs[i].add(i + 1)
        for t in succs[i]:
            preds[t].add(i)
    every, work = {0}, [0]
    while work:  # the blocks reachable from the entry
        for t in succs[work.pop()]:
            if t not in every:
                every.add(t)
                work.append(t)
    for i in list(preds):
        preds[i] &= every
    dom = {i: set(every) for i in every}
    dom[0] = {0}
    changed = True
    while changed:
        changed = False
        for i in sorted(every - {0}):
            ps = [dom[p] for p in preds[i]]
            new = (set.intersection(*ps) if ps else set()) | {i}
            if new != dom[i]:
                dom[i], changed = new, True
    loops = collections.defaultdict(set)
    for i in every:
        for h in succs[i]:
            if h in dom[i]:
                body, work = {h, i}, ([i] if i != h else [])
                while work:
                    b = work.pop()
                    for p in preds[b]:
                        if p not in body:
                            body.add(p)
                            work.append(p)
                loops[h] |= body
    return loops


def innermost(loops, inside):
    """The header of the smallest loop for which inside(header, body)
    holds, or None."""
    holders = [h for h, b in loops.items() if inside(h, b)]
    return min(holders, key=lambda h: len(loops[h])) if holders else None


def account(instrs):
    c = collections.Counter()
    for l in instrs:
        for kind, rx in KINDS:
            if rx.search(l):
                c[kind] += 1
    return ", ".join("%d %s" % (n, k) for k, n in c.items() if n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ptx")
    ap.add_argument("--entry", default="vf_sample_tiles_gpu")
    ap.add_argument("--trips", nargs="*", default=[], metavar="HEADER=N")
    ap.add_argument("--per", type=float, default=1.0)
    args = ap.parse_args()
    try:
        text = open(args.ptx).read()
    except OSError as e:
        sys.exit("ptx_loops: cannot read %s: %s" % (args.ptx, e.strerror))
    name, lines = entry_body(text, args.entry)
    blocks = blocks_of(lines)
    loops = loops_of(blocks)
    parent = {h: innermost(loops, lambda g, b: g != h and loops[h] < b)
              for h in loops}
    own = collections.defaultdict(list)
    for i, (_, body, _, _) in enumerate(blocks):
        own[innermost(loops, lambda g, b: i in b)].extend(body)
    headers = {blocks[h][0] for h in loops}
    trips = {}
    for t in args.trips:
        k, eq, v = t.partition("=")
        try:
            trips[k] = float(v) if eq else None
        except ValueError:
            trips[k] = None
        if trips[k] is None or trips[k] < 0:
            sys.exit("ptx_loops: --trips %s: write HEADER=N with N a number "
                     ">= 0" % t)
        if k not in headers:
            sys.exit("ptx_loops: --trips %s: %s heads no loop of %s; its "
                     "loops: %s" % (t, k, name, " ".join(sorted(headers))))

    def depth(h):
        return 0 if h is None else 1 + depth(parent[h])

    def weight(h):
        if h is None:
            return 0.0  # the code outside every loop: once per tile
        p = parent[h]
        if p is None:  # a loop of the tile: only the one named counts
            return trips.get(blocks[h][0], 0.0)
        return trips.get(blocks[h][0], 1.0) * weight(p)

    kinds = collections.Counter()
    total = sum(len(b[1]) for b in blocks)
    print("%s: %d PTX instructions, %d blocks, %d loops"
          % (name, total, len(blocks), len(loops)))
    weighted = 0.0
    for h in sorted(loops):
        n = len(own[h])
        w = weight(h)
        weighted += n * w
        for l in own[h]:
            for kind, rx in KINDS[-3:]:
                kinds[kind] += w * bool(rx.search(l))
        print("%s%-14s %5d own%s  %s" % ("  " * depth(h), blocks[h][0], n,
              "  x%g" % w if args.trips else "", account(own[h])))
    print("outside loops %d  %s" % (len(own[None]), account(own[None])))
    if args.trips:
        print("of them per outermost trip / %g: " % args.per + ", ".join(
            "%.1f %s" % (kinds[k] / args.per, k) for k, _ in KINDS[-3:]))
        print("weighted per outermost trip / %g = %.1f"
              % (args.per, weighted / args.per))


if __name__ == "__main__":
    main()
