#!/usr/bin/env bash
# The sanitizer stage: the toolchain, its runtime and every test binary built once with
# AddressSanitizer + UndefinedBehaviorSanitizer, then ctest (every unit, golden, runtime, HTTP,
# Postgres, auth, WebSocket, jobs, load-generator and doc test), the end-to-end tests of the CLI,
# HTTP services (JWT auth included), the db module and the ORM, and the conformance corpus, all
# against the sanitized `fitz`. A sanitized `fitz` links the instrumented runtime next to it, so
# every program it builds gets the same sanitizers.
#
# The build is the clang libFuzzer build (scripts/fuzz.sh configures the same directory the same
# way): its libraries already carry -fsanitize=address,undefined, so one build serves the fuzz
# runs and this stage, and it is the only build of the test binaries (`make test` runs no
# unsanitized copy of them). Programs `fitz` compiles are built by the system compiler, as users
# build them but at -O0 (codegen/toolchain.cpp says why); its AddressSanitizer runtime links the
# clang-instrumented libraries.
#
# Every sanitizer report fails the stage: reports go to files under BUILD/sanitizer-reports
# (log_path), which must stay empty, whatever exit status the process that reported had or how
# a test script treated it; the tests' own failures fail it too. Leak checking is on. One gap:
# GCC's UBSan runtime ignores log_path, so undefined behaviour in a program `fitz` built prints
# on stderr; halt_on_error makes it exit 1 there, which the end-to-end tests check.
#
# Usage: scripts/sanitize-tests.sh [BUILD_DIR] [STEP...]   (default build/fuzz, every step)
#   steps: build (also clears the reports), units (ctest), e2e, reports (none may exist)
# scripts/run-tests.sh runs the steps one by one to time them. The Postgres tests need
# FITZ_TEST_DATABASE_URL, as scripts/run-tests.sh sets it.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
out=${1:-build/fuzz}
shift || true
steps=("$@")
((${#steps[@]})) || steps=(build units e2e reports)

bash scripts/configure-sanitized.sh "$out" || exit 1
out=$(realpath "$out")
if ! grep -Eq '^FITZ_(FUZZ|SANITIZE):BOOL=ON' "$out/CMakeCache.txt"; then
  echo "sanitize: $out is not configured with -DFITZ_FUZZ=ON or -DFITZ_SANITIZE=ON" >&2
  exit 1
fi

export FITZ_CACHE_DIR=$out/fitz-cache
reports=$out/sanitizer-reports
# Leak checking is on by default; conformance-run.sh prepends detect_leaks=0 for its .leaks cases.
export ASAN_OPTIONS=log_path=$reports/asan
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$reports/ubsan
export LSAN_OPTIONS=suppressions=$root/scripts/lsan.supp:print_suppressions=0
# Python objects on malloc, not on pymalloc's arenas (mmap, which LeakSanitizer does not scan):
# otherwise whatever only Python objects point to looks leaked whenever the interpreter is not
# finalised at exit.
export PYTHONMALLOC=malloc
fitz=$out/bin/fitz
failed=()

step_build() {
  rm -rf "$reports"
  mkdir -p "$reports"
  # fitz_tests: the fitz command, the runtime libraries it links programs against, and every
  # binary ctest runs (see the top-level CMakeLists.txt).
  local start=$SECONDS
  cmake --build "$out" -j"$(nproc)" --target fitz_tests || { failed+=(build); return; }
  echo "sanitize: build $((SECONDS - start)) s"
}

step_units() {
  mkdir -p "$reports"
  # One process per test case, two at a time, as ctest runs them anywhere else. The
  # check => build differential corpus (200 programs through the C++ compiler) and the guide's
  # examples (every doc program built and run) run in the release lane instead
  # (scripts/run-tests.sh), against the toolchain users get: here, each program compiled against
  # the instrumented runtime, they would lengthen the longer of the two lanes by minutes. The
  # conformance corpus (step e2e) keeps the runtime's own code under the sanitizers. The two
  # build scripts (split translation units, the toolchain's precompiled headers) run in the
  # release lane as well, for the same reason: large programs compiled several times each, to
  # test how fitz drives the compiler.
  if ! ctest --test-dir "$out" --output-on-failure -j"$(nproc)" \
    -E '^(differential\.check_build|docs\.examples|E2E\.SplitTranslationUnits|E2E\.ToolchainPrecompiledHeaders)$'; then
    failed+=(ctest)
  fi
}

# e2e NAME CMD...: one suite, its output in BUILD/e2e-NAME.log; prints one line, and the log's
# tail when it failed (then also a line in BUILD/e2e-failed).
e2e() {
  local name=$1 start=$SECONDS
  shift
  if "$@" >"$out/e2e-$name.log" 2>&1; then
    echo "sanitized e2e $name: ok ($((SECONDS - start)) s)"
  else
    echo "sanitized e2e $name FAILED ($((SECONDS - start)) s):"
    tail -n 30 "$out/e2e-$name.log"
    echo "e2e-$name" >>"$out/e2e-failed"
  fi
}

# Two groups side by side, each suite's output kept apart: a suite spends much of its time
# waiting (for one compiler, for a service to start), which left a core idle when they ran one
# by one. The suites that share the lane's database (db and orm) are in one group.
e2e_group_a() {
  e2e conformance bash scripts/conformance-run.sh "$fitz"
  e2e cookies bash tests/e2e/cookies.sh "$fitz"
  e2e auth bash tests/e2e/auth.sh "$fitz"
  e2e static-files bash tests/e2e/static_files.sh "$fitz"
  # `fitz new`, check and fmt of every template, without compiling the templates' programs (the
  # release lane does): they reach no runtime code the other suites do not, and built against
  # the instrumented runtime they made this the longest suite here.
  e2e new env FITZ_E2E_NEW_PROGRAMS=0 bash tests/e2e/new.sh "$fitz"
}
e2e_group_b() {
  e2e cli bash tests/e2e/run.sh "$fitz"
  e2e http bash tests/e2e/http.sh "$fitz"
  e2e db bash tests/pg/db_e2e.sh "$fitz"
  e2e app-migrate bash tests/e2e/app_migrate.sh "$fitz"
  e2e orm bash tests/e2e/orm.sh "$fitz"
}

step_e2e() {
  mkdir -p "$reports"
  rm -f "$out/e2e-failed" "$out/e2e-group-a.out" "$out/e2e-group-b.out"
  e2e_group_a >"$out/e2e-group-a.out" 2>&1 &
  local a=$!
  e2e_group_b >"$out/e2e-group-b.out" 2>&1 &
  wait "$a" $!
  cat "$out/e2e-group-a.out" "$out/e2e-group-b.out"
  if [[ -f $out/e2e-failed ]]; then
    while read -r f; do failed+=("$f"); done <"$out/e2e-failed"
  fi
}

step_reports() {
  shopt -s nullglob
  local found=("$reports"/*)
  if ((${#found[@]})); then
    echo "sanitize: ${#found[@]} sanitizer report(s):"
    for f in "${found[@]}"; do
      echo "--- $f"
      head -n 60 "$f"
    done
    failed+=("sanitizer-reports")
  else
    echo "sanitize: no sanitizer report"
  fi
}

for s in "${steps[@]}"; do
  case $s in
    build | units | e2e | reports) "step_$s" ;;
    *) echo "sanitize: unknown step $s (build, units, e2e, reports)" >&2; exit 2 ;;
  esac
done
if ((${#failed[@]})); then
  echo "sanitize: FAILED: ${failed[*]}"
  exit 1
fi
echo "sanitize: ${steps[*]}: passed"
