#!/usr/bin/env python3
#===- tests/integration/perfmap.py - JIT'd code named for perf ------------===#
#
# Usage: perfmap.py VEGASC
#
# With VF_PERF_MAP=1 vegasc appends every function the JIT links to
# /tmp/perf-PID.map ("START SIZE NAME", hexadecimal), where perf looks for
# the names of anonymous executable memory; without it, nothing is written.
# Integrating links the sampler alone; the batch entry point is compiled
# when something evaluates the integrand (here the report of a NaN), and
# the map names it too.
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
    check("vf_sample_tile_peak" in entries
          and entries["vf_sample_tile_peak"][1] > 0,
          "the map names vf_sample_tile_peak with its size")
    check("vf_batch_peak" not in entries,
          "integrating compiles no batch entry point (%s)"
          % sorted(entries)[:6])
    check("vf_points_peak" in entries and entries["vf_points_peak"][1] > 0,
          "the sampler's integrand at given points is in the map (%s)"
          % sorted(entries)[:6])
    spans = sorted(entries.values())
    check(all(a + n <= b for (a, n), (b, _) in zip(spans, spans[1:])),
          "the functions' address ranges do not overlap")

    bad_src = write_source("nan", "integrand nan(x in [0, 1]^2) = "
                           "sqrt(x[0] - 2)\n")
    rc, text, err = run(exe, bad_src, "1")
    names = {m.group(3): int(m.group(2), 16) for m in
             map(LINE.match, (text or "").splitlines()) if m}
    check(rc != 0 and re.search(r"integrand .nan. is -?nan at x = ", err),
          "a NaN is reported with the integrand's value (%s)" % err.strip())
    check("vf_batch_nan" not in names and names.get("vf_points_nan", 0) > 0,
          "that report evaluates through the sampler's code, compiled with "
          "it, not a batch entry point compiled later (%s)" % sorted(names))
    for value in (None, "0"):
        rc, text, _ = run(exe, src, value)
        check(rc == 0 and text is None,
              "VF_PERF_MAP=%s: no map file is written" % value)
    finish()


if __name__ == "__main__":
    main()
