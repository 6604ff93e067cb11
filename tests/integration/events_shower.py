#!/usr/bin/env python3
#===- tests/integration/events_shower.py - Events a shower reads ---------===#
#
# Usage: events_shower.py VEGASC VF_READ_EVENTS DRELL_YAN.vf EE_MUMU.vf
#
# The options that make LHE files a parton shower can read, through vegasc
# and a TOML batch, each file read back by HepMC3's LHEF::Reader
# (vf_read_events):
#  1. --event-layout lhe on examples/cpp/drell_yan.vf's uubar_ll_event with
#     --beams 2212,2212 --beam-energies 6500,6500 --pdf-id 247000: <init>
#     has those beams, PDFGUP 0 and PDFSUP 247000, one process (1); every
#     event IDPRUP 1, SCALUP the dilepton mass 91.19, AQEDUP 1/128, AQCDUP
#     alpha_s(91.19) at one loop from 0.118 at mz (0.118 within 1e-4); the
#     first event's mothers (leptons from 1 to 2) and its one colour line
#     501 (the u's colour, the ubar's anticolour);
#  2. the same keys in a batch's [defaults]: the same <init>;
#  3. without the options (ee_mumu.vf's basic record): the beams are the
#     first event's incoming e- and e+, PDFSUP 0, SCALUP -1 as before;
#  4. bad input, before the run: --beams p,p, --beams without
#     --beam-energies, --event-layout full (exit 2, naming the flag); a
#     basic record read as lhe (exit 1, naming the sizes it could have);
#     the TOML keys' bad values at their line.
#
#===----------------------------------------------------------------------===#
import os
import sys

from eventcheck import read
from vftest import check, expect, finish, vegasc, workdir

N = 500
RUN = ["--calls", "1e4", "--iterations", "4", "--warmup", "2", "--seed", 3]
SHOWER = ["--event-layout", "lhe", "--beams", "2212,2212", "--beam-energies",
          "6500,6500", "--pdf-id", "247000"]


def shower_init(got, what):
    """<init> as the shower options set it."""
    check(got["beams"] == [2212, 2212] and got["energies"] == [6500, 6500],
          f"{what}: IDBMUP 2212 2212, EBMUP 6500 6500")
    check(got["pdf_groups"] == [0, 0] and got["pdf_sets"] == [247000] * 2,
          f"{what}: PDFGUP 0 0, PDFSUP 247000 247000")
    check(got["processes"] == [1], f"{what}: one process line, LPRUP 1")


def full_layout(exe, reader, dy):
    lhe = os.path.join(workdir(), "dy.lhe")
    r = vegasc(exe, [dy, "--integrand", "uubar_ll", "--events", N,
                     "--events-out", lhe] + RUN + SHOWER)
    got = read(reader, lhe) if check(r.rc == 0, "drell_yan lhe: runs") \
        else print(r)
    if not got:
        return
    shower_init(got, "drell_yan lhe")
    check(got["events"] == N and got["particles"] == 4,
          f"drell_yan lhe: {N} events of 4 particles")
    check(set(got["idprup"]) == {1}, "every event: IDPRUP 1")
    check(set(got["scales"]) == {91.19},
          "every event: SCALUP the dilepton mass, 91.19")
    check(set(got["aqed"]) == {1 / 128}, "every event: AQEDUP 1/128")
    check(len(set(got["aqcd"])) == 1 and abs(got["aqcd"][0] - 0.118) < 1e-4,
          f"every event: AQCDUP alpha_s at 91.19 ({got['aqcd'][0]})")
    check(got["mothers"] == [0, 0, 0, 0, 1, 2, 1, 2],
          "the incoming quarks have no mothers; the leptons 1 to 2")
    check(got["colours"] == [501, 0, 0, 501, 0, 0, 0, 0],
          "one colour line: the u's colour 501, the ubar's anticolour")


def batch(exe, reader, dy):
    folder = os.path.join(workdir(), "batch")
    os.makedirs(folder, exist_ok=True)
    toml = os.path.join(folder, "b.toml")
    with open(toml, "w") as f:
        f.write(f"""[defaults]
calls = 1e4
iterations = 4
event_layout = "lhe"
beams = "2212, 2212"
beam_energies = "6500,6500"
pdf_id = 247000

[[run]]
file = "{dy}"
integrand = "uubar_ll"
events = 50
events_out = "b.lhe"
""")
    r = vegasc(exe, [toml, "-q"], json_out=False)
    got = read(reader, os.path.join(folder, "b.lhe")) \
        if check(r.rc == 0, "the batch runs") else print(r)
    if got:
        shower_init(got, "the batch")


def basic(exe, reader, ee):
    lhe = os.path.join(workdir(), "ee.lhe")
    r = vegasc(exe, [ee, "--integrand", "sigma", "--events", 50,
                     "--events-out", lhe] + RUN)
    got = read(reader, lhe) if check(r.rc == 0, "ee_mumu basic: runs") \
        else print(r)
    if not got:
        return
    check(got["beams"] == [11, -11] and got["energies"] == [45.595] * 2,
          "without --beams: the first event's incoming e- and e+")
    check(got["pdf_sets"] == [0, 0], "without --pdf-id: PDFSUP 0 0")
    check(set(got["scales"]) == {-1}, "a basic record: SCALUP -1")


def bad(exe, dy, ee):
    base = [dy, "--integrand", "uubar_ll", "--events", 10, "--events-out",
            os.path.join(workdir(), "bad.lhe")] + RUN
    expect(exe, base + ["--beams", "p,p", "--beam-energies", "1,1"], 2,
           "--beams p,p", r"--beams must be the two beams' PDG ids, "
           r"PDG1,PDG2 .*got \"p,p\"")
    expect(exe, base + ["--beams", "2212,2212"], 2, "--beams alone",
           r"--beams and --beam-energies go together")
    expect(exe, base + ["--beams", "2212,2212", "--beam-energies", "-1,1"],
           2, "a negative energy", r"--beam-energies must be .* positive")
    expect(exe, base + ["--event-layout", "full"], 2, "--event-layout full",
           r"--event-layout must be basic .* or lhe")
    r = expect(exe, [ee, "--integrand", "sigma", "--events", 10,
                     "--events-out", os.path.join(workdir(), "bad.lhe"),
                     "--event-layout", "lhe"] + RUN, 1,
               "a basic record read as lhe",
               r"the event record 'sigma_event' returns 24 values; with "
               r"--event-layout=lhe it must return 4 \+ 13 per particle "
               r"\(17 or 30\)")
    check("|" not in r.out, "a record of the wrong size: before the run")
    folder = os.path.join(workdir(), "badtoml")
    os.makedirs(folder, exist_ok=True)
    for key, value, needle in (
            ("beams", '"p,p"', r"'beams' must be the two beams' PDG ids"),
            ("beam_energies", '"6500"', r"'beam_energies' must be"),
            ("event_layout", '"full"', r"'event_layout' must be basic"),
            ("pdf_id", "-3", r"'pdf_id' must be a whole number")):
        toml = os.path.join(folder, f"{key}.toml")
        with open(toml, "w") as f:
            f.write(f'[[run]]\nfile = "{dy}"\nintegrand = "uubar_ll"\n'
                    f'events = 10\nevents_out = "e.lhe"\n{key} = {value}\n')
        expect(exe, [toml, "-q"], 1, f"TOML {key} = {value}",
               rf":6:\d+: error: {needle}")


def main():
    exe, reader, dy, ee = sys.argv[1:5]
    full_layout(exe, reader, os.path.abspath(dy))
    batch(exe, reader, os.path.abspath(dy))
    basic(exe, reader, os.path.abspath(ee))
    bad(exe, os.path.abspath(dy), os.path.abspath(ee))
    finish()


if __name__ == "__main__":
    main()
