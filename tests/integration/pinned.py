#===- tests/integration/pinned.py - Results pinned bit for bit ------------===#
#
# A handful of runs whose results were recorded (tests/testdata/
# pinned_results.json) before the runtime and the driver were restructured:
# a scalar and a vector integrand, classic VEGAS, a frozen-strata run, CPU
# threads mixed with a simulated device and with fake GPUs, and a TOML
# batch. A change that is meant to keep behaviour (a refactoring, a faster
# kernel that computes the same operations) must keep every number here
# bitwise; one that changes results on purpose re-records them with
# --record and says why in its commit.
#
# Usage: pinned.py VEGASC FAKECUDA PINNED.json [--record]
#
#===----------------------------------------------------------------------===#
import json
import os
import sys

from vftest import check, finish, vegasc, workdir, write_source

SOURCES = {
    "gauss4": """
param a = 0.2
integrand gauss4(x in [0, 1]^4) =
    prod(i in 0..4: exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))
""",
    "moments3": """
integrand moments3(x in [0, 2]^3) -> [3] {
    return [x[0], x[0] * x[1], x[0]^2 + x[2]]
}
""",
}

BUDGET = ["--calls", "30000", "--iterations", "4", "--warmup", "2"]

CASES = [
    ("gauss4-cpu2", "gauss4", ["--devices", "cpu:2", "--seed", "7"], {}),
    ("gauss4-classic", "gauss4",
     ["--devices", "cpu:1", "--beta", "0", "--alpha", "1.5"], {}),
    ("gauss4-sim-dynamic", "gauss4",
     ["--devices", "cpu:1,sim:3", "--schedule", "dynamic:2", "--seed", "3"], {}),
    ("moments3-cpu", "moments3", ["--devices", "cpu:2", "--seed", "11"], {}),
    ("gauss4-fakegpu", "gauss4",
     ["--devices", "cpu:1,gpu", "--schedule", "static", "--seed", "5"],
     {"fake": True}),
    ("moments3-fakegpu", "moments3",
     ["--devices", "gpu:0", "--seed", "2"], {"fake": True}),
]

BATCH = """
[defaults]
calls = 20000
iterations = 3
warmup = 2
devices = "cpu:2"

[[run]]
name = "scan"
file = "{file}"
scan.a = [0.1, 0.3]
"""


def numbers(doc):
    """The numbers a result consists of (not times or device splits)."""
    r = doc["result"]
    out = {k: r[k] for k in ("mean", "error", "chi2_dof", "Q", "evaluations")}
    if "covariance" in r:
        out["covariance"] = r["covariance"]
    out["iterations"] = [
        {k: it[k] for k in ("mean", "error", "cumulative_mean",
                            "cumulative_error", "chi2_dof", "Q", "samples")}
        for it in doc["iterations"]]
    return out


def main():
    exe, fake, pinned_path = sys.argv[1:4]
    record = "--record" in sys.argv[4:]
    files = {n: write_source(n, s) for n, s in SOURCES.items()}
    got = {}
    for name, src, args, opts in CASES:
        if opts.get("fake"):
            os.environ["VF_CUDA_LIBRARY"] = fake
            os.environ["VF_FAKE_CUDA_DEVICES"] = "2"
        r = vegasc(exe, [files[src]] + BUDGET + args)
        os.environ.pop("VF_CUDA_LIBRARY", None)
        os.environ.pop("VF_FAKE_CUDA_DEVICES", None)
        if not check(r.rc == 0 and r.doc, f"{name}: runs"):
            print(r)
            continue
        # Only a GPU-only run is sure to give the GPUs work: beside a CPU
        # thread, which device takes the tiles depends on timing.
        if opts.get("fake") and "gpu:0" in args:
            check(all(d["kind"] == "gpu" and d["samples"] > 0
                      for d in r.doc["devices"]),
                  f"{name}: the fake GPUs ran every sample")
        got[name] = numbers(r.doc)
    toml = os.path.join(workdir(), "pinned.toml")
    with open(toml, "w") as f:
        f.write(BATCH.replace("{file}", files["gauss4"]))
    r = vegasc(exe, [toml])
    if check(r.rc == 0 and r.doc, "batch: runs"):
        for k, run in enumerate(r.doc["runs"]):
            got[f"batch-{k}"] = numbers(run)
    if record:
        with open(pinned_path, "w") as f:
            json.dump(got, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"recorded {len(got)} results in {pinned_path}")
        return
    with open(pinned_path) as f:
        want = json.load(f)
    for name in sorted(want):
        check(got.get(name) == want[name],
              f"{name}: bitwise the recorded result")
        if got.get(name) != want[name]:
            print(f"  want {json.dumps(want[name])[:400]}\n"
                  f"  got  {json.dumps(got.get(name))[:400]}")
    finish()


if __name__ == "__main__":
    main()
