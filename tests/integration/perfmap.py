#!/usr/bin/env python3
#===- tests/integration/perfmap.py - JIT'd code named for perf ------------===#
#
# Usage: perfmap.py VEGASC
#
# With VF_PERF_MAP=1 vegasc appends every function the JIT links to
# /tmp/perf-PID.map ("START SIZE NAME", hexadecimal), where perf looks for
# the names of anonymous executable memory; without it, nothing is written.
#
#===----------------------------------------------------------------------===#
import os
import re
import subprocess
import sys

from vftest import check, finish, write_source

LINE = re.compile(r"^([0-9a-f]+) ([0-9a-f]+) (\S+)$")


def run(exe, src, env_value):
    env = dict(os.environ)
    env.pop("VF_PERF_MAP", None)
    if env_value is not None:
        env["VF_PERF_MAP"] = env_value
    p = subprocess.Popen([exe, src, "--devices", "cpu:1", "--calls", "4000",
                          "--iterations", "2", "--warmup", "0", "-q", "-w",
                          "--no-cache"], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    out, err = p.communicate(timeout=120)
    path = "/tmp/perf-%d.map" % p.pid
    text = None
    if os.path.exists(path):
        with open(path) as f:
            text = f.read()
        os.remove(path)
    return p.returncode, text, err


def main():
    exe = sys.argv[1]
    src = write_source("peak", "integrand peak(x in [0, 1]^3) = "
                       "exp(-sum(i in 0..3: (x[i] - 0.5)^2) / 0.01)\n")
    rc, text, err = run(exe, src, "1")
    check(rc == 0 and text is not None,
          "VF_PERF_MAP=1: the run succeeds and writes /tmp/perf-PID.map (%s)"
          % err.strip())
    entries = {}
    bad = []
    for line in (text or "").splitlines():
        m = LINE.match(line)
        if not m:
            bad.append(line)
            continue
        entries[m.group(3)] = (int(m.group(1), 16), int(m.group(2), 16))
    check(not bad, "every line is 'START SIZE NAME' in hexadecimal (%r)"
          % bad[:3])
    for name in ("vf_sample_tile_peak", "vf_batch_peak"):
        check(name in entries and entries[name][1] > 0,
              "the map names %s with its size" % name)
    spans = sorted(entries.values())
    check(all(a + n <= b for (a, n), (b, _) in zip(spans, spans[1:])),
          "the functions' address ranges do not overlap")
    for value in (None, "0"):
        rc, text, _ = run(exe, src, value)
        check(rc == 0 and text is None,
              "VF_PERF_MAP=%s: no map file is written" % value)
    finish()


if __name__ == "__main__":
    main()
