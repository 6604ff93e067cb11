#!/bin/sh
#===- bench/fuzz/long.sh - The fuzzers for longer than ctest runs them ----===#
#
# Usage: bench/fuzz/long.sh [SECONDS] [BUILD]   (default 3600, build/release)
#
# ctest runs each libFuzzer target for a bounded 30-60 s, which finds what
# is shallow; this runs them for SECONDS each, one after the other, with
# their work corpora in a scratch folder (never in tests/fuzz), and exits
# non-zero at the first finding (the input is left in the scratch folder,
# crash-*). Not part of ctest: it is hours of CPU on this machine.
#
#===----------------------------------------------------------------------===#
set -eu
secs=${1:-3600}
build=${2:-build/release}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/vf-fuzz.XXXXXX")
echo "bench/fuzz: work corpora and findings in $work"
cd "$work"
mkdir -p parts frontend cxx
"$root/$build/bin/vf_fuzz_parts" parts "$root/tests/fuzz/corpus-parts" \
  -max_total_time="$secs" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1
"$root/$build/bin/vf_fuzz_frontend" frontend "$root/tests/fuzz/corpus" \
  -dict="$root/tests/fuzz/vf.dict" -max_total_time="$secs" -timeout=5 \
  -rss_limit_mb=2048 -print_final_stats=1
# C/C++ sources through the portability checker (built where Clang
# integrands are: VF_CLANG_INTEGRANDS).
if [ -x "$root/$build/bin/vf_fuzz_cxx" ]; then
  "$root/$build/bin/vf_fuzz_cxx" cxx "$root/tests/fuzz/cxx-corpus" \
    -dict="$root/tests/fuzz/cxx.dict" -max_total_time="$secs" -timeout=10 \
    -rss_limit_mb=4096 -print_final_stats=1
fi
