#!/usr/bin/env python3
#===- tests/integration/events_weights.py - Weight lists in event files --===#
#
# Usage: events_weights.py VEGASC VF_READ_EVENTS
#
# vegasc --events on an integrand with two weight lists, scales (k in 0..7)
# and pdf (k in 1..4), each entry (1 + k/10) f, each file read back by
# HepMC3's own readers (vf_read_events):
#  1. LHE, unweighted and weighted: <init>'s weight infos scales_0 ..
#     scales_6, pdf_1 .. pdf_3 in groups scales and pdf, as HepMC3's
#     LHEF::Reader reads them, and MadGraph's spelling of the same in
#     <header> (<weightgroup name="scales">, <weight id="scales_0">); each
#     event's <rwgt> has those ids, and every entry's weight is
#     (1 + k/10) XWGTUP to 1e-12 (in <rwgt> and in HEPEUP::weights alike);
#  2. HepMC3: the weight names Default, then the same names; each event's
#     weights (1 + k/10) times its first; with --beams, the run info's
#     HEPRUP has the beams and the names, and without them it has none;
#  3. an integrand without lists: no <initrwgt>, <rwgt> or <weights> in
#     the LHE file, the HepMC3 weight "Default" alone.
#
#===----------------------------------------------------------------------===#
import sys

from eventcheck import read
from vftest import check, finish, vegasc, workdir, write_source

N = 400
RUN = ["--calls", "1e4", "--iterations", "4", "--seed", 11]
NAMES = [f"scales_{k}" for k in range(7)] + [f"pdf_{k}" for k in range(1, 4)]
FACTORS = [1 + k / 10 for k in range(7)] + [1 + k / 10 for k in range(1, 4)]
SOURCE = """
integrand f(x in [0, 1]^2) {
    let v = 1 + x[0] * x[1]
    weights scales(k in 0..7: v * (1 + k / 10))
    weights pdf(k in 1..4: v * (1 + k / 10))
    return v
}
integrand f_event(x in [0, 1]^2) -> [12] =
    [11, -1, 50, 0, 0, 50,  13, 1, 50, 50 * x[0], 0, 50 * sqrt(1 - x[0]^2)]
integrand plain(x in [0, 1]^2) = 1 + x[0] * x[1]
integrand plain_event(x in [0, 1]^2) -> [12] =
    [11, -1, 50, 0, 0, 50,  13, 1, 50, 50 * x[0], 0, 50 * sqrt(1 - x[0]^2)]
"""


def close(a, b):
    return abs(a - b) <= 1e-12 * abs(b)


def entries_follow(rows, central, what):
    """Each event's entries are FACTORS times its central weight."""
    ok = len(rows) == len(central) == N
    for row, w in zip(rows, central):
        ok &= len(row) == len(FACTORS) and all(
            close(e, f * w) for e, f in zip(row, FACTORS))
    check(ok, f"{what}: each of {N} events' entry k weighs (1 + k/10) "
              "times its weight, to 1e-12")


def events(exe, reader, src, path, extra=()):
    r = vegasc(exe, [src, "--integrand", path[0], "--events", N,
                     "--events-out", path[1]] + RUN + list(extra))
    if not check(r.rc == 0, f"{path[1]}: written"):
        print(r)
        return None, ""
    with open(path[1]) as f:
        text = f.read()
    return read(reader, path[1]), text


def lhe(exe, reader, src, weighted):
    what = "weighted LHE" if weighted else "unweighted LHE"
    got, text = events(exe, reader, src, ("f", f"{workdir()}/w{weighted}.lhe"),
                       ["--weighted-events"] if weighted else [])
    if not got:
        return
    check(got["weight_names"] == NAMES,
          f"{what}: <init>'s weight ids, list after list ({got['weight_names']})")
    check(got["weight_groups"] == ["scales", "pdf"],
          f"{what}: one weight group per list")
    header = text[text.index("<header>"):text.index("</header>")]
    check('<weightgroup name="scales" combine="envelope">' in header and
          '<weight id="pdf_3">' in header,
          f"{what}: <initrwgt> in <header> as MadGraph spells it")
    check(got["rwgt_ids"] == NAMES, f"{what}: <rwgt>'s <wgt> ids")
    entries_follow(got["rwgt"], got["weights"], f"{what} <rwgt>")
    entries_follow(got["entries"], got["weights"], f"{what} HEPEUP::weights")
    check(got["idwtup"] == (4 if weighted else 3), f"{what}: IDWTUP")


def hepmc3(exe, reader, src):
    beams = ["--beams", "2212,2212", "--beam-energies", "6500,6500"]
    for extra, what in ((beams, "HepMC3 with beams"), ([], "HepMC3")):
        got, _ = events(exe, reader, src,
                        ("f", f"{workdir()}/{len(extra)}.hepmc3"),
                        ["--weighted-events"] + extra)
        if not got:
            continue
        check(got["weight_names"] == ["Default"] + NAMES,
              f"{what}: weight names Default, then the entries'")
        entries_follow(got["entries"], got["weights"], what)
        if extra:
            check(got["run_beams"] == [2212, 2212] and
                  got["run_energies"] == [6500, 6500] and
                  got["run_weight_names"] == NAMES,
                  f"{what}: the run info's HEPRUP has the beams and names")
        else:
            check(got["run_beams"] == [], f"{what}: no HEPRUP without beams")


def without_lists(exe, reader, src):
    got, text = events(exe, reader, src, ("plain", f"{workdir()}/p.lhe"))
    if got:
        check(all(t not in text for t in ("<initrwgt>", "<rwgt>", "<weights>")),
              "no lists: no <initrwgt>, <rwgt> or <weights> in the LHE file")
        check(got["weight_names"] == [] and got["entries"] == [[]] * N,
              "no lists: no weight but XWGTUP")
    got, _ = events(exe, reader, src, ("plain", f"{workdir()}/p.hepmc3"))
    if got:
        check(got["weight_names"] == ["Default"] and
              got["entries"] == [[]] * N,
              "no lists: the HepMC3 weight Default alone")


def main():
    exe, reader = sys.argv[1:3]
    src = write_source("lists", SOURCE)
    lhe(exe, reader, src, weighted=False)
    lhe(exe, reader, src, weighted=True)
    hepmc3(exe, reader, src)
    without_lists(exe, reader, src)
    finish()


if __name__ == "__main__":
    main()
