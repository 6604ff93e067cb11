#!/usr/bin/env bash
#===- scripts/install-deps.sh - Install the build dependencies -------------===#
#
# Installs, with apt-get, the Debian 12 packages vegasflow needs to build and
# test. Idempotent: packages already present are skipped, and when nothing is
# missing it returns in well under a second without touching apt. Uses sudo
# when not run as root.
#
#===------------------------------------------------------------------------===#
set -euo pipefail

packages=(
  # toolchain and LLVM 19 (static components, headers, lit tools)
  cmake ninja-build ccache clang-19 lld-19 llvm-19-dev llvm-19-tools libclang-rt-19-dev
  # Clang in the process for C/C++ integrands (compiler/clang: the static
  # archives of libclang-19-dev, the headers of libclang-cpp19-dev); Clang's
  # built-in headers and g++-12's libstdc++ headers, which a C++ integrand
  # needing the C++ run-time library (<vector>, ...) is compiled with
  # (clang-19 depends on both; named for what vegasc reads at run time)
  libclang-19-dev libclang-cpp19-dev libclang-common-19-dev libstdc++-12-dev
  # compression libraries the static LLVM components link against
  zlib1g-dev libzstd-dev
  # libraries the project uses
  libcli11-dev libtomlplusplus-dev nlohmann-json3-dev libfmt-dev libgtest-dev
  # lit runs on python3; the Python module (python/: built against
  # python3-dev's headers, which pybind11-dev does not pull in) and its tests
  python3 python3-dev pybind11-dev python3-numpy python3-pytest
  # Result.uvalues() (correlated values, as gvar for vegas) and its test
  python3-uncertainties
  # the multi-channel examples' references by quadrature
  # (tests/integration/multichannel_refs.py) and their test
  python3-scipy
  # scripts/gpu-pack.sh compresses the GPU carry (strip is binutils)
  xz-utils binutils
  # the Dask driver (python/vegasflow/dask.py) and its test
  python3-distributed
  # test references and benchmark peers
  libmpfr-dev libsleef-dev libgsl-dev librandom123-dev
  # MPI
  libopenmpi-dev openmpi-bin
  # event files (LHE, HepMC3) and their readers in the tests
  libhepmc3-dev
  # the HTML report's test renders it in a headless browser
  chromium
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
