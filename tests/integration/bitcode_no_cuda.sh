#!/usr/bin/env bash
#===- tests/integration/bitcode_no_cuda.sh - GPU bitcode needs no toolkit -===#
#
# Repeats every nvptx64 bitcode compile of the build (the commands that
# cmake/Bitcode.cmake recorded) with --cuda-path pointing at an empty
# folder, and checks that each gives byte for byte the build's file. clang
# takes its default PTX ISA from a CUDA toolkit it finds; a build machine
# with one and a user's without must embed the same bitcode, and the
# user's must build at all (issue: the README's commands failed on a fresh
# Debian 12 machine).
#
# Usage: bitcode_no_cuda.sh COMMANDS_FILE
#
#===------------------------------------------------------------------------===#
set -euo pipefail
commands=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/empty-cuda"
n=0
while IFS=$'\t' read -r ref cmd; do
  [ -n "$ref" ] || continue
  out="$work/out.bc"
  if ! eval "$cmd --cuda-path=$work/empty-cuda -o $out" 2>"$work/err"; then
    echo "FAIL: $(basename "$ref") does not build without a CUDA toolkit:"
    cat "$work/err"
    exit 1
  fi
  if ! cmp -s "$out" "$ref"; then
    echo "FAIL: $(basename "$ref") differs when no CUDA toolkit is found"
    exit 1
  fi
  n=$((n + 1))
done <"$commands"
if [ "$n" -eq 0 ]; then
  echo "FAIL: no nvptx64 bitcode command recorded in $commands"
  exit 1
fi
echo "ok: $n nvptx64 bitcode files identical without a CUDA toolkit"
