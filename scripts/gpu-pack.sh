#!/usr/bin/env bash
#===- scripts/gpu-pack.sh - Binaries to carry to a GPU machine -------------===#
#
# Builds a release tree without MPI (build/gpu-pack: the GPU machine has
# no MPI library, and no LLVM) and without C/C++ integrands (the static
# Clang libraries would take vegasc past the carry's 64 MiB; the GPU
# check runs .vf files only), and copies stripped vegasc and
# vf_gpu_math_check into gpu-carry/ (git-ignored), after checking that they
# need only libc, libstdc++, zlib and zstd.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset release -B build/gpu-pack -DVF_MPI=OFF -DVF_CLANG_INTEGRANDS=OFF > /dev/null
cmake --build build/gpu-pack --target vegasc vf_gpu_math_check
mkdir -p gpu-carry
for b in vegasc vf_gpu_math_check; do
  cp build/gpu-pack/bin/$b gpu-carry/$b
  strip gpu-carry/$b
  if ldd gpu-carry/$b | grep -vE 'linux-vdso|libc\.so|libm\.so|libstdc\+\+|libgcc_s|libz\.so|libzstd|ld-linux' | grep -q .; then
    echo "gpu-pack: $b needs more than libc, libstdc++, zlib and zstd:" >&2
    ldd gpu-carry/$b >&2
    exit 1
  fi
done
ls -la gpu-carry
