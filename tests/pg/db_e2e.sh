#!/usr/bin/env bash
# The db module end to end through `fitz run` and `fitz test` against a real Postgres
# (FITZ_TEST_DATABASE_URL, from scripts/pg-local.sh): the users-pg example's output, faults as
# values, transactions rolled back on runtime errors, the client's statement timeout,
# SQL-injection strings, FITZ_DB_LOG, and the env helpers. Fails when
# the URL is unset.
set -uo pipefail
fitz=$(realpath "${1:?usage: tests/pg/db_e2e.sh path/to/fitz}")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
if [[ -z ${FITZ_TEST_DATABASE_URL:-} ]]; then
  echo "FITZ_TEST_DATABASE_URL is not set: run scripts/pg-local.sh start and export the URL it prints" >&2
  exit 1
fi
export DATABASE_URL=$FITZ_TEST_DATABASE_URL
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
check() {
  if [[ $2 == 0 ]]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}

# The example prints exactly what it stored and read back.
out=$(cd "$root/examples/users-pg" && "$fitz" run 2>&1); rc=$?
[[ $rc == 0 ]] && diff -u "$here/users-pg.out" <(printf '%s\n' "$out") >"$work/diff"
check "examples/users-pg output (rc $rc) $(cat "$work/diff")" $?

# Faults come back as Err values; a runtime error inside a transaction ends the program and
# the row inserted before it is gone.
out=$(FITZ_E2E_NO_DB_URL=${FITZ_TEST_DATABASE_URL%/*}/fitz_e2e_no_such_db FITZ_DB_MAX_CONNS=2 FITZ_DB_POOL_TIMEOUT_MS=300 \
  "$fitz" run "$here/programs/faults.fitz" 2>"$work/err"); rc=$?
expect='unreachable: Err("database unavailable: could not connect to 127.0.0.1:1: Connection refused")
unknown database: Err("database unavailable: FATAL: database \"fitz_e2e_no_such_db\" does not exist (SQLSTATE 3D000)")
malformed URL: Err("invalid database URL: invalid port \"notaport\"")
exhausted: Err("database unavailable: timed out after 300 ms waiting for a free database connection (all 2 connections of the pool are busy; FITZ_DB_MAX_CONNS sets the limit)")
bad statement: Err("ERROR: division by zero (SQLSTATE 22012)")
after an error: Ok(42)
concurrent: Ok(70210)
reconnecting in loops: Ok(4900)
slow statement: Err("ERROR: canceling statement due to statement timeout (SQLSTATE 57014)")
after the timeout: Ok(1)
setup: Ok(0)
committed: Ok(2), rows: Ok(1)
before the runtime error'
[[ $rc == 1 && $out == "$expect" ]] && grep -q "division by zero" "$work/err"
check "faults as values (rc $rc): $out $(cat "$work/err")" $?
out=$("$fitz" run "$here/programs/count.fitz" 2>&1); rc=$?
[[ $rc == 0 && $out == "rows after the runtime error: Ok(0)" ]]
check "the transaction cut short by a runtime error left no row (rc $rc): $out" $?

# Under fitz test the runtime error is caught: the transaction rolls back first.
out=$("$fitz" test "$here/programs/tx_test.fitz" 2>&1); rc=$?
[[ $rc == 1 && $out == *"a_runtime_error_inside_the_body_propagates ... FAILED"* &&
   $out == *"and_the_insert_was_rolled_back ... ok"* && $out == *"1 passed, 1 failed"* ]]
check "fitz test: rollback before the runtime error propagates (rc $rc): $out" $?

# A statement longer than FITZ_DB_STATEMENT_TIMEOUT_MS is cancelled by a CancelRequest: the server
# reports "due to user request" (not its own statement_timeout), which the runtime words as the
# limit; nothing is left running on the server. The limit is well above what the test's other
# statements take on a busy machine: a statement finishing just as its cancellation is sent would
# let the CancelRequest (a separate connection, as in libpq) land on the next statement.
out=$(FITZ_DB_STATEMENT_TIMEOUT_MS=3000 "$fitz" run "$here/programs/timeout.fitz" 2>&1); rc=$?
expect='slow: Err("ERROR: the statement ran longer than FITZ_DB_STATEMENT_TIMEOUT_MS (3000 ms) and was cancelled (SQLSTATE 57014)")
after the cancel: Ok(7)
transaction: Err("ERROR: the statement ran longer than FITZ_DB_STATEMENT_TIMEOUT_MS (3000 ms) and was cancelled (SQLSTATE 57014)")
rows left by the transaction: Ok(0)
fast: Ok(5)'
left=$(psql "$FITZ_TEST_DATABASE_URL" -XtAq -c "SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)' AND state = 'active'")
[[ $rc == 0 && $out == "$expect" && $left == 0 ]]
check "FITZ_DB_STATEMENT_TIMEOUT_MS cancels a long statement (rc $rc, $left still running): $out" $?
out=$(FITZ_DB_STATEMENT_TIMEOUT_MS=soon "$fitz" run "$here/programs/log.fitz" 2>"$work/log"); rc=$?
[[ $rc == 0 && $out == "Ok(42)" ]] && grep -q "warning: FITZ_DB_STATEMENT_TIMEOUT_MS=soon is not a whole number of milliseconds" "$work/log"
check "a malformed FITZ_DB_STATEMENT_TIMEOUT_MS is reported and ignored (rc $rc): $out $(cat "$work/log")" $?

# SQL-injection strings in every parameter position, raw and through the ORM, come back verbatim
# and match exactly their own rows; the table they name is still there.
out=$("$fitz" run "$here/programs/hostile.fitz" 2>&1); rc=$?
expect='setup: Ok(0)
raw parameters, mismatches: Ok(0)
updated in a transaction: Ok(10)
orm, mismatches: Ok(0)'
rows=$(psql "$FITZ_TEST_DATABASE_URL" -XtAq -c "SELECT count(*) FILTER (WHERE tag = body || '!') || ' ' || count(*) FROM fitz_e2e_hostile")
[[ $rc == 0 && $out == "$expect" && $rows == "10 20" ]]
check "injection strings are stored and matched verbatim (rc $rc, rows $rows): $out" $?
psql "$FITZ_TEST_DATABASE_URL" -XtAq -c "DROP TABLE IF EXISTS fitz_e2e_hostile" >/dev/null

# FITZ_DB_LOG=1 logs each statement with its time; verbose adds the parameters.
out=$(FITZ_DB_LOG=1 "$fitz" run "$here/programs/log.fitz" 2>"$work/log"); rc=$?
[[ $rc == 0 && $out == "Ok(42)" ]] && grep -Eq '^\[fitz-db [0-9]+\.[0-9]ms\] SELECT \$1::int8 \+ length\(\$2\) AS n$' "$work/log"
check "FITZ_DB_LOG=1 (rc $rc): $out $(cat "$work/log")" $?
out=$(FITZ_DB_LOG=verbose "$fitz" run "$here/programs/log.fitz" 2>"$work/log"); rc=$?
[[ $rc == 0 ]] && grep -q -- "-- \$1 = 40, \$2 = 'ab'" "$work/log"
check "FITZ_DB_LOG=verbose shows parameters (rc $rc): $(cat "$work/log")" $?
out=$("$fitz" run "$here/programs/log.fitz" 2>"$work/log"); rc=$?
[[ $rc == 0 && ! -s $work/log ]]
check "no log without FITZ_DB_LOG (rc $rc): $(cat "$work/log")" $?

# env helpers: .env lines (comments, export, quotes, '=' inside values) never override what
# the environment already has.
printf '# comment\nFITZ_E2E_A=hello\nexport FITZ_E2E_B="quoted value"\nFITZ_E2E_C=a=b\nFITZ_E2E_SET=from-file\n' >"$work/.env"
out=$(cd "$work" && FITZ_E2E_SET=kept "$fitz" run "$here/programs/env.fitz" 2>&1); rc=$?
expect='Ok(null)
Ok("hello") Ok("quoted value") Ok("a=b") Ok("kept")
Err("environment variable FITZ_E2E_MISSING is not set") fallback
Err("cannot read env file missing.env")'
[[ $rc == 0 && $out == "$expect" ]]
check "env, env_or, load_env (rc $rc): $out" $?

if ((fails)); then
  echo "$fails db end-to-end check(s) failed"
  exit 1
fi
echo "db end-to-end: all checks passed"
