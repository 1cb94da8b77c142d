#!/usr/bin/env bash
# The sanitizer stage: builds the toolchain and its tests once with AddressSanitizer +
# UndefinedBehaviorSanitizer (-DFITZ_SANITIZE=ON: every report is fatal, leaks included) and
# runs the unit, golden, runtime, HTTP and Postgres tests through ctest, then the CLI end-to-end
# tests against the sanitized `fitz`. Programs that `fitz` compiles link the sanitized runtime,
# so they are compiled with the same sanitizers (FITZ_CXX below). Only test targets are built.
# Usage: scripts/sanitize-tests.sh [BUILD_DIR]   (default build/asan; Postgres tests need
# FITZ_TEST_DATABASE_URL, as in scripts/run-tests.sh)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
out=${1:-build/asan}

if [[ ! -f $out/build.ninja ]]; then
  # -O1 keeps the stage fast to build and run; assertions stay on.
  cmake -S . -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DFITZ_SANITIZE=ON >/dev/null
fi
out=$(realpath "$out")
cmake --build "$out" -j"$(nproc)" --target fitz fitz_unit_tests fitz_golden_tests fitz_runtime_tests \
  fitz_http_tests fitz_pg_tests

# The compiler `fitz build/run` uses: the system one with the sanitizers the runtime was built with.
cat >"$out/sanitized-c++" <<'WRAP'
#!/bin/sh
exec "${CXX:-c++}" -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer "$@"
WRAP
chmod +x "$out/sanitized-c++"
export FITZ_CXX=$out/sanitized-c++
export FITZ_CACHE_DIR=$out/fitz-cache
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

status=0
ctest --test-dir "$out" --output-on-failure -j"$(nproc)" || status=1
bash tests/e2e/run.sh "$out/bin/fitz" || status=1
bash tests/e2e/new.sh "$out/bin/fitz" || status=1
exit $status
