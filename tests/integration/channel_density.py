#!/usr/bin/env python3
#===- tests/integration/channel_density.py - density() in VAMP's weight ---===#
#
# Usage: channel_density.py VEGASC-EMU LIBFAKECUDA
#
# The anti-diagonal peaks of examples/physics/antidiagonal_peaks.vf written
# as VAMP writes them: each channel's share of the integrand divides by the
# exact combined density sum_j alpha_j g_j(x), where g_j is channel j's
# mapping density times density(j, u_j), its adapted VEGAS map's density at
# u_j, the mapping's inverse of the point (LANGUAGE.md v3, "Channels").
#
# 1. The result is within 5 sigma of the reference, 1 (the erf closed form;
#    the tails beyond the square are below 1e-30), and the weights adapt
#    (alpha() is read).
# 2. Bitwise the same result (every iteration, every channel's alpha and
#    integral) with 1 and 2 threads and on two emulated GPUs (the fake
#    driver running the PTX kernel's code, tests/fakecuda), whose parameter
#    block carries the maps as the CPU's does.
# 3. --eval takes identity maps: density() is 1 there, so the channels' sum
#    at alpha = 1/2 is the integrand written with the mappings' densities
#    alone (the same value, bit for bit).
#
#===----------------------------------------------------------------------===#
import os
import sys

from vftest import check, finish, vegasc, with_env, write_source

COMMON = """
import "std/channels"

const sigma = 0.003

fn gauss2(x: [2], a, b) =
    exp(-((x[0] - a)^2 + (x[1] - b)^2) / (2 * sigma^2)) / (4 * pi * sigma^2)
fn peaks_f(x: [2]) = gauss2(x, 0.25, 0.75) + gauss2(x, 0.75, 0.25)

fn cauchy_map(u, c) -> [2] = bw_map(u, sqrt(c), sigma / sqrt(c), 0, 1)
fn cauchy_inverse(x, c) -> [2] = bw_inverse(x, sqrt(c), sigma / sqrt(c), 0, 1)

# The mapping of the channel centred on (a, b): its density at x, and the
# point of the unit square it maps to x.
fn g_peak(x: [2], a, b) = cauchy_inverse(x[0], a)[1] * cauchy_inverse(x[1], b)[1]
fn u_peak(x: [2], a, b) -> [2] =
    [cauchy_inverse(x[0], a)[0], cauchy_inverse(x[1], b)[0]]
"""

# Channel NAME centred on (cx, cy), the k-th: each g_j times DENSITIES[j].
CHANNEL = """
    channel {name} {{
        let mx = cauchy_map(u[0], {cx})
        let my = cauchy_map(u[1], {cy})
        let x = [mx[0], my[0]]
        return peaks_f(x) * mx[1] * my[1] *
               kp_share2({k}, alpha(upper), g_peak(x, 0.25, 0.75){du},
                         alpha(lower), g_peak(x, 0.75, 0.25){dl})
    }}
"""


def source(upper_densities, lower_densities):
    """The integrand vamp, each channel's two g_j multiplied by its pair."""
    du, dl = upper_densities
    eu, el = lower_densities
    return (COMMON + "integrand vamp(u in [0, 1]^2) {" +
            CHANNEL.format(name="upper", cx=0.25, cy=0.75, k=1, du=du, dl=dl) +
            CHANNEL.format(name="lower", cx=0.75, cy=0.25, k=2, du=eu, dl=el) +
            "}\n")


# A channel's own u_j is its point; the other's, its mapping's inverse.
VAMP = source((" * density(upper, u)",
               " * density(lower, u_peak(x, 0.75, 0.25))"),
              (" * density(upper, u_peak(x, 0.25, 0.75))",
               " * density(lower, u)"))
# The same at identity maps, density() written as 1.
IDENTITY = source(("", ""), ("", ""))

BUDGET = ["-q", "--seed", 1, "--calls", 20000, "--iterations", 6,
          "--warmup", 2]


def fingerprint(doc):
    res = doc["result"]
    return (res["mean"], res["error"],
            [(it["mean"], it["error"], it["samples"],
              [(c["alpha"], c["integral"]) for c in it["channels"]])
             for it in doc["iterations"]])


def accuracy_and_weights(ref):
    res = ref.doc["result"]
    pull = (res["mean"] - 1) / res["error"]
    check(abs(pull) < 5, f"vamp: {res['mean']} +- {res['error']} within "
          f"5 sigma of 1 (pull {pull:.2f})")
    alphas = [[c["alpha"] for c in it["channels"]]
              for it in ref.doc["iterations"]]
    check(all(abs(sum(a) - 1) < 1e-12 and min(a) > 0 for a in alphas),
          "vamp: the weights are positive and add up to 1")
    check(len({tuple(a) for a in alphas}) > 1,
          f"vamp: the weights adapt ({alphas[0]} -> {alphas[-1]})")


def main():
    exe, fake = sys.argv[1], os.path.abspath(sys.argv[2])
    src = write_source("vamp", VAMP)
    with_env(VF_CUDA_LIBRARY="/nonexistent/libcuda.so.1")
    ref = vegasc(exe, [src, "--devices", "cpu:1"] + BUDGET)
    if not check(ref.rc == 0 and ref.doc, "vamp: integrates on one thread"):
        print(ref)
        return
    accuracy_and_weights(ref)
    two = vegasc(exe, [src, "--devices", "cpu:2"] + BUDGET)
    check(two.rc == 0 and two.doc and
          fingerprint(two.doc) == fingerprint(ref.doc),
          "vamp: two threads give the one thread's result bit for bit")
    with_env(VF_CUDA_LIBRARY=fake, VF_FAKE_CUDA_DEVICES=2)
    gpu = vegasc(exe, [src, "--devices", "gpu"] + BUDGET)
    ok = check(gpu.rc == 0 and gpu.doc and
               fingerprint(gpu.doc) == fingerprint(ref.doc),
               "vamp: two emulated GPUs give the CPU's result bit for bit")
    if not ok:
        print(gpu)
    elif gpu.doc:
        check(all(d["kind"] == "gpu" for d in gpu.doc["devices"]),
              "vamp: the GPUs ran every sample")
    with_env(VF_CUDA_LIBRARY="/nonexistent/libcuda.so.1",
             VF_FAKE_CUDA_DEVICES=None)
    at = ["--eval", "--at", "0.3,0.8"]
    vamp = vegasc(exe, [src] + at, json_out=False)
    plain = vegasc(exe, [write_source("identity", IDENTITY)] + at,
                   json_out=False)
    check(vamp.rc == 0 and plain.rc == 0 and vamp.out == plain.out,
          f"vamp: --eval takes identity maps ({vamp.out.strip()!r} == "
          f"{plain.out.strip()!r})")


if __name__ == "__main__":
    main()
    finish()
