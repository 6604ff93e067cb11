#===- tests/integration/std_channels.py - The mappings of std/channels ----===#
#
# Every mapping of std/channels (KIND_map, KIND_inverse, KIND_density) on
# the ranges a physicist uses it on:
#   - inverse(map(t)) within 1e-14 of t (absolute), for t on a grid of
#     [0, 1] with its ends;
#   - map(inverse(v)) within 1e-14 of v (relative), for v on a grid of the
#     range, plus what the rounding of t alone moves v by (|dv/dt| 2^-53,
#     half an ulp of t <= 1): where a map is steep (1/x^2 near its top
#     end, a decay far down its tail) that floor exceeds 1e-14 |v| for any
#     formula, and the relative error is printed with it;
#   - the map's Jacobian times the density at its value is 1 (1e-12);
#   - the density integrates to 1 over the range (vegasc, within 5 sigma);
#   - the Kleiss-Pittau shares kp_share2 ... kp_share8 add up to 1.
# Values are computed by the compiled code (vegasc --eval), which is what
# an integrand runs. A narrow resonance is left out of the round trips on
# purpose: there s's own rounding (eps * s) moves t by density(s) * eps * s,
# which no formula can undo (docs/language.md, std/channels).
#
# Usage: std_channels.py VEGASC
#
#===----------------------------------------------------------------------===#
import math
import sys

from vftest import check, finish, vegasc, write_source

# name: (kind, parameters after the first argument, value range)
CASES = {
    "bw_z": ("bw", "91.1876, 2.4952, 50^2, 150^2", (50**2, 150**2)),
    "bw_above": ("bw", "91.1876, 2.4952, 100^2, 300^2", (100**2, 300**2)),
    "bw_below": ("bw", "91.1876, 2.4952, 10^2, 80^2", (10**2, 80**2)),
    "power_1": ("power", "1, 50^2, 150^2", (50**2, 150**2)),
    "power_2": ("power", "2, 1, 1000", (1, 1000)),
    "power_half": ("power", "0.5, 0.01, 10", (0.01, 10)),
    "tchannel_photon": ("tchannel", "0, -1e4, -1", (-1e4, -1)),
    "tchannel_w": ("tchannel", "80.4, -1e4, 0", (-1e4, 0)),
    "exp_decay": ("exp", "-1, 0, 10", (0, 10)),
    "exp_rise": ("exp", "2.5, 1, 3", (1, 3)),
    "exp_flat": ("exp", "0, 0, 1", (0, 1)),
}

N = 1000


def source():
    """One integrand per case and check: each returns its worst error over
    the grid (the point does not matter)."""
    lines = ['import "std/channels"', f"const n = {N}"]
    for name, (kind, args, (lo, hi)) in CASES.items():
        t = "(k / n)"
        v = f"({lo!r} + (k + 0.5) / n * ({hi!r} - ({lo!r})))"
        lines += [
            f"integrand rt_{name}(x in [0, 1]) = max(k in 0..n + 1: "
            f"abs({kind}_inverse({kind}_map({t}, {args})[0], {args})[0] - {t}))",
            f"integrand vr_{name}(x in [0, 1]) = max(k in 0..n: "
            f"abs({kind}_map({kind}_inverse({v}, {args})[0], {args})[0] / {v} - 1))",
            f"integrand floor_{name}(x in [0, 1]) = max(k in 0..n: "
            f"abs({kind}_map({kind}_inverse({v}, {args})[0], {args})[0] - {v}) / "
            f"(1e-14 * abs({v}) + "
            f"{kind}_map({kind}_inverse({v}, {args})[0], {args})[1] * 2^-53))",
            f"integrand jd_{name}(x in [0, 1]) = max(k in 0..n + 1: "
            f"abs({kind}_map({t}, {args})[1] * "
            f"{kind}_density({kind}_map({t}, {args})[0], {args}) - 1))",
            f"integrand norm_{name}(v in [{lo!r}, {hi!r}]) = "
            f"{kind}_density(v, {args})",
        ]
    for m in range(2, 9):
        # alpha_j = j / (m (m + 1) / 2), g_j = j + 1: the shares add up to 1.
        args = ", ".join(f"{j / (m * (m + 1) / 2)!r}, {j + 1}"
                         for j in range(1, m + 1))
        lines.append(f"integrand kp_{m}(x in [0, 1]) = "
                     f"abs(sum(k in 1..{m + 1}: kp_share{m}(k, {args})) - 1)")
    return "\n".join(lines) + "\n"


def evaluate(exe, src, integrand):
    r = vegasc(exe, [src, "--eval", "--at", "0.5", "--integrand", integrand],
               json_out=False)
    if not check(r.rc == 0, f"{integrand}: vegasc --eval succeeds"):
        print(r)
        return math.inf
    return float(r.out.split()[0])


def main():
    exe = sys.argv[1]
    src = write_source("channels", source())
    for name in CASES:
        rt = evaluate(exe, src, f"rt_{name}")
        check(rt <= 1e-14, f"{name}: |inverse(map(t)) - t| = {rt:.3g} <= 1e-14")
        vr = evaluate(exe, src, f"vr_{name}")
        floor = evaluate(exe, src, f"floor_{name}")
        check(floor <= 1,
              f"{name}: |map(inverse(v)) / v - 1| = {vr:.3g}, within 1e-14 "
              f"plus t's rounding ({floor:.3g} of that)")
        jd = evaluate(exe, src, f"jd_{name}")
        check(jd <= 1e-12,
              f"{name}: |jacobian * density - 1| = {jd:.3g} <= 1e-12")
        r = vegasc(exe, [src, "--integrand", f"norm_{name}", "-q", "--seed", 1,
                         "--calls", 2e4, "--iterations", 5, "--warmup", 3])
        if not check(r.rc == 0 and r.doc is not None,
                     f"{name}: the density integrates"):
            print(r)
            continue
        m, e = r.doc["result"]["mean"], r.doc["result"]["error"]
        print(f"{name}: integral of the density {m!r} +- {e:.3g}")
        check(0 < e < 1e-2 and abs(m - 1) <= 5 * e,
              f"{name}: the density integrates to 1 within 5 sigma")
    for m in range(2, 9):
        kp = evaluate(exe, src, f"kp_{m}")
        check(kp <= 1e-15, f"kp_share{m}: the {m} shares add up to 1 ({kp:.3g})")
    finish()


if __name__ == "__main__":
    main()
