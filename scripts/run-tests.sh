#!/usr/bin/env bash
# Runs every test. Called by `make test`, and so by CI (.ci/run) on a clean clone.
#
# Two builds, each target compiled once:
#   BUILD       the release build users get (GCC): `fitz`, its runtime libraries and the tools the
#               end-to-end and benchmark stages run (target fitz_tools);
#   BUILD/fuzz  clang with AddressSanitizer + UndefinedBehaviorSanitizer (libFuzzer coverage in the
#               libraries the fuzz targets exercise):
#               the same toolchain and runtime, every test binary (target fitz_tests) and the
#               fuzz targets.
# After the release build, two lanes run side by side, each with its own Postgres cluster:
#   sanitized  build BUILD/fuzz, ctest there (unit, golden, runtime, Postgres, HTTP, auth,
#              WebSocket, jobs and doc-reference tests), then the end-to-end suites against the sanitized
#              `fitz` beside bounded fuzz runs;
#   release    the grammar, the conformance corpus at -Wall -Werror, the guide's examples, every
#              end-to-end suite, the check => build differential corpus, the language server and
#              the VS Code extension.
# Last, alone on the machine: fitz-loadgen against wrk, and `fitz bench --quick`.
#
# Each stage writes its own log; a stage's log is printed whole when it ends, so lanes never
# interleave, and the run ends with a table of stage times and a warning past the budget.
# FITZ_CI_LANES=1 runs the lanes one after the other. Usage: scripts/run-tests.sh [BUILD_DIR]
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(realpath -m "${1:-$root/build}")
san=$build/fuzz
cd "$root"
budget=${FITZ_CI_BUDGET_SECONDS:-2100}  # a clean clone must stay well inside CI's 90 minutes
jobs=$(nproc)
logs=$build/test-logs
rm -rf "$logs"
mkdir -p "$logs"
t0=$SECONDS

# stage NAME CMD...: runs CMD with its output in logs/NAME.log, then prints that log whole under
# a heading, and records "status start seconds cpu-seconds" in logs/NAME.status. The CPU time is
# the stage's processes' own (user + system, every descendant it waited for): with two lanes on
# the machine, wall time says when a stage ended, CPU time what it cost. Output of concurrent
# stages goes through one lock so that two logs never mix.
stage() {
  local name=$1 start=$((SECONDS - t0)) rc=0
  shift
  ("$@"; r=$?; times >"$logs/$name.times"; exit $r) >"$logs/$name.log" 2>&1 </dev/null || rc=$?
  local secs=$((SECONDS - t0 - start)) cpu
  # The second line of `times`: the children's user and system time, as 1m2.345s 0m0.500s.
  cpu=$(tail -n 1 "$logs/$name.times" 2>/dev/null | awk '{ t = 0; for (i = 1; i <= NF; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } printf "%d", t }')
  echo "$rc $start $secs ${cpu:-0}" >"$logs/$name.status"
  {
    flock 9
    printf '\n==> %s: %s  [%d s from %d s, %s s CPU]\n' "$name" "$([[ $rc == 0 ]] && echo ok || echo "FAILED (exit $rc)")" "$secs" "$start" "${cpu:-?}"
    cat "$logs/$name.log"
  } 9>"$logs/.print-lock"
  return 0
}
order=()  # every stage, in the order of the table
lane_stages() { order+=("$@"); }

step() { printf '\n==> %s  [%d s]\n' "$*" $((SECONDS - t0)); }

# Configure (both trees) and the release build, in the foreground: everything after needs it.
# Trees created here are unity builds (cmake/unity.cmake): a clean clone compiles each target in
# batches; a tree that already exists is used as it is.
step "configure"
if [[ ! -f $build/build.ninja ]]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFITZ_UNITY_BUILD=ON >/dev/null || exit 1
fi
bash scripts/configure-sanitized.sh "$san" -DFITZ_UNITY_BUILD=ON || exit 1
stage release-build cmake --build "$build" -j"$jobs" --target fitz_tools
order+=(release-build)
read -r rc _ <"$logs/release-build.status"
if [[ $rc != 0 ]]; then
  echo "the release build failed; no test ran"
  exit 1
fi

# Two Postgres clusters, started one after the other (each takes the first free port).
step "local Postgres clusters for the two lanes"
stop_pg() {
  bash "$root/scripts/pg-local.sh" stop
  FITZ_PG_DIR=$san/pg bash "$root/scripts/pg-local.sh" stop
}
trap stop_pg EXIT
if [[ -z ${FITZ_TEST_DATABASE_URL:-} ]]; then
  FITZ_TEST_DATABASE_URL=$(bash scripts/pg-local.sh start) || exit 1
fi
release_db=$FITZ_TEST_DATABASE_URL
san_db=$(FITZ_PG_DIR=$san/pg bash scripts/pg-local.sh start) || exit 1
echo "release lane: $release_db"
echo "sanitized lane: $san_db"

fitz=$build/bin/fitz
sanitized_lane() {
  export FITZ_TEST_DATABASE_URL=$san_db
  stage san-build bash scripts/sanitize-tests.sh "$san" build
  if [[ $(cut -d' ' -f1 "$logs/san-build.status") != 0 ]]; then return; fi
  stage san-ctest bash scripts/sanitize-tests.sh "$san" units
  # By now the release lane is (nearly) done: the end-to-end scripts, which wait on one compiler
  # at a time, share the machine with the fuzz targets, one at a time.
  stage san-e2e bash scripts/sanitize-tests.sh "$san" e2e &
  stage fuzz env FITZ_FUZZ_SECONDS="${FITZ_FUZZ_SECONDS:-20}" FITZ_FUZZ_JOBS=1 \
    bash scripts/fuzz.sh "$san" frontend checker format json http_request pg_protocol jwt live_frames live_token live_diff &
  wait
  stage san-reports bash scripts/sanitize-tests.sh "$san" reports
}
lane_stages san-build san-ctest san-e2e fuzz san-reports

release_lane() {
  export FITZ_TEST_DATABASE_URL=$release_db
  stage grammar-regen bash scripts/regen-grammar.sh --check
  stage grammar-corpus bash scripts/test-grammar.sh
  # Builds the Go and Rust peers too (minutes for Rust on a fresh build folder) into the cache
  # bench-quick reads, at the end.
  stage e2e-bench-peers bash tests/e2e/bench_peers.sh "$fitz"
  stage conformance env FITZ_RUN_FLAGS=--werror bash scripts/conformance-run.sh "$fitz"
  stage docs-examples python3 tools/docs/doctest.py --fitz "$fitz" --docs docs --extra README.md
  stage e2e bash tests/e2e/run.sh "$fitz"
  stage e2e-command bash tests/e2e/command.sh "$fitz"
  stage e2e-views bash tests/e2e/views.sh "$fitz"
  stage e2e-live-embed bash tests/e2e/live_embed.sh "$fitz"
  stage e2e-run-signals bash tests/e2e/run_signals.sh "$fitz"
  stage e2e-dev bash tests/e2e/dev.sh "$fitz"
  stage e2e-split-units bash tests/e2e/split_units.sh "$fitz"
  stage e2e-toolchain-pch bash tests/e2e/toolchain_pch.sh "$fitz"
  stage e2e-repl bash tests/e2e/repl.sh "$fitz"
  stage e2e-debug bash tests/e2e/debug.sh "$fitz"
  stage e2e-lint bash tests/e2e/lint.sh "$fitz"
  stage e2e-packages bash tests/e2e/packages.sh "$fitz"
  stage demo env DATABASE_URL="$release_db" bash tests/e2e/demo.sh "$build"
  stage e2e-new bash tests/e2e/new.sh "$fitz"
  stage e2e-db bash tests/pg/db_e2e.sh "$fitz"
  stage e2e-db-faults bash tests/pg/fault_e2e.sh "$fitz"
  stage e2e-orm bash tests/e2e/orm.sh "$fitz"
  stage e2e-jobs bash tests/e2e/jobs.sh "$fitz"
  stage e2e-migrations bash tests/pg/migrations_e2e.sh "$fitz"
  stage e2e-http bash tests/e2e/http.sh "$fitz"
  stage e2e-static-files bash tests/e2e/static_files.sh "$fitz"
  stage e2e-cookies bash tests/e2e/cookies.sh "$fitz"
  stage e2e-observability bash tests/e2e/observability.sh "$fitz"
  stage e2e-auth bash tests/e2e/auth.sh "$fitz"
  stage e2e-ws bash tests/e2e/ws.sh "$fitz" "$build/bin/fitz_ws_client"
  stage e2e-openapi bash tests/e2e/openapi.sh "$fitz"
  stage e2e-http-client bash tests/e2e/http_client.sh "$fitz"
  stage e2e-smtp bash tests/e2e/smtp.sh "$fitz"
  stage e2e-python bash tests/e2e/python.sh "$fitz"
  stage e2e-stdlib-values bash tests/e2e/stdlib_values.sh "$fitz"
  stage e2e-deploy-image bash tests/e2e/deploy_image.sh "$fitz"
  stage e2e-deploy-manifests bash tests/e2e/deploy_manifests.sh "$fitz"
  stage e2e-app-migrate bash tests/e2e/app_migrate.sh "$fitz"
  stage cluster-replicas bash tests/cluster/replicas.sh "$fitz"
  stage cluster-failover bash tests/cluster/failover.sh "$fitz"
  stage lsp env FITZ_BIN="$fitz" node --test tests/lsp/
  stage neovim bash tests/editors/neovim.sh "$fitz"
  stage extension env FITZ_BIN="$fitz" bash scripts/test-extension.sh --with-lsp
  stage browser-live-client env FITZ_LIVE_TEST_SERVER="$build/bin/fitz_live_test_server" FITZ_BIN="$fitz" bash scripts/test-browser.sh
  stage differential python3 tests/differential/drive.py 200 --seed 1 --fitz "$fitz" --jobs 2 \
    --cache "$build/tests/differential/cache" --failures "$build/tests/differential/failures"
}
lane_stages grammar-regen grammar-corpus e2e-bench-peers conformance docs-examples e2e e2e-command e2e-views e2e-live-embed e2e-run-signals e2e-dev e2e-split-units e2e-toolchain-pch e2e-repl e2e-debug e2e-lint e2e-packages demo e2e-new e2e-db \
  e2e-db-faults e2e-orm e2e-jobs e2e-migrations e2e-http e2e-static-files e2e-cookies e2e-observability e2e-auth e2e-ws \
  e2e-openapi e2e-http-client e2e-smtp e2e-python e2e-stdlib-values e2e-deploy-image e2e-deploy-manifests e2e-app-migrate cluster-replicas cluster-failover lsp neovim extension browser-live-client differential

step "the sanitized and the release lanes, side by side"
if [[ ${FITZ_CI_LANES:-2} == 1 ]]; then
  sanitized_lane
  release_lane
else
  sanitized_lane &
  san_pid=$!
  release_lane &
  release_pid=$!
  wait "$san_pid" "$release_pid"
fi

# Alone on the machine: fitz-loadgen against wrk compares throughput, and `fitz bench --quick`'s
# phases are short: beside the lanes, the slowest peer (Sequelize, 20 updates per request)
# completed no request within one.
step "alone on the machine: the throughput checks"
stage loadgen-vs-wrk env TOLERANCE=50 bash bench/loadgen/validate.sh "$build"  # why 50: the script's header
stage bench-quick env DATABASE_URL="$release_db" "$fitz" bench --quick --out "$build/bench-quick"
order+=(loadgen-vs-wrk bench-quick)

# The budget table: every stage with its start, its length and its result.
total=$((SECONDS - t0))
passed=0 failed=() cpu_total=0
printf '\n==> stage times\n%-20s %7s %7s %7s  %s\n' stage start seconds cpu result
for name in "${order[@]}"; do
  if [[ -f $logs/$name.status ]]; then
    read -r rc start secs cpu <"$logs/$name.status"
    if [[ $rc == 0 ]]; then passed=$((passed + 1)); r=ok; else failed+=("$name"); r="FAILED ($rc)"; fi
    cpu_total=$((cpu_total + cpu))
    printf '%-20s %7d %7d %7d  %s\n' "$name" "$start" "$secs" "$cpu" "$r"
  else
    failed+=("$name")
    printf '%-20s %7s %7s %7s  %s\n' "$name" - - - "not run"
  fi
done
printf '%-20s %7s %7d %7d\n' total "" "$total" "$cpu_total"
if ((total > budget)); then
  echo "WARNING: this run took $total s, over the $budget s budget of a clean clone (CI stops at 5400 s)"
fi
if ((${#failed[@]})); then
  # The failing checks again, last: CI records keep only the end of a run's output.
  for name in "${failed[@]}"; do
    [[ -f $logs/$name.log ]] || continue
    printf '\n==> %s: failing lines\n' "$name"
    lines=$(grep -E -i 'FAIL|error|Assertion|Sanitizer' "$logs/$name.log" | grep -v -E 'Passed|^ +Start ' | head -n 20 | cut -c 1-400 || true)
    printf '%s\n' "$lines"
    # And how it ended, for a check that words its failure otherwise or over several lines.
    printf -- '-- last lines:\n'
    tail -n 8 "$logs/$name.log" | cut -c 1-400
  done
  printf '\nFAILED: %s\n' "${failed[*]}"
  echo "groups: $passed passed, ${#failed[@]} failed"
  exit 1
fi
echo "groups: $passed passed, 0 failed"
