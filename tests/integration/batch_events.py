#!/usr/bin/env python3
#===- tests/integration/batch_events.py - Events from a TOML batch --------===#
#
# Usage: batch_events.py VEGASC VF_READ_EVENTS EE_MUMU.vf
#
# The events keys of a batch (events, events_out, weighted_events,
# event_record in [defaults] and [[run]]) on examples/physics/ee_mumu.vf,
# each file read back by HepMC3's own readers (vf_read_events):
#  1. [defaults] events and events_out = "{run}.lhe" (resolved against the
#     TOML file's folder, vegasc run from elsewhere): an unweighted LHE
#     file per run, N events of 4 particles, IDWTUP 3, the header's cross
#     section that run's result in the JSON;
#  2. a run's own weighted_events and events_out .hepmc3: the mean weight
#     is the cross section within 5 sigma, each event carries it;
#  3. a scan with "{point}" writes one file per point, each of N events
#     with its point's cross section;
#  4. the JSON's `events` per run: the file, written, the efficiency;
#  5. bad input, each at its key's line with the key named and nothing
#     run: events < 0, a fraction, events without events_out, a file of
#     another ending, an empty file name, weighted_events not a boolean, a
#     missing event record, two runs (or two scan points) writing one
#     file, --events on the command line of a batch; an unwritable
#     events file: exit 1, the error naming 'events_out' at its line, the
#     run refused before it runs (status failed in the JSON, its error).
#
#===----------------------------------------------------------------------===#
import json
import os
import re
import sys

from eventcheck import read, unweighted, weighted
from vftest import check, expect, finish, vegasc, workdir

N = 3000
DEFAULTS = "calls = 1e5\nseed = 3\niterations = 6\n"


def batch(name, text):
    """A TOML file in a folder of its own; returns (folder, path)."""
    folder = os.path.join(workdir(), name)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "b.toml")
    with open(path, "w") as f:
        f.write(text)
    return folder, path


def good(exe, reader, src):
    folder, toml = batch("good", f"""[defaults]
{DEFAULTS}events = {N}
events_out = "{{run}}.lhe"
output = "b.json"
[[run]]
name = "u"
file = "{src}"
integrand = "sigma"
[[run]]
name = "w"
file = "{src}"
integrand = "sigma"
events_out = "w.hepmc3"
weighted_events = true
event_record = "sigma_event"
[[run]]
name = "s"
file = "{src}"
integrand = "sigma"
events_out = "s-{{point}}.lhe"
scan = {{ rs = [91.19, 120] }}
""")
    r = vegasc(exe, [toml, "-q"], json_out=False)
    if not check(r.rc == 0, "a batch with events: exit 0"):
        print(r)
        return
    with open(os.path.join(folder, "b.json")) as f:
        doc = json.load(f)
    by = {}
    for run in doc["runs"]:
        by.setdefault(run["name"], []).append(run)
    u = by["u"][0]
    xs, xerr = u["result"]["mean"], u["result"]["error"]
    lhe = read(reader, os.path.join(folder, "u.lhe"))
    if lhe:
        unweighted(lhe, xs, xerr, N, "u.lhe ('{run}' from [defaults], the "
                   "TOML's folder)")
    ev = u.get("events", {})
    check(ev.get("file") == os.path.join(folder, "u.lhe") and
          ev.get("written") == N and ev.get("weighted") is False and
          ev.get("record") == "sigma_event" and
          0.5 < ev.get("efficiency", 0) <= 1 and "error" not in ev,
          f"the JSON's events of run u: {ev}")
    w = by["w"][0]
    wxs = w["result"]["mean"]
    hep = read(reader, os.path.join(folder, "w.hepmc3"))
    if hep:
        weighted(hep, wxs, N, "w.hepmc3")
        check(w["events"].get("weighted") is True and
              w["events"].get("written") == N,
              "the JSON's events of run w: weighted, N written")
    points = sorted(by["s"], key=lambda r: r["point"]["rs"])
    check(len(points) == 2, "the scan ran two points")
    for k, run in enumerate(points, 1):
        got = read(reader, os.path.join(folder, f"s-{k}.lhe"))
        sx = run["result"]["mean"]
        if got:
            check(got["events"] == N and abs(got["xsec"] - sx) <= 1e-13 * sx,
                  f"s-{k}.lhe ('{{point}}'): N events, the cross section of "
                  f"rs = {run['point']['rs']}")
    if len(points) == 2:
        check(points[0]["result"]["mean"] != points[1]["result"]["mean"],
              "the scan points' cross sections differ")


def bad(exe, src):
    run = f'[[run]]\nname = "a"\nfile = "{src}"\nintegrand = "sigma"\n'
    cases = [
        ("events = -1\nevents_out = \"e.lhe\"\n", r":5:\d+: error: 'events' "
         r"must be a whole number", "a negative count"),
        ("events = 1.5\nevents_out = \"e.lhe\"\n", r":5:\d+: error: 'events' "
         r"must be a whole number", "a fractional count"),
        ("events = 10\n", r":5:\d+: error: 'events' N and 'events_out' FILE "
         r"go together", "events without events_out"),
        ("events = 10\nevents_out = \"e.txt\"\n", r":6:\d+: error: "
         r"'events_out': .*must end in \.lhe", "an unknown ending"),
        ("events = 10\nevents_out = \"\"\n", r":6:\d+: error: 'events_out' "
         r"must name a file", "an empty file name"),
        ("events = 10\nevents_out = \"e.lhe\"\nweighted_events = 1\n",
         r":7:\d+: error: 'weighted_events' must be true or false",
         "weighted_events not a boolean"),
        ("events = 10\nevents_out = \"e.lhe\"\nevent_record = \"nosuch\"\n",
         r":7:\d+: error: run 'a': no event record 'nosuch'",
         "a missing event record"),
        ("events = 10\nevents_out = \"e.lhe\"\nscan = { rs = [90, 91] }\n",
         r":6:\d+: error: run 'a' would write its events to '.*e\.lhe', as "
         r"another point of its scan does", "a scan writing one file"),
    ]
    for extra, needle, what in cases:
        folder, toml = batch("bad", run + extra)
        expect(exe, [toml, "-q"], 1, what, needle)
        check(not os.path.exists(os.path.join(folder, "e.lhe")),
              f"{what}: no events file written")
    folder, toml = batch("twice", f"""[defaults]
events = 10
events_out = "same.lhe"
{run}[[run]]
name = "b"
file = "{src}"
integrand = "sigma"
""")
    expect(exe, [toml, "-q"], 1, "two runs writing one events file",
           r":3:\d+: error: run 'b' would write its events to '.*same\.lhe', "
           r"as run 'a' does")
    expect(exe, [toml, "--events", 10], 2, "--events with a batch",
           r"--events does not apply to a batch; set it in the TOML file")
    folder, toml = batch("unwritable", f"""[defaults]
{DEFAULTS}output = "kept.json"
{run}events = 10
events_out = "no/such/dir/e.lhe"
""")
    r = vegasc(exe, [toml, "-q"], json_out=False)
    kept = os.path.join(folder, "kept.json")
    doc = None
    if os.path.exists(kept):
        with open(kept) as f:
            doc = json.load(f)
    a = doc["runs"][0] if doc else {}
    check(r.rc == 1 and
          re.search(r"b\.toml:11:\d+: error: run 'a': cannot write the "
                    r"events file in '.*no/such/dir/'", r.err) is not None,
          "an unwritable events file: exit 1, the error at 'events_out'")
    check(a.get("status") == "failed" and "result" not in a
          and "no/such/dir" in a.get("error", ""),
          "an unwritable events file: the run is refused before it runs, "
          "its error in the JSON")
    if r.rc != 1 or not a:
        print(r)


def main():
    exe, reader, src = sys.argv[1:4]
    src = os.path.abspath(src)
    good(exe, reader, src)
    bad(exe, src)
    finish()

if __name__ == "__main__":
    main()
