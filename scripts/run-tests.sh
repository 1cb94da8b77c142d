#!/usr/bin/env bash
# Runs every test: the grammar (generated parser up to date, corpus tests), the unit, golden and
# Postgres tests through ctest (against a throwaway local Postgres), the conformance corpus
# through `fitz run`, bounded fuzz runs, and the VS Code extension tests. Called by `make test`.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(realpath "${1:-$root/build}")
cd "$root"

# Each step is stamped with the seconds since the start, so a slow group shows in the log.
step() { printf '\n==> %s  [%d s]\n' "$*" "$SECONDS"; }
failed=()
run() {
  local name=$1; shift
  if ! "$@"; then failed+=("$name"); fi
}

step "grammar: committed parser matches grammar.js"
run grammar-regen bash scripts/regen-grammar.sh --check

step "grammar: tree-sitter corpus tests"
run grammar-corpus bash scripts/test-grammar.sh

step "local Postgres for the database tests"
if [[ -z ${FITZ_TEST_DATABASE_URL:-} ]]; then
  FITZ_TEST_DATABASE_URL=$(bash scripts/pg-local.sh start)
  export FITZ_TEST_DATABASE_URL
  trap 'bash "$root/scripts/pg-local.sh" stop' EXIT
fi
echo "FITZ_TEST_DATABASE_URL=$FITZ_TEST_DATABASE_URL"

step "unit, golden and Postgres tests (ctest)"
run ctest ctest --test-dir "$build" --output-on-failure -j"$(nproc)"

step "conformance: every run case checks clean, builds warning-free at -Wall and prints its .out"
run conformance env FITZ_RUN_FLAGS=--werror bash scripts/conformance-run.sh "$build/bin/fitz"

step "sanitizers: the clang fuzz build (ASan + UBSan, leaks on) runs the unit, runtime, HTTP, Postgres, auth, WebSocket and jobs tests, the CLI, HTTP, auth, db and ORM end-to-end tests and the conformance corpus with its runtime instrumented; any report fails"
run sanitized bash scripts/sanitize-tests.sh "$build/fuzz"

step "CLI end to end: fitz test, build, run, the cache, runtime error positions"
run e2e bash tests/e2e/run.sh "$build/bin/fitz"

step "@command programs: arguments, flags, help, usage errors and exit codes"
run e2e-command bash tests/e2e/command.sh "$build/bin/fitz"

step "make demo: the hello example and the HTTP + Postgres service with its tour of requests"
run demo env DATABASE_URL="$FITZ_TEST_DATABASE_URL" bash tests/e2e/demo.sh "$build"

step "fitz new: every template checks; the default one runs and passes its tests"
run e2e-new bash tests/e2e/new.sh "$build/bin/fitz"

step "db module end to end: the users-pg example, faults as values, transactions, FITZ_DB_LOG"
run e2e-db bash tests/pg/db_e2e.sh "$build/bin/fitz"

step "database faults: a service under write load while its own Postgres restarts, terminated backends, an exhausted pool"
run e2e-db-faults bash tests/pg/fault_e2e.sh "$build/bin/fitz"

step "ORM end to end: compiled queries against Postgres, values only as parameters"
run e2e-orm bash tests/e2e/orm.sh "$build/bin/fitz"

step "jobs end to end: spawn, failing cron jobs retried and logged, two replicas run each cron tick once"
run e2e-jobs bash tests/e2e/jobs.sh "$build/bin/fitz"

step "migrations end to end: fitz db new, migrate, rollback, status and check with migration files"
run e2e-migrations bash tests/pg/migrations_e2e.sh "$build/bin/fitz"

step "HTTP end to end: the todo-api example and every service feature over loopback, SIGTERM exit 0"
run e2e-http bash tests/e2e/http.sh "$build/bin/fitz"

step "observability end to end: JSON logs with trace ids, X-Request-Id, /metrics, @trace/@metric, flags, multipart, async around middleware"
run e2e-observability bash tests/e2e/observability.sh "$build/bin/fitz"

step "auth end to end: JWT login, guarded routes, every bad token a 401, roles 403, revocation"
run e2e-auth bash tests/e2e/auth.sh "$build/bin/fitz"

step "WebSockets end to end: typed echo, broadcasts, close codes 1002/1009/1008/1001, two replicas over Postgres, fan-out"
run e2e-ws env FITZ_TEST_DATABASE_URL="$FITZ_TEST_DATABASE_URL" bash tests/e2e/ws.sh "$build/bin/fitz" "$build/bin/fitz_ws_client"

step "fitz openapi: documents validate against the OpenAPI 3.1 schema; the /docs script parses"
run e2e-openapi bash tests/e2e/openapi.sh "$build/bin/fitz"

step "fuzz: bounded runs of the libFuzzer targets (frontend, checker, formatter, JSON body, HTTP request, Postgres protocol, JWT)"
run fuzz env FITZ_FUZZ_SECONDS="${FITZ_FUZZ_SECONDS:-30}" bash scripts/fuzz.sh "$build/fuzz" frontend checker format json http_request pg_protocol jwt

step "bench: fitz-loadgen agrees with wrk on /plaintext"
run loadgen-vs-wrk bash bench/loadgen/validate.sh "$build"

step "bench: fitz bench --quick runs every suite against every implementation"
run bench-quick env DATABASE_URL="$FITZ_TEST_DATABASE_URL" "$build/bin/fitz" bench --quick --out "$build/bench-quick"

step "language server through the real binary (transcripts, CLI parity)"
run lsp env FITZ_BIN="$build/bin/fitz" node --test tests/lsp/

step "VS Code extension (grammar, client, packaging, the real server)"
run extension env FITZ_BIN="$build/bin/fitz" bash scripts/test-extension.sh --with-lsp

if ((${#failed[@]})); then
  printf '\nFAILED: %s (after %d s)\n' "${failed[*]}" "$SECONDS"
  exit 1
fi
printf '\nall test groups passed in %d s\n' "$SECONDS"
