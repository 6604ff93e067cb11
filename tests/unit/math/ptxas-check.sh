#!/usr/bin/env bash
#===- tests/unit/math/ptxas-check.sh - The math library through ptxas ------===#
#
# usage: ptxas-check.sh LLC LIBRARY.bc OUT.ptx
# Compiles the nvptx64 math bitcode to PTX for sm_90 (PTX 7.8) and assembles
# it with ptxas. Exits 77 (ctest: skipped) when ptxas is not installed.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
llc=$1 bc=$2 ptx=$3
ptxas=$(command -v ptxas || true)
if [ -z "$ptxas" ] && [ -x /usr/local/cuda/bin/ptxas ]; then
  ptxas=/usr/local/cuda/bin/ptxas
fi
if [ -z "$ptxas" ]; then
  echo "ptxas not found: skipping"
  exit 77
fi
"$llc" -O2 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx78 "$bc" -o "$ptx"
"$ptxas" -arch=sm_90 "$ptx" -o "${ptx%.ptx}.cubin"
echo "ptxas accepted $(grep -c '^.visible .func' "$ptx") functions"
