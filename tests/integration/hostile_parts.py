#!/usr/bin/env python3
#===- tests/integration/hostile_parts.py - Forged task parts --------------===#
#
# Usage: hostile_parts.py VEGASC
#
# Task parts forged the way a script (or a faulty node, or wrong bytes from
# an engine) would make them, their word count and FNV-1a checksum
# recomputed so that only the contents are wrong (issue 36, item 3): the
# words cut with a matching count, set to the bits of 1e300, inf, NaN or
# -1, a tile's counts and the header's word count set to 2^63, a NaN or
# negative busy time, a mask that is not the part's range. Each is merged
# by `vegasc --task-merge`, which must exit 1 with a message naming the
# forged file, write no next state, and neither crash nor trip a sanitizer.
# Also (item 12): the merge of a warm-up iteration, and --task-result on a
# state with no measured iteration, say there is no result yet (exit 0:
# the state is fine) instead of printing nan, and a merge without parts is
# a usage error saying so.
#
#===----------------------------------------------------------------------===#
import math
import os
import re
import struct
import subprocess
import sys

from vftest import check, finish, workdir, write_source

EXE = None
TIMEOUT = 60
SETTINGS = ["--seed", "3", "--calls", "40000", "--iterations", "2",
            "--warmup", "1"]
HEADER = struct.Struct("<8sI7Q")  # magic, version, hash, passes (1),
                                  # groups, begin, end, busy bits, word count
CRASH = re.compile(r"Segmentation|Aborted|core dumped|Sanitizer|"
                   r"runtime error:|terminate called|LLVM ERROR")


def run(args):
    env = dict(os.environ, VF_CACHE_DIR=os.path.join(workdir(), "cache"))
    try:
        p = subprocess.run([EXE] + [str(a) for a in args], env=env,
                           capture_output=True, text=True, timeout=TIMEOUT,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return -1000, "", "timed out"
    return p.returncode, p.stdout, p.stderr


def path(name):
    return os.path.join(workdir(), name)


def fnv1a(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h


def read_part(name):
    """(header fields as a list, the words) of a part file."""
    with open(name, "rb") as f:
        data = f.read()
    fields = list(HEADER.unpack_from(data))
    count = fields[-1]
    words = list(struct.unpack_from(f"<{count}Q", data, HEADER.size))
    return fields, words


def write_part(name, fields, words, count=None):
    """A part with its word count (unless given) and checksum recomputed."""
    fields = list(fields)
    fields[-1] = len(words) if count is None else count
    body = HEADER.pack(*fields) + struct.pack(f"<{len(words)}Q", *words)
    with open(name, "wb") as f:
        f.write(body + struct.pack("<Q", fnv1a(body)))
    return name


def bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def merge(src, state, parts, out):
    return run([src] + SETTINGS + ["--task-merge"] + parts +
               ["--state", state, "--out", out])


def refused(src, state, forged, other, what, needle):
    """Merges the forged part with the valid other one: exit 1, a message
    naming the forged file and matching `needle`, no crash, no state."""
    out = path("next.forged")
    if os.path.exists(out):
        os.remove(out)
    rc, _, err = merge(src, state, [forged, other], out)
    ok = check(rc == 1, f"{what}: exit 1 (got {rc})")
    ok &= check(rc >= 0 and not CRASH.search(err),
                f"{what}: no crash or sanitizer report")
    ok &= check(f"part '{forged}'" in err, f"{what}: the message names the "
                "part")
    ok &= check(re.search(needle, err) is not None,
                f"{what}: message matches /{needle}/")
    ok &= check(not os.path.exists(out), f"{what}: no next state written")
    if not ok:
        print(f"  stderr: {err[-1500:]}")


def forgeries(src, state, p0, p1):
    fields, words = read_part(p0)
    f = lambda tag: path(f"forged.{tag}")
    cut = words[:min(1000, len(words) // 2)]
    refused(src, state, write_part(f("cut"), fields, cut), p1,
            f"words cut to {len(cut)} with a matching count",
            r"holds \d+ words, its groups need \d+")
    refused(src, state, write_part(f("padded"), fields, words + [0]), p1,
            "one word too many", r"holds \d+ words, its groups need \d+")
    for name, value in (("1e300", 1e300), ("inf", math.inf),
                        ("nan", math.nan), ("minus1", -1.0)):
        refused(src, state,
                write_part(f(name), fields,
                           words[:1] + [bits(value)] * (len(words) - 1)), p1,
                f"words set to the bits of {name}",
                r"are not those of its samples")
    huge = 1 << 63
    last = list(words)
    last[2] = huge  # the first tile's last hypercube
    refused(src, state, write_part(f("last"), fields, last), p1,
            "a tile's last hypercube of 2^63", r"are not those of its samples")
    tile = list(words)
    tile[3] = huge  # the first tile's non-finite count
    refused(src, state, write_part(f("nonfinite"), fields, tile), p1,
            "a tile's non-finite count of 2^63", r"non-finite samples of")
    refused(src, state, write_part(f("count"), fields, words, count=huge), p1,
            "a word count of 2^63", r"does not match its contents")
    for name, value in (("nan", math.nan), ("negative", -5.0)):
        busy = list(fields)
        busy[7] = bits(value)
        refused(src, state, write_part(f(f"busy-{name}"), busy, words), p1,
                f"a busy time of {name} seconds", r"busy time")
    mask = list(words)
    mask[0] = (1 << 64) - 1
    refused(src, state, write_part(f("mask"), fields, mask), p1,
            "a mask that is not the part's range",
            r"does not hold its group range")


def main():
    global EXE
    EXE = sys.argv[1]
    src = write_source("parts", "integrand f(x in [0, 1]^2) = "
                       "1 + x[0] * x[1]^2\n")
    s0, s1 = path("s0"), path("s1")
    rc, _, err = run([src] + SETTINGS + ["--task-init", s0])
    if not check(rc == 0, "initial state written"):
        print(err)
        finish()

    def parts_of(state, tag):
        names = []
        for i in range(2):
            names.append(path(f"{tag}.p{i}"))
            rc, _, err = run([src] + SETTINGS + ["--task-part", f"{i}/2",
                                                 "--state", state, "--out",
                                                 names[-1]])
            check(rc == 0, f"{tag}: part {i} computed")
            if rc:
                print(err)
        return names

    # Item 12: no result before the first merge, nor after a warm-up one.
    rc, out, err = run([src] + SETTINGS + ["--task-result", "--state", s0])
    check(rc == 0 and "nan" not in out.lower() and "no result yet" in out,
          f"the initial state's result: none yet, no nan (exit {rc})")
    if "no result yet" not in out:
        print(f"  stdout: {out}\n  stderr: {err}")
    warm = parts_of(s0, "warm")
    rc, out, err = merge(src, s0, warm, s1)
    check(rc == 0, f"warm-up merge: exit 0, the state advanced (got {rc})")
    check("nan" not in out.lower(), "warm-up merge: no nan printed")
    check("no result yet" in out and "warm-up iteration" in out,
          "warm-up merge: says the iteration was a warm-up one and there "
          "is no result yet")
    if rc or "nan" in out.lower():
        print(f"  stdout: {out}\n  stderr: {err}")

    rc, _, err = run([src] + SETTINGS + ["--task-merge", "--state", s1,
                                         "--out", path("none")])
    check(rc == 2 and re.search(r"--task-merge.*part", err) is not None,
          f"a merge without parts: usage error naming the parts (got {rc})")
    if rc != 2:
        print(f"  stderr: {err}")

    # A measured iteration: its merge prints the result; then forgeries.
    p0, p1 = parts_of(s1, "it2")
    rc, out, err = merge(src, s1, [p0, p1], path("s2"))
    check(rc == 0 and re.search(r"result = [0-9.]+ \+- ", out) is not None,
          "the unforged parts merge and print the result")
    if rc:
        print(err)
    forgeries(src, s1, p0, p1)
    finish()


if __name__ == "__main__":
    main()
