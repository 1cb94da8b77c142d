#!/usr/bin/env bash
# Jobs end to end through real binaries: @background/spawn (order, results, retries), failing
# cron jobs retried per policy and logged while the program keeps running, and two replicas of
# one every-second cron job and one `@every(0.5)` job sharing the test Postgres (FITZ_TEST_DATABASE_URL, from
# scripts/pg-local.sh) running each tick exactly once. Fails when the URL is unset.
set -uo pipefail
fitz=$(realpath "${1:?usage: tests/e2e/jobs.sh path/to/fitz}")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/jobs" && pwd)
if [[ -z ${FITZ_TEST_DATABASE_URL:-} ]]; then
  echo "FITZ_TEST_DATABASE_URL is not set: run scripts/pg-local.sh start and export the URL it prints" >&2
  exit 1
fi
export DATABASE_URL=$FITZ_TEST_DATABASE_URL
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fails=0
check() {
  if [[ $2 == 0 ]]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}

# spawn: the future comes back at once, the call runs when the caller yields, a failing
# background job is retried (max 2: three attempts) and logged, the program ends normally.
out=$("$fitz" run "$here/spawn.fitz" 2>"$work/spawn.err"); rc=$?
[[ $rc == 0 ]] && diff -u "$here/spawn.out" <(printf '%s\n' "$out") >"$work/diff" &&
  [[ $(grep -c '"msg":"job.retrying","job":"flaky"' "$work/spawn.err") == 2 &&
     $(grep -c '"msg":"job.failed","job":"flaky","attempt":"3","error":"not yet"' "$work/spawn.err") == 1 ]]
check "spawn runs background calls, retries and logs failures (rc $rc) $(cat "$work/diff") $(cat "$work/spawn.err")" $?

# Failing cron jobs: an Err is retried once then logged as failed; a runtime error is logged
# each tick; the program is still running afterwards and exits 0 on SIGTERM.
"$fitz" build "$here/failing.fitz" -o "$work/failing" >"$work/build.log" 2>&1
check "failing.fitz builds: $(cat "$work/build.log")" $?
"$work/failing" >"$work/failing.out" 2>"$work/failing.err" &
pid=$!
pids+=("$pid")
# Wait (at most 60 s) until both jobs have failed at least once each way.
for _ in $(seq 120); do
  grep -q '"job.failed","job":"returns_err"' "$work/failing.err" && grep -q '"job":"raises"' "$work/failing.err" && break
  sleep 0.5
done
kill -0 "$pid" 2>/dev/null
check "a program whose jobs fail keeps running" $?
kill -TERM "$pid"
wait "$pid"; rc=$?
check "SIGTERM stops a cron-only program with status 0 (rc $rc)" $([[ $rc == 0 ]]; echo $?)
grep -q '"msg":"job.retrying","job":"returns_err","attempt":"1",.*"error":"the job failed on purpose"' "$work/failing.err" &&
  grep -q '"msg":"job.failed","job":"returns_err","attempt":"2",.*"error":"the job failed on purpose"' "$work/failing.err"
check "an Err is retried per policy, then logged as failed: $(head -c 600 "$work/failing.err")" $?
grep -q '"msg":"job.failed","job":"raises","attempt":"1",.*"error":"index 5 out of range for' "$work/failing.err"
check "a runtime error in a job is logged, not fatal" $?
grep -q '^jobs scheduled$' "$work/failing.out"
check "top-level code runs before the jobs start" $?

# A service: cron jobs run beside the routes; a handler's spawn runs after it answered.
"$fitz" build "$here/service.fitz" -o "$work/service" >"$work/build.log" 2>&1
check "service.fitz builds: $(cat "$work/build.log")" $?
port=$((20000 + RANDOM % 20000))
service_started=$(date +%s%N)
PORT=$port "$work/service" >"$work/service.out" 2>"$work/service.err" &
pid=$!
pids+=("$pid")
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.2; done
body=$(curl -s -X POST "http://127.0.0.1:$port/jobs/7" -w ' %{http_code}')
check "the handler answers at once: $body" $([[ $body == '{"queued":7} 202' ]]; echo $?)
sleep 2.5
kill -TERM "$pid"
wait "$pid"; rc=$?
check "the service stops on SIGTERM with status 0 (rc $rc) $(head -c 300 "$work/service.err")" $([[ $rc == 0 ]]; echo $?)
grep -q '^background got 7$' "$work/service.out" && grep -q '^tick$' "$work/service.out"
check "the background job and the cron job ran in the service: $(head -c 300 "$work/service.out")" $?
# @every(0.2): first run 0.2 s after start, missed ticks skipped (never more runs than ticks).
every=$(grep -c '^every$' "$work/service.out")
ms=$(( ($(date +%s%N) - service_started) / 1000000 ))
check "the @every(0.2) job ran repeatedly beside the routes ($every runs in $ms ms)" \
  $([[ $every -ge 5 && $every -le $((ms / 200 + 1)) ]]; echo $?)

# Two replicas, one database: each every-second tick runs once.
scratch=${FITZ_TEST_DATABASE_URL%/*}/fitz_jobs_e2e
admin() { FITZ_JOBS_E2E_SCRATCH=$scratch FITZ_JOBS_E2E_ACTION=$1 "$fitz" run "$here/admin.fitz" 2>&1; }
out=$(admin create)
check "scratch database created: $out" $([[ $out == ok ]]; echo $?)
"$fitz" build "$here/ticks.fitz" -o "$work/ticks" >"$work/build.log" 2>&1
check "ticks.fitz builds: $(cat "$work/build.log")" $?
for r in a b; do
  DATABASE_URL=$scratch FITZ_JOBS_E2E_REPLICA=$r "$work/ticks" >"$work/ticks_$r.out" 2>"$work/ticks_$r.err" &
  pids+=("$!")
done
# Let them run until at least 5 ticks were recorded (at most 60 s).
for _ in $(seq 60); do
  sleep 1
  n=$(admin count | sed -n 's/.*runs=\([0-9]*\).*/\1/p')
  [[ -n $n && $n -ge 5 ]] && break
done
for p in "${pids[@]: -2}"; do kill -TERM "$p"; done
for p in "${pids[@]: -2}"; do wait "$p"; done
out=$(admin count)
runs=$(sed -n 's/.*runs=\([0-9]*\).*/\1/p' <<<"$out")
claims=$(sed -n 's/.*claims=\([0-9]*\).*/\1/p' <<<"$out")
ok_runs=$(sed -n 's/.*ok_runs=\([0-9]*\).*/\1/p' <<<"$out")
doubled=$(sed -n 's/.*doubled=\([0-9]*\).*/\1/p' <<<"$out")
[[ -n $runs && $runs -ge 5 && $runs == "$claims" && $runs == "$ok_runs" && $doubled == 0 ]]
check "two replicas ran each tick once: $out $(cat "$work"/ticks_*.err | head -c 600)" $?
every_runs=$(sed -n 's/.*interval_ran=\([0-9]*\).*/\1/p' <<<"$out")
every_claims=$(sed -n 's/.*interval_claimed=\([0-9]*\).*/\1/p' <<<"$out")
every_unaligned=$(sed -n 's/.*interval_unaligned=\([0-9]*\).*/\1/p' <<<"$out")
# Ticks run while both replicas were up (at least 5 s): about two per second, each claimed once.
[[ -n $every_runs && $every_runs -ge 8 && $every_runs == "$every_claims" && $every_unaligned == 0 ]]
check "two replicas ran each @every(0.5, store=) tick once, on half-second boundaries: $out" $?
admin drop >/dev/null

[[ $fails == 0 ]]
