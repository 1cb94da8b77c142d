#!/usr/bin/env bash
# Database faults seen from an HTTP service (tests/pg/programs/fault_service.fitz), on a private
# Postgres cluster of this script (scripts/pg-local.sh with its own directory and port, so the
# shared test database is never restarted):
#   - backends terminated by pg_terminate_backend: the pool replaces them, requests keep succeeding;
#   - a pool of one held by a slow request: the next request waits, then gets a 503, not a hang;
#   - a wrong password and an unknown database: clear errors at connect, 503 from handlers;
#   - FITZ_DB_STATEMENT_TIMEOUT_MS: statements cancelled, a stalled backend given up on (503);
#   - Postgres stopped and started again under concurrent writes: requests during the outage get
#     503, later ones succeed again, and every write answered with a 2xx has its row.
set -uo pipefail
fitz=$(realpath "${1:?usage: tests/pg/fault_e2e.sh path/to/fitz}")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
export FITZ_PG_DIR=$work/pg FITZ_PG_PORT=$(free_port) FITZ_PG_DB=fitz_faults
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  bash "$root/scripts/pg-local.sh" stop
  rm -rf "$work"
}
trap cleanup EXIT
fails=0
check() {
  if [[ $2 == 0 ]]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}

url=$(bash "$root/scripts/pg-local.sh" start) || { echo "FAIL private Postgres cluster did not start"; exit 1; }
sql() { psql "$url" -XtAq -v ON_ERROR_STOP=1 -c "$1"; }
sql "CREATE TABLE fault_items (id bigserial PRIMARY KEY, key text NOT NULL UNIQUE)" || exit 1
"$fitz" build "$here/programs/fault_service.fitz" -o "$work/svc" >"$work/build.log" 2>&1
check "the fault service builds: $(cat "$work/build.log")" $? || exit 1

# start_service NAME PORT ENV...: runs the service in the background until it answers /ping
# (ENV may override DATABASE_URL).
start_service() {
  local name=$1 port=$2; shift 2
  env PORT="$port" DATABASE_URL="$url" FITZ_ACCESS_LOG=off "$@" "$work/svc" >"$work/$name.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 200); do
    curl -sf "http://127.0.0.1:$port/ping" >/dev/null && return 0
    sleep 0.05
  done
  echo "service $name did not start: $(cat "$work/$name.log")"
  return 1
}
status_of() { curl -s -o /dev/null -w '%{http_code}' --max-time 20 -X "$1" "http://127.0.0.1:$2$3"; }

port=$(free_port)
start_service main "$port" FITZ_HTTP_THREADS=2 FITZ_DB_MAX_CONNS=4 FITZ_DB_POOL_TIMEOUT_MS=2000 || exit 1

# Terminated backends: every pooled connection is killed while idle; the next requests are
# served by fresh connections, none of them fails.
codes=""
for i in $(seq 1 8); do codes+=" $(status_of POST "$port" "/items/warm-$i")"; done
killed=$(sql "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = 'fitz_faults' AND pid <> pg_backend_pid() AND backend_type = 'client backend'")
for _ in $(seq 1 100); do
  [[ $(sql "SELECT count(*) FROM pg_stat_activity WHERE datname = 'fitz_faults' AND pid <> pg_backend_pid() AND backend_type = 'client backend'") == 0 ]] && break
  sleep 0.05
done
after=""
for i in $(seq 1 8); do after+=" $(status_of POST "$port" "/items/after-kill-$i")"; done
[[ $codes == *200* && $codes != *[345]0[0-9]* && $killed -ge 1 && $after == "$(printf ' 200%.0s' $(seq 1 8))" ]]
check "terminated backends are replaced: before:$codes, killed $killed, after:$after" $?

# Exhaustion: one worker, a pool of one connection held by /slow for a second; a request
# arriving meanwhile waits 200 ms for it and answers 503; /slow itself still succeeds.
xport=$(free_port)
start_service exhausted "$xport" FITZ_HTTP_THREADS=1 FITZ_DB_MAX_CONNS=1 FITZ_DB_POOL_TIMEOUT_MS=200 || exit 1
curl -s -o "$work/slow.body" -w '%{http_code}' --max-time 20 "http://127.0.0.1:$xport/slow" >"$work/slow.code" &
slow_pid=$!
for _ in $(seq 1 100); do
  [[ $(sql "SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(1)' AND state = 'active'") == 1 ]] && break
  sleep 0.02
done
body=$(curl -s -w ' %{http_code}' --max-time 20 -X POST "http://127.0.0.1:$xport/items/while-exhausted")
wait "$slow_pid"
[[ $body == '{"error":"database unavailable"} 503' && $(cat "$work/slow.code") == 200 ]]
check "an exhausted pool answers 503 after its timeout (got $body; /slow: $(cat "$work/slow.code"))" $?

# Refused sessions: a wrong password and an unknown database fail at connect with the server's
# reason, and handlers answer them with 503 like an unreachable server. The role's logins from
# 127.0.0.1 need a password (the cluster trusts everyone else).
sql "CREATE ROLE fitz_pw LOGIN PASSWORD 'right-password'" >/dev/null
hba=$FITZ_PG_DIR/data/pg_hba.conf
{ echo "host all fitz_pw 127.0.0.1/32 scram-sha-256"; cat "$hba"; } >"$work/hba" && cat "$work/hba" >"$hba"
sql "SELECT pg_reload_conf()" >/dev/null
hostport=${url#postgres://postgres@}
hostport=${hostport%%/*}
rport=$(free_port)
start_service refused "$rport" DATABASE_URL="postgres://fitz_pw:wrong-password@$hostport/fitz_faults" \
  PROBE_RIGHT="postgres://fitz_pw:right-password@$hostport/fitz_faults" \
  PROBE_WRONG="postgres://fitz_pw:wrong-password@$hostport/fitz_faults" \
  PROBE_NODB="postgres://postgres@$hostport/fitz_no_such_db" || exit 1
right=$(curl -s --max-time 20 "http://127.0.0.1:$rport/probe/RIGHT")
wrong=$(curl -s --max-time 20 "http://127.0.0.1:$rport/probe/WRONG")
nodb=$(curl -s --max-time 20 "http://127.0.0.1:$rport/probe/NODB")
[[ $right == *'Ok(<DbConn>)'* && $wrong == *'database unavailable: FATAL: password authentication failed for user'*'fitz_pw'*'(SQLSTATE 28P01)'* &&
   $wrong != *wrong-password* && $nodb == *'database unavailable: FATAL: database'*'fitz_no_such_db'*'does not exist (SQLSTATE 3D000)'* ]]
check "refused sessions are clear errors at connect (right: $right; wrong: $wrong; no db: $nodb)" $?
body=$(curl -s -w ' %{http_code}' --max-time 20 "http://127.0.0.1:$rport/items/count")
[[ $body == '{"error":"database unavailable"} 503' ]]
check "a handler whose database refuses the password answers 503 (got $body)" $?
nport=$(free_port)
start_service nodb "$nport" DATABASE_URL="postgres://postgres@$hostport/fitz_no_such_db" || exit 1
body=$(curl -s -w ' %{http_code}' --max-time 20 "http://127.0.0.1:$nport/items/count")
[[ $body == '{"error":"database unavailable"} 503' ]]
check "a handler whose database does not exist answers 503 (got $body)" $?

# FITZ_DB_STATEMENT_TIMEOUT_MS: a statement past the limit is cancelled by a CancelRequest and
# the handler fails with that error (500); when the server cannot answer the cancellation (its
# backend is stopped with SIGSTOP), the connection is closed after a grace period and the
# handler answers 503 instead of hanging; the pool then serves the next request.
tport=$(free_port)
start_service timeout "$tport" FITZ_HTTP_THREADS=1 FITZ_DB_STATEMENT_TIMEOUT_MS=3000 || exit 1
body=$(curl -s -w ' %{http_code}' --max-time 20 "http://127.0.0.1:$tport/sleep")
[[ $body == *'the statement ran longer than FITZ_DB_STATEMENT_TIMEOUT_MS (3000 ms) and was cancelled (SQLSTATE 57014)'*' 500' ]]
check "a statement past FITZ_DB_STATEMENT_TIMEOUT_MS is cancelled (got $body)" $?
curl -s -o "$work/stalled.body" -w '%{http_code}' --max-time 30 "http://127.0.0.1:$tport/sleep" >"$work/stalled.code" &
stalled_pid=$!
backend=""
for _ in $(seq 1 200); do
  backend=$(sql "SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(5)' AND state = 'active'")
  [[ -n $backend ]] && break
  sleep 0.01
done
[[ -n $backend ]] && kill -STOP "$backend"
wait "$stalled_pid"
[[ -n $backend ]] && kill -CONT "$backend"
after=$(curl -s -w ' %{http_code}' --max-time 20 "http://127.0.0.1:$tport/items/count")
[[ -n $backend && $(cat "$work/stalled.code") == 503 && $after == *' 200' ]]
check "a backend that cannot answer the cancellation: 503, then the pool recovers (backend ${backend:-not found}: $(cat "$work/stalled.code") $(cat "$work/stalled.body"); then $after)" $?

# Restart under load: 8 clients write for ~1.5 s, Postgres stops for ~1.5 s, starts again,
# and the clients keep writing for ~2 s more.
python3 "$here/fault_load.py" "http://127.0.0.1:$port" 8 "$work/stop" "$work/load.txt" "$work/load-ready" &
load_pid=$!
pids+=($load_pid)
for _ in $(seq 300); do
  [[ -e $work/load-ready ]] && break
  sleep 0.1
done
sleep 1.5
stop_at=$(date +%s.%N)
bash "$root/scripts/pg-local.sh" stop
down_at=$(date +%s.%N)
sleep 1.5
up_begin=$(date +%s.%N)
restarted=$(bash "$root/scripts/pg-local.sh" start)
up_at=$(date +%s.%N)
sleep 2
touch "$work/stop"
wait "$load_pid"
[[ $restarted == "$url" ]]
check "the cluster came back on the same URL ($restarted)" $?

# Every line is a 2xx or a 503: no other status, no dropped connection, no timeout.
others=$(awk '$3 !~ /^(2[0-9][0-9]|503)$/' "$work/load.txt" | head -5)
[[ -z $others && -s $work/load.txt ]]
check "under load every request got a 2xx or a 503 ($(wc -l <"$work/load.txt") requests): $others" $?
before_ok=$(awk -v t="$stop_at" '$1 < t && $3 ~ /^2/' "$work/load.txt" | wc -l)
during_503=$(awk -v a="$down_at" -v b="$up_begin" '$1 > a && $1 < b && $3 == 503' "$work/load.txt" | wc -l)
during_ok=$(awk -v a="$down_at" -v b="$up_begin" '$1 > a && $1 < b && $3 ~ /^2/' "$work/load.txt" | wc -l)
after_ok=$(awk -v t="$up_at" '$1 > t && $3 ~ /^2/' "$work/load.txt" | wc -l)
after_bad=$(awk -v t="$up_at" '$1 > t && $3 !~ /^2/' "$work/load.txt" | wc -l)
[[ $before_ok -gt 0 ]]
check "writes succeed before the outage ($before_ok)" $?
[[ $during_503 -gt 0 && $during_ok == 0 ]]
check "requests during the outage get 503 ($during_503 503s, $during_ok 2xx)" $?
[[ $after_ok -gt 0 && $after_bad == 0 ]]
check "after the restart the pool reconnects: $after_ok 2xx, $after_bad other" $?

# No silent loss: every key answered with a 2xx is in the table.
awk '$3 ~ /^2/ {print $2}' "$work/load.txt" | sort >"$work/acked"
sql "SELECT key FROM fault_items WHERE key LIKE 'w%'" | sort >"$work/stored"
missing=$(comm -23 "$work/acked" "$work/stored" | head -5)
[[ -s $work/acked && -z $missing ]]
check "every acknowledged write is stored ($(wc -l <"$work/acked") acknowledged, $(wc -l <"$work/stored") stored): missing $missing" $?

body=$(curl -s -w ' %{http_code}' --max-time 20 "http://127.0.0.1:$port/items/count")
[[ $body == *' 200' ]]
check "the service still serves after the faults ($body)" $?

if ((fails)); then
  echo "$fails database fault check(s) failed"
  exit 1
fi
echo "database faults: all checks passed"
