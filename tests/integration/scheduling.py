#!/usr/bin/env python3
"""Scheduling over heterogeneous devices (ALGORITHM.md section 6).

    scheduling.py VEGASC

1. Same seed -> bitwise the same result and iterations for every policy
   and every mix of CPU threads and simulated devices (`sim:R`, a worker
   throttled to R million samples/s).
2. Simulated devices of speeds 1:10:100: after the first iteration (which
   measures the rates) the adaptive policy wastes less than 5% of device
   time waiting (sum of idle / sum of busy + idle over the devices);
   static, which splits the tiles evenly, wastes far more (1:10 devices,
   to keep it short).
3. Bad --schedule / --devices values are usage errors.
"""
import sys

from vftest import check, finish, vegasc, write_source

CHEAP = "integrand f(x in [0, 1]^3) = x[0] * x[1] + x[2]\n"
LEPAGE = ("param a = 0.1\n"
          "integrand f(x in [0, 1]^4) = prod(i in 0..4: "
          "exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))\n")


def fingerprint(doc):
    res = doc["result"]
    return (res["mean"], res["error"],
            [(it["mean"], it["error"], it["samples"]) for it in doc["iterations"]])


def wasted(it):
    busy = sum(d["busy_s"] for d in it["devices"])
    idle = sum(d["idle_s"] for d in it["devices"])
    return idle / (busy + idle)


def determinism(exe):
    src = write_source("lepage4_sched", LEPAGE)
    base = ["-q", "--seed", 5, "--calls", 200000, "--iterations", 3,
            "--warmup", 1]
    ref = vegasc(exe, [src, "--devices", "cpu:1"] + base)
    check(ref.rc == 0 and ref.doc, "reference run (cpu:1, adaptive)")
    for devices, schedule in (("cpu:2", "static"), ("cpu:3", "guided"),
                              ("cpu:2", "dynamic:3"),
                              ("cpu:1,sim:20", "adaptive"),
                              ("sim:5,sim:20", "adaptive"),
                              ("cpu:2,sim:2", "static")):
        r = vegasc(exe, [src, "--devices", devices, "--schedule", schedule]
                   + base)
        check(r.rc == 0 and r.doc and fingerprint(r.doc) == fingerprint(ref.doc),
              f"--devices {devices} --schedule {schedule}: bitwise the same "
              f"result as cpu:1")
        if r.doc:
            names = [d["name"] for d in r.doc["devices"]]
            check(len(names) == len(devices.split(",")) or "cpu:" in devices,
                  f"--devices {devices}: devices {names} reported")
            check(r.doc["settings"]["schedule"] == schedule,
                  f"--schedule {schedule} recorded in the settings")


def balance(exe):
    src = write_source("cheap_sched", CHEAP)
    r = vegasc(exe, [src, "-q", "--calls", 2e7, "--iterations", 2,
                     "--warmup", 1, "--devices", "sim:0.1,sim:1,sim:10",
                     "--schedule", "adaptive"])
    if not check(r.rc == 0 and r.doc, "adaptive on sim:0.1,sim:1,sim:10"):
        print(r)
        return
    its = r.doc["iterations"]
    for it in its[1:]:
        w = wasted(it)
        per = [round(d["imbalance"], 3) for d in it["devices"]]
        check(w < 0.05, f"adaptive, iteration {it['index']}: {w:.1%} of "
                        f"device time idle < 5% (per device {per})")
    samples = [d["samples"] for d in its[-1]["devices"]]
    check(samples[0] < samples[1] < samples[2],
          f"work follows speed: {samples}")
    s = vegasc(exe, [src, "-q", "--calls", 2e6, "--iterations", 1,
                     "--warmup", 1, "--devices", "sim:1,sim:10",
                     "--schedule", "static"])
    a = vegasc(exe, [src, "-q", "--calls", 2e6, "--iterations", 1,
                     "--warmup", 1, "--devices", "sim:1,sim:10",
                     "--schedule", "adaptive"])
    if check(s.rc == 0 and a.rc == 0 and s.doc and a.doc,
             "static and adaptive on sim:1,sim:10"):
        ws, wa = wasted(s.doc["iterations"][-1]), wasted(a.doc["iterations"][-1])
        check(ws > 0.2 and ws > 3 * wa,
              f"static wastes {ws:.1%} of device time, adaptive {wa:.1%}")


def stats_and_ninc(exe):
    src = write_source("cheap_stats", CHEAP)
    r = vegasc(exe, [src, "-q", "--calls", 100000, "--iterations", 2,
                     "--warmup", 0, "--devices", "cpu:1,sim:5", "--stats",
                     "--ninc", 50])
    check(r.rc == 0 and "imbalance" in r.out and "sim:0" in r.out
          and "cpu:0" in r.out, "--stats prints a row per device")
    check(r.doc is not None and r.doc["settings"]["ninc"] == 50,
          "--ninc 50 is recorded in the settings")
    bad = vegasc(exe, [src, "-q", "--ninc", 1], json_out=False)
    check(bad.rc == 2, f"--ninc 1: usage error (exit {bad.rc})")


def batch(exe):
    """A TOML batch takes the same devices and schedules as the CLI."""
    import json, os
    from vftest import workdir
    toml = os.path.join(workdir(), "sched.toml")
    with open(toml, "w") as f:
        f.write('[defaults]\ncalls = 100000\niterations = 2\nwarmup = 0\n'
                'devices = "cpu:1,sim:5"\nschedule = "static"\n'
                '[[run]]\nname = "cheap"\nsource = """\n' + CHEAP + '"""\n')
    out = os.path.join(workdir(), "sched.json")
    r = vegasc(exe, [toml, "-q", "--json", out], json_out=False)
    ok = check(r.rc == 0 and os.path.exists(out), "batch with sim devices runs")
    if ok:
        run = json.load(open(out))["runs"][0]
        names = [d["name"] for d in run["devices"]]
        check(names == ["cpu:0", "sim:0"] and
              run["settings"]["schedule"] == "static",
              f"batch: devices {names}, schedule {run['settings']['schedule']}")
        src = write_source("cheap_batch_ref", CHEAP)
        ref = vegasc(exe, [src, "-q", "--calls", 100000, "--iterations", 2,
                           "--warmup", 0, "--devices", "cpu:2"])
        check(ref.doc and ref.doc["result"]["mean"] == run["result"]["mean"],
              "batch result = CLI result on other devices, bitwise")


def bad_input(exe):
    src = write_source("cheap_bad", CHEAP)
    for args, what in ((["--schedule", "fastest"], "unknown schedule"),
                       (["--schedule", "dynamic:0"], "dynamic:0"),
                       (["--devices", "sim:0"], "sim:0"),
                       (["--devices", "sim:x"], "sim:x"),
                       (["--devices", "cpu,cpu:2"], "the CPU named twice")):
        r = vegasc(exe, [src, "-q", "--calls", 1000] + args, json_out=False)
        check(r.rc == 2 and "error" in r.err,
              f"{what}: usage error (exit {r.rc}): {r.err.strip()[:120]}")


def main():
    exe = sys.argv[1]
    determinism(exe)
    balance(exe)
    stats_and_ninc(exe)
    batch(exe)
    bad_input(exe)
    finish()


if __name__ == "__main__":
    main()
