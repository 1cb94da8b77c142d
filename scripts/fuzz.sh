#!/usr/bin/env bash
# A bounded libFuzzer run of the frontend (parse + lower + render diagnostics) in CI: builds the
# fuzz target with clang and sanitizers in build/fuzz, seeds it with tests/fuzz/corpus/frontend and the
# conformance programs, and fails on any crash, leak, timeout or sanitizer report.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
seconds=${FITZ_FUZZ_SECONDS:-30}
out=build/fuzz
if [[ ! -f $out/build.ninja ]]; then
  cmake -S . -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DFITZ_FUZZ=ON >/dev/null
fi
cmake --build "$out" --target fitz_frontend_fuzz
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
cp tests/fuzz/corpus/frontend/* "$corpus"/ 2>/dev/null || true
if [[ -d ../shared/conformance ]]; then
  for f in ../shared/conformance/*/*.fitz; do cp "$f" "$corpus/$(basename "$(dirname "$f")")_$(basename "$f")"; done
fi
"$out/bin/fitz_frontend_fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
  -max_len=65536 -print_final_stats=1 "$corpus" 2>&1 | tail -n 15
