#!/usr/bin/env bash
#===- scripts/gpu-pack.sh - What to carry to a GPU machine -----------------===#
#
# Builds vegasc without MPI (the GPU machine has no MPI and no LLVM) and
# without C/C++ integrands and event files (the static Clang libraries would
# double its size, HepMC3 is a shared library the GPU machine lacks;
# the GPU check runs .vf files only), strips
# it, checks that it needs only libc, libm, libstdc++, libgcc_s, zlib and
# zstd, and writes the carry (default gpu-carry/, git-ignored; GPU_CARRY
# names another folder):
#
#   vegasc.xz      the binary, xz-compressed (gpu-check.sh unpacks it)
#   vf-gpu-check.xz  the checks that are not vegasc's (tests/gpu: the math
#                  library's GPU-vs-CPU bit identity, the suite's
#                  comparisons and rates), built and checked the same way
#   gpu-check.sh   the one command to run there (GPU.md)
#   suite/NAME.vf  the known integrals, NAME.calls their budgets (and
#                  slow_paths, which takes every math slow path, and
#                  slow_paths_f32 every float one, and
#                  channels, a multi-channel integrand, spinors,
#                  complex helicity amplitudes, and pdf, parton densities
#                  of the test set in suite/VFToyLO; weights.vf, weight
#                  lists and a histogram)
#
# and fails if the carry exceeds 60 MiB (the GPU machine takes 64 MiB of
# carried files in all).
#
#   scripts/gpu-pack.sh              build in build/gpu-pack (GPU_PACK_BUILD)
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/.."
CARRY=${GPU_CARRY:-gpu-carry}
BUILD=${GPU_PACK_BUILD:-build/gpu-pack}
LIMIT=$((60 * 1024 * 1024))

cmake --preset release -B "$BUILD" -DVF_MPI=OFF -DVF_CLANG_INTEGRANDS=OFF \
  -DVF_HEPMC3=OFF > /dev/null
cmake --build "$BUILD" --target vegasc vf-gpu-check -j 2 \
  > "$BUILD/gpu-pack-build.log" ||
  { tail -n 30 "$BUILD/gpu-pack-build.log" >&2; exit 1; }
rm -rf "$CARRY"
mkdir -p "$CARRY/suite"
allowed='linux-vdso|libc\.so|libm\.so|libstdc\+\+|libgcc_s|libz\.so|libzstd|ld-linux'
for exe in vegasc vf-gpu-check; do
  cp "$BUILD/bin/$exe" "$CARRY/$exe"
  strip "$CARRY/$exe"
  if ldd "$CARRY/$exe" | grep -vE "$allowed" | grep -q .; then
    echo "gpu-pack: $exe needs more than libc, libm, libstdc++, libgcc_s, zlib and zstd:" >&2
    ldd "$CARRY/$exe" >&2
    exit 1
  fi
  xz -T2 -6 -f "$CARRY/$exe"
done
cp scripts/gpu-check.sh "$CARRY/gpu-check.sh"
chmod +x "$CARRY/gpu-check.sh"
python3 - tests/testdata/known_integrals.toml "$CARRY/suite" <<'PY'
import sys, tomllib
known = tomllib.load(open(sys.argv[1], "rb"))
for name, entry in known.items():
    open(f"{sys.argv[2]}/{name}.vf", "w").write(entry["source"])
    open(f"{sys.argv[2]}/{name}.calls", "w").write(f"{entry['calls']}\n")
PY
# Not an exact integral: every slow path of the math library on a share of
# the samples, for the GPU kernel's copy on the fast paths and its exact
# fallback (compiler/bitcode/FastIntegrand.h) against the CPU, bit for bit.
cat > "$CARRY/suite/slow_paths.vf" <<'VF'
integrand s(x in [0, 1]^3) = exp(-1000 * x[0]) + 0.001 * log(x[1] * 1e-306) + sin(2e9 * x[2]) + cos(2e9 * x[2]) + 0.001 * tan(3e9 * x[0])
VF
echo 200000 > "$CARRY/suite/slow_paths.calls"
# The same for the float library (--precision f32, whose suite leaves out
# slow_paths: 1e-306 is 0 as a float): 1e-40 is a subnormal float.
cat > "$CARRY/suite/slow_paths_f32.vf" <<'VF'
integrand s(x in [0, 1]^3) = exp(-1000 * x[0]) + 0.001 * log(x[1] * 1e-40) + sin(2e9 * x[2]) + cos(2e9 * x[2]) + 0.001 * tan(3e9 * x[0])
VF
echo 200000 > "$CARRY/suite/slow_paths_f32.calls"
# A multi-channel integrand (issue 37): each channel's kernel clone behind
# the GPU kernel's dispatcher, its Philox blocks and the weights after the
# parameters, against the CPU bit for bit.
cat > "$CARRY/suite/channels.vf" <<'VF'
import "std/channels"
fn g(x, c) = exp(-(x - c)^2 / 0.0002) / sqrt(0.0002 * pi)
fn f(x: [2]) = g(x[0], 0.25) * g(x[1], 0.75) + g(x[0], 0.75) * g(x[1], 0.25)
fn d(x: [2], a, b) = bw_density(x[0], sqrt(a), 0.01 / sqrt(a), 0, 1) *
                     bw_density(x[1], sqrt(b), 0.01 / sqrt(b), 0, 1)
fn pt(u: [2], a, b) -> [3] {
    let mx = bw_map(u[0], sqrt(a), 0.01 / sqrt(a), 0, 1)
    let my = bw_map(u[1], sqrt(b), 0.01 / sqrt(b), 0, 1)
    return [mx[0], my[0], mx[1] * my[1]]
}
integrand peaks(u in [0, 1]^2) {
    channel upper {
        let p = pt(u, 0.25, 0.75)
        let x = [p[0], p[1]]
        return f(x) * p[2] * kp_share2(1, alpha(upper), d(x, 0.25, 0.75),
                                       alpha(lower), d(x, 0.75, 0.25))
    }
    channel lower {
        let p = pt(u, 0.75, 0.25)
        let x = [p[0], p[1]]
        return f(x) * p[2] * kp_share2(2, alpha(upper), d(x, 0.25, 0.75),
                                       alpha(lower), d(x, 0.75, 0.25))
    }
}
VF
echo 200000 > "$CARRY/suite/channels.calls"
# Complex values (issue 38): e+e- -> mu+mu- from helicity amplitudes in
# spinor products, its pairs of doubles against the CPU bit for bit.
grep -v '^integrand [ud]ubar_ll\|^integrand [ud]dbar_ll' \
  examples/physics/ee_mumu_spinors.vf > "$CARRY/suite/spinors.vf"
echo 200000 > "$CARRY/suite/spinors.calls"
# Parton densities (issue 39): the test set's block copied to the device
# once per run and read there by xfx and alphas of two members, against
# the CPU bit for bit (the fake driver cannot show the device-side read).
cp -r tests/testdata/pdf/VFToyLO "$CARRY/suite/VFToyLO"
cat > "$CARRY/suite/pdf.vf" <<'VF'
pdf p = "./VFToyLO"
pdf q = "./VFToyLO" member 1
param mu = 91.1876
integrand dy(x in [0.001, 1]^2) {
    let lum = xfx(p, 2, x[0], mu * (1 + x[1])) * xfx(q, -2, x[1], mu, 0)
    return lum * alphas(p, mu * x[0] + 2) / (x[0] * x[1])
}
VF
echo 200000 > "$CARRY/suite/pdf.calls"
# Weight lists and a histogram (issue 39): lane 0 adds the cells and the
# entries and their differences in sample order, against the CPU bit for
# bit (the compare covers histograms and weight_lists).
cat > "$CARRY/suite/weights.vf" <<'VF'
integrand w(x in [0, 1]^3) {
    let f = exp(-x[0] * x[1]) * (1 + x[2])
    hist h(x[0], 0, 1, 10)
    weights scales(k in 0..7: f * (1 + (k - 3) * x[1] / 10))
    return f
}
VF
echo 200000 > "$CARRY/suite/weights.calls"
size=$(du -sb "$CARRY" | cut -f1)
if [ "$size" -gt "$LIMIT" ]; then
  echo "gpu-pack: the carry is $size bytes, over the 60 MiB limit" >&2
  exit 1
fi
echo "gpu-pack: $CARRY is $((size / 1024 / 1024)) MiB ($size bytes)"
ls -la "$CARRY"
