#!/usr/bin/env bash
# The sanitizer stage: builds the toolchain and its tests once with AddressSanitizer +
# UndefinedBehaviorSanitizer (-DFITZ_SANITIZE=ON: every report is fatal, leaks included) and
# runs the unit, golden, runtime, HTTP and Postgres test binaries, then the CLI end-to-end
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
tests=(fitz_runtime_tests fitz_pg_tests fitz_http_tests fitz_unit_tests fitz_golden_tests)
cmake --build "$out" -j"$(nproc)" --target fitz "${tests[@]}"

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

# Each test binary runs whole (one sanitized process per binary rather than per test case, and
# only the binaries built here, whatever else the tree registers with ctest).
status=0
for t in "${tests[@]}"; do
  start=$SECONDS
  if "$out/bin/$t" --gtest_brief=1 >"$out/$t.log" 2>&1; then
    echo "sanitized $t: $(tail -n1 "$out/$t.log") ($((SECONDS - start)) s)"
  else
    echo "sanitized $t FAILED:"
    grep -E -B2 -A30 'runtime error|ERROR: (Address|Leak|Undefined)Sanitizer|\[  FAILED  \]' "$out/$t.log" | head -n 80
    status=1
  fi
done
bash tests/e2e/run.sh "$out/bin/fitz" || status=1
bash tests/e2e/new.sh "$out/bin/fitz" || status=1
exit $status
