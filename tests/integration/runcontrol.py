#!/usr/bin/env python3
#===- tests/integration/runcontrol.py - Accuracy targets, extended runs ---===#
#
# Usage: runcontrol.py VEGASC [MPIEXEC]
#
# vegasc --rtol/--atol/--max-iterations, --resume with more iterations or a
# new target, and --summary (docs/user-guide.md, "Accuracy targets" and
# "Extending a run"):
#  1. a reachable --rtol stops before the cap with the error within the
#     target (JSON stopped_because "target", target_met true); an
#     unreachable one runs to --max-iterations and says "not met" (exit 0,
#     a warning); the same target gives bitwise the same iterations on one
#     thread, two threads, simulated devices and (with MPIEXEC) 2 ranks;
#  2. the same keys in a TOML batch give the command line's result bitwise;
#  3. a 10-iteration run extended to 20 with --resume equals a 20-iteration
#     run bitwise; a run that met --rtol 1e-3 resumed with --rtol 3e-4
#     equals a run with --rtol 3e-4 from the start; another --calls or
#     --warmup, or fewer iterations than done, are refused with the reason;
#  4. bad input: --rtol -1, --rtol 0 (no target to reach), --max-iterations
#     without a target, in the CLI (exit 2) and in TOML (exit 1, the line);
#  5. --summary prints every iteration with the cumulative columns;
#  6. a vector integrand's chi2/dof and Q, which are the components'
#     joint ones, are printed once: on an iteration's first row (the
#     table and --summary), after the result lines, on a batch run's
#     first row.
#
#===----------------------------------------------------------------------===#
import os
import subprocess
import sys

from vftest import check, expect, finish, vegasc, workdir, write_source

LEPAGE = """param a = 0.1
integrand lepage(x in [0, 1]^4) =
    prod(i in 0..4: exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))
"""
BASE = ["--calls", 20000, "--warmup", 3, "--seed", 4, "-w"]


def bits(x):
    if isinstance(x, list):
        return [bits(v) for v in x]
    return None if x is None else float(x).hex()


def fingerprint(doc):
    r = doc["result"]
    return ({k: bits(r[k]) if isinstance(r[k], (float, list)) else r[k]
             for k in r if k != "wall_s"},
            [(bits(i["mean"]), bits(i["error"]), bits(i["cumulative_error"]))
             for i in doc["iterations"]])


def measured(doc):
    return sum(1 for i in doc["iterations"] if not i["warmup"])


def targets(exe, src, mpiexec):
    rtol = ["--rtol", "2e-3", "--max-iterations", 60]
    ref = vegasc(exe, [src] + BASE + rtol + ["--devices", "cpu:1"])
    if not check(ref.rc == 0 and ref.doc, "a run with --rtol succeeds"):
        print(ref)
        return
    r = ref.doc["result"]
    check(r["stopped_because"] == "target" and r["target_met"] is True,
          f"--rtol met: stopped_because {r['stopped_because']}")
    check(2 <= measured(ref.doc) < 60,
          f"it stopped within the cap ({measured(ref.doc)} of 60)")
    check(r["error"] <= 2e-3 * abs(r["mean"]), "the error meets the target")
    check("accuracy target met after" in ref.out, "the run says it was met")
    for devices in ["cpu:2", "sim:5,sim:20", "cpu:1,sim:3"]:
        other = vegasc(exe, [src] + BASE + rtol + ["--devices", devices])
        check(other.rc == 0 and other.doc and
              fingerprint(other.doc) == fingerprint(ref.doc),
              f"--devices {devices}: the same iterations and result bitwise")
    if mpiexec:
        js = os.path.join(workdir(), "np2.json")
        p = subprocess.run(
            [mpiexec, "--allow-run-as-root", "--oversubscribe", "--mca",
             "mpi_yield_when_idle", "1", "-np", "2", exe, src] +
            [str(a) for a in BASE + rtol] + ["--devices", "cpu:1", "--json",
                                             js],
            capture_output=True, text=True, timeout=300,
            env=dict(os.environ, VF_CACHE_DIR=os.path.join(workdir(), "cache")))
        if check(p.returncode == 0 and os.path.exists(js),
                 f"mpirun -np 2 with --rtol runs ({p.stderr[-300:]})"):
            import json
            with open(js) as f:
                check(fingerprint(json.load(f)) == fingerprint(ref.doc),
                      "-np 2: the same iterations and result bitwise")
    never = vegasc(exe, [src] + BASE + ["--atol", "1e-12", "--max-iterations",
                                        4])
    if check(never.rc == 0 and never.doc, "an unreachable target runs"):
        r = never.doc["result"]
        check(r["stopped_because"] == "max_iterations" and
              r["target_met"] is False and measured(never.doc) == 4,
              "an unreachable target runs to the cap and says not met")
    plain = vegasc(exe, [src] + BASE + ["--iterations", 3])
    check(plain.rc == 0 and plain.doc["result"]["stopped_because"] ==
          "iterations" and plain.doc["result"]["target_met"] is None,
          "without a target: stopped_because iterations, target_met null")
    # TOML: the same keys, the same run.
    toml = os.path.join(workdir(), "rtol.toml")
    with open(toml, "w") as f:
        f.write(f'[[run]]\nfile = "{src}"\ncalls = 20000\nwarmup = 3\n'
                f'seed = 4\ndevices = "cpu:1"\nrtol = 2e-3\n'
                f'max_iterations = 60\n')
    js = os.path.join(workdir(), "batch.json")
    b = vegasc(exe, [toml, "--json", js, "-q"], json_out=False)
    if check(b.rc == 0 and os.path.exists(js), "a batch with rtol runs"):
        import json
        with open(js) as f:
            run = json.load(f)["runs"][0]
        check(fingerprint(run) == fingerprint(ref.doc),
              "TOML rtol/max_iterations: the command line's result bitwise")


def extension(exe, src):
    ck = os.path.join(workdir(), "ext.ckpt")
    first = vegasc(exe, [src] + BASE + ["--iterations", 10, "--checkpoint", ck])
    check(first.rc == 0, "a 10-iteration run with --checkpoint")
    ext = vegasc(exe, [src] + BASE + ["--iterations", 20, "--resume", ck,
                                      "--checkpoint", ck])
    whole = vegasc(exe, [src] + BASE + ["--iterations", 20])
    check(ext.rc == 0 and whole.rc == 0 and
          fingerprint(ext.doc) == fingerprint(whole.doc),
          "10 iterations extended to 20 equal a 20-iteration run bitwise")
    check("resuming" in ext.out and "10 of 23 iterations done" in ext.out
          or "13 of 23" in ext.out, "the extension says where it resumes")
    expect(exe, [src] + BASE + ["--iterations", 5, "--resume", ck], 1,
           "fewer iterations than done", "already measured 20")
    expect(exe, [src, "--calls", 30000, "--warmup", 3, "--seed", 4,
                 "--iterations", 30, "--resume", ck], 1,
           "another --calls", "another number of --calls")
    expect(exe, [src, "--calls", 20000, "--warmup", 2, "--seed", 4,
                 "--iterations", 30, "--resume", ck], 1,
           "another --warmup", "--warmup iterations cannot change")
    # A new target continues a run that met a looser one.
    ck2 = os.path.join(workdir(), "tgt.ckpt")
    loose = vegasc(exe, [src] + BASE + ["--rtol", "4e-3", "--max-iterations",
                                        80, "--checkpoint", ck2])
    tight = vegasc(exe, [src] + BASE + ["--rtol", "1.5e-3", "--max-iterations",
                                        80, "--resume", ck2])
    direct = vegasc(exe, [src] + BASE + ["--rtol", "1.5e-3",
                                         "--max-iterations", 80])
    if check(loose.rc == 0 and tight.rc == 0 and direct.rc == 0,
             "targets 4e-3 then 1.5e-3 with --resume run"):
        check(measured(tight.doc) > measured(loose.doc),
              f"the new target ran more iterations ({measured(loose.doc)} -> "
              f"{measured(tight.doc)})")
        check(fingerprint(tight.doc) == fingerprint(direct.doc),
              "resumed with a new --rtol: bitwise the run with it from the "
              "start")


def bad_input(exe, src):
    expect(exe, [src, "--rtol", -1], 2, "--rtol -1",
           "--rtol must be a finite number >= 0")
    expect(exe, [src, "--rtol", 0], 2, "--rtol 0", "never met",
           "give a positive --rtol or --atol")
    expect(exe, [src, "--max-iterations", 9], 2,
           "--max-iterations without a target", "--max-iterations is the cap")
    toml = os.path.join(workdir(), "bad.toml")
    with open(toml, "w") as f:
        f.write(f'[[run]]\nfile = "{src}"\nrtol = -1\n\n'
                f'[[run]]\nfile = "{src}"\natol = 0\n')
    r = expect(exe, [toml], 1, "bad targets in TOML", r"bad\.toml:3:\d+: "
               r"error: 'rtol' must be a finite number >= 0",
               r"bad\.toml:5:\d+: error: an accuracy target of 0 \('atol'\)")


def summary(exe, src):
    r = vegasc(exe, [src] + BASE + ["--iterations", 3, "--summary", "-q"])
    rows = [l for l in r.out.splitlines() if l.strip()[:1].isdigit()]
    check(r.rc == 0 and "chi2/dof" in r.out and len(rows) == 6 and
          "stopped: every iteration ran" in r.out,
          f"--summary: the table of 6 rows and the stop ({len(rows)} rows)")
    check(rows and rows[-1].split()[3] == float(r.doc["result"]["mean"]).__format__(".15g"),
          "--summary: the last cumulative estimate is the result")


def joint_once(exe):
    src = write_source("vec2", "integrand v(x in [0, 1]) -> [2] {\n"
                       "    return [x[0], x[0]^2]\n}\n")
    r = vegasc(exe, [src] + BASE + ["--iterations", 2, "--summary"])
    lines = r.out.splitlines()
    res = [l for l in lines if l.startswith("result[")]
    joint = [l for l in lines if l.startswith("chi2/dof = ")]
    check(r.rc == 0 and len(res) == 4 and
          not any("chi2" in l for l in res) and len(joint) == 2 and
          all(l.endswith("(the 2 components together)") for l in joint),
          "vector: result lines without chi2/dof, then one joint line "
          "(after the run and after --summary)")
    # Each iteration's second row has the first one's words but chi2/dof
    # and Q (or a warm-up's two dashes).
    pairs = [(lines[k - 1], l) for k, l in enumerate(lines)
             if k and l.split()[:1] and l.split()[0][0].isdigit() and
             l.split()[0].endswith("[1]")]
    check(len(pairs) == 2 * 5 and all(
        len(b.split()) == len(a.split()) - 2 and "-" not in b.split()
        for a, b in pairs),
          f"vector: chi2/dof and Q once per iteration, in both tables "
          f"({len(pairs)} pairs)")
    toml = os.path.join(workdir(), "vec.toml")
    with open(toml, "w") as f:
        f.write(f'[defaults]\ncalls = 2000\niterations = 2\n'
                f'[[run]]\nname = "v"\nfile = "{src}"\n')
    b = vegasc(exe, [toml, "-q"], json_out=False)
    rows = b.out.splitlines()
    check(b.rc == 0 and len(rows) == 3 and rows[1].startswith("v[0]") and
          len(rows[1].split()) == 7 and len(rows[2].split()) == 4,
          f"batch: chi2/dof, Q and the time on a run's first row: {rows}")


def main():
    exe = sys.argv[1]
    mpiexec = sys.argv[2] if len(sys.argv) > 2 else None
    src = write_source("lepage4", LEPAGE)
    targets(exe, src, mpiexec)
    extension(exe, src)
    bad_input(exe, src)
    summary(exe, src)
    joint_once(exe)
    finish()


if __name__ == "__main__":
    main()
