#!/usr/bin/env bash
# The sanitizer stage: the toolchain, its runtime and its tests built once with AddressSanitizer
# + UndefinedBehaviorSanitizer, then the unit, golden, runtime, HTTP, Postgres, auth, WebSocket
# and jobs test binaries, the end-to-end tests of the CLI, HTTP services (JWT auth included),
# the db module and the ORM, and the conformance corpus, all against the sanitized `fitz`. A
# sanitized `fitz` links the instrumented runtime next to it, so every program it builds gets
# the same sanitizers.
#
# The build is the clang libFuzzer build (scripts/fuzz.sh configures the same directory the same
# way): its libraries already carry -fsanitize=address,undefined, so one build serves the fuzz
# runs and this stage. Programs `fitz` compiles are built as users build them, by the system
# compiler; its AddressSanitizer runtime links the clang-instrumented libraries.
#
# Every sanitizer report fails the stage: reports go to files under BUILD/sanitizer-reports
# (log_path), which must stay empty, whatever exit status the process that reported had or how
# a test script treated it; the tests' own failures fail it too. Leak checking is on. One gap:
# GCC's UBSan runtime ignores log_path, so undefined behaviour in a program `fitz` built prints
# on stderr; halt_on_error makes it exit 1 there, which the end-to-end tests check.
# Usage: scripts/sanitize-tests.sh [BUILD_DIR]   (default build/fuzz; the Postgres tests need
# FITZ_TEST_DATABASE_URL, as scripts/run-tests.sh sets it)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
out=${1:-build/fuzz}

if [[ ! -f $out/build.ninja ]]; then
  # As scripts/fuzz.sh: -O1 with line tables builds quicker than -O2 -g and reports name lines.
  cmake -S . -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DFITZ_FUZZ=ON >/dev/null || exit 1
fi
out=$(realpath "$out")
if ! grep -Eq '^FITZ_(FUZZ|SANITIZE):BOOL=ON' "$out/CMakeCache.txt"; then
  echo "sanitize: $out is not configured with -DFITZ_FUZZ=ON or -DFITZ_SANITIZE=ON" >&2
  exit 1
fi
tests=(fitz_unit_tests fitz_runtime_tests fitz_golden_tests fitz_http_tests fitz_pg_tests
       fitz_auth_tests fitz_ws_tests fitz_jobs_tests)
# The runtime libraries `fitz build` links programs against (found next to the fitz binary).
libs=()
for l in fitz_runtime fitz_http fitz_db fitz_auth fitz_ws fitz_jobs; do
  grep -q "^build $l:" "$out/build.ninja" && libs+=("$l")
done
start=$SECONDS
cmake --build "$out" -j"$(nproc)" --target fitz "${libs[@]}" "${tests[@]}" || exit 1
echo "sanitize: build $((SECONDS - start)) s"

export FITZ_CACHE_DIR=$out/fitz-cache
reports=$out/sanitizer-reports
rm -rf "$reports"
mkdir -p "$reports"
# Leak checking is on by default; conformance-run.sh prepends detect_leaks=0 for its .leaks cases.
export ASAN_OPTIONS=log_path=$reports/asan
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$reports/ubsan
export LSAN_OPTIONS=suppressions=$root/scripts/lsan.supp:print_suppressions=0

failed=()
# Each test binary runs whole: one sanitized process per binary rather than one per test case.
for t in "${tests[@]}"; do
  start=$SECONDS
  if "$out/bin/$t" --gtest_brief=1 >"$out/$t.log" 2>&1; then
    echo "sanitized $t: $(tail -n1 "$out/$t.log") ($((SECONDS - start)) s)"
  else
    echo "sanitized $t FAILED ($((SECONDS - start)) s):"
    grep -E -A20 '\[  FAILED  \]|runtime error' "$out/$t.log" | head -n 60
    failed+=("$t")
  fi
done

fitz=$out/bin/fitz
e2e() {
  local name=$1 start=$SECONDS
  shift
  if "$@" >"$out/e2e-$name.log" 2>&1; then
    echo "sanitized e2e $name: ok ($((SECONDS - start)) s)"
  else
    echo "sanitized e2e $name FAILED ($((SECONDS - start)) s):"
    tail -n 30 "$out/e2e-$name.log"
    failed+=("e2e-$name")
  fi
}
e2e cli bash tests/e2e/run.sh "$fitz"
e2e new bash tests/e2e/new.sh "$fitz"
e2e http bash tests/e2e/http.sh "$fitz"
e2e auth bash tests/e2e/auth.sh "$fitz"
e2e db bash tests/pg/db_e2e.sh "$fitz"
e2e orm bash tests/e2e/orm.sh "$fitz"
e2e conformance bash scripts/conformance-run.sh "$fitz"

shopt -s nullglob
found=("$reports"/*)
if ((${#found[@]})); then
  echo "sanitize: ${#found[@]} sanitizer report(s):"
  for f in "${found[@]}"; do
    echo "--- $f"
    head -n 60 "$f"
  done
  failed+=("sanitizer-reports")
fi
if ((${#failed[@]})); then
  echo "sanitize: FAILED: ${failed[*]}"
  exit 1
fi
echo "sanitize: every sanitized test passed with no sanitizer report"
