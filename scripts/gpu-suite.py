#!/usr/bin/env python3
"""The known-integral suite on one --devices spec, for scripts/gpu-check.sh.

    gpu-suite.py VEGASC KNOWN_INTEGRALS.toml DEVICES OUT_DIR
    gpu-suite.py --compare OUT_DIR DEVICES_A DEVICES_B

Prints one line per integral (estimate, error, pulls against the exact
value) and exits non-zero if any is off by 5 sigma or more or fails to run.
--compare reads two such runs (same seed) and checks that every estimate
and error agrees to 1e-12 relative, saying which agree bit for bit.
"""
import json, subprocess, sys, tomllib, os


def suite_file(out, devices):
    return os.path.join(out, f"suite-{devices.replace(':', '_').replace(',', '+')}.json")


if sys.argv[1] == "--compare":
    out, a, b = sys.argv[2:5]
    A = json.load(open(suite_file(out, a)))["results"]
    B = json.load(open(suite_file(out, b)))["results"]
    bad = bitwise = 0
    for name in sorted(set(A) & set(B)):
        pa, pb = A[name], B[name]
        rel = max(abs(x - y) / max(abs(y), 1e-300) for x, y in zip(pa, pb))
        bitwise += pa == pb
        bad += rel > 1e-12
        print(f"{name}: {a} vs {b}: max relative difference {rel:.2e}"
              f"{' (bitwise)' if pa == pb else ''}")
    n = len(set(A) & set(B))
    print(f"compare {a} {b}: {n - bad} of {n} within 1e-12, {bitwise} bitwise")
    sys.exit(1 if bad or n == 0 else 0)

exe, toml, devices, out = sys.argv[1:5]
results = {}
known = tomllib.load(open(toml, "rb"))
fails = 0
for name, e in known.items():
    src = os.path.join(out, name + ".vf")
    open(src, "w").write(e["source"])
    cmd = [exe, src, "-q", "--json", "-", "--devices", devices,
           "--calls", str(e["calls"]), "--iterations", str(e["iterations"]),
           "--warmup", "5"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        print(f"{name}: {devices}: skipped or failed: {r.stderr.strip()[:200]}")
        fails += 1
        continue
    res = json.loads(r.stdout)["result"]
    mean = res["mean"] if isinstance(res["mean"], list) else [res["mean"]]
    err = res["error"] if isinstance(res["error"], list) else [res["error"]]
    exact = e["exact"] if isinstance(e["exact"], list) else [e["exact"]]
    results[name] = mean + err
    pulls = [(m - x) / s if s else 0 for m, x, s in zip(mean, exact, err)]
    ok = all(abs(p) < 5 for p in pulls)
    fails += not ok
    print(f"{name}: {devices}: {mean} +- {err} pulls {['%.2f' % p for p in pulls]} {'ok' if ok else 'OFF'}")
json.dump({"devices": devices, "failures": fails, "results": results},
          open(suite_file(out, devices), "w"))
print(f"suite {devices}: {len(known) - fails} of {len(known)} within 5 sigma")
sys.exit(1 if fails else 0)
