#!/usr/bin/env bash
# Postgres failover under write load, on a private primary and synchronous streaming standby
# started by this script (Debian's server binaries; the servers run as the postgres user when
# the script runs as root). The service's DATABASE_URL lists both servers with
# target_session_attrs=read-write. Mid-load the primary stops (immediate mode) and the standby
# is promoted:
#   - requests while no primary exists get 503 (not 500, not a hang);
#   - once the new primary acknowledged a write, every later request succeeds;
#   - every write acknowledged with a 2xx is on the new primary (synchronous commit);
#   - a server that turns read-only under the pool: its write answers 503, the pool drops the
#     connection and writes succeed again once the server takes them.
# usage: tests/cluster/failover.sh path/to/fitz
set -uo pipefail
fitz=$(realpath "${1:?usage: tests/cluster/failover.sh path/to/fitz}")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
client=$here/failover_client.py
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[[ -n $bin ]] || { echo "FAIL no Postgres server binaries (the postgresql package)"; exit 1; }
began=$(date +%s.%N)
work=$(mktemp -d)
pids=()
as_pg() {
  if [[ $(id -u) -eq 0 ]]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi
}
cleanup() {
  # The service is killed outright: its graceful drain would only add seconds here.
  [[ -n ${svc_pid:-} ]] && kill -KILL "$svc_pid" 2>/dev/null
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  for d in primary standby; do
    [[ -f $work/$d/postmaster.pid ]] && as_pg "$bin/pg_ctl -D '$work/$d' -m immediate -w stop" >/dev/null 2>&1
  done
  rm -rf "$work"
}
trap 'cleanup 2>/dev/null' EXIT
fails=0
check() {
  if [[ $2 == 0 ]]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
now() { date +%s.%N; }
# poll TRIES CMD...: runs CMD every 50 ms until it succeeds, at most TRIES times.
poll() {
  local tries=$1; shift
  for _ in $(seq 1 "$tries"); do "$@" && return 0; sleep 0.05; done
  return 1
}

if [[ $(id -u) -eq 0 ]]; then
  chown postgres "$work"
  # The servers must reach their directories through every parent.
  p=$work; while [[ $p != / ]]; do chmod o+x "$p" 2>/dev/null || true; p=$(dirname "$p"); done
fi

# The service compiles while the cluster comes up.
"$fitz" build "$here/failover/service.fitz" -o "$work/svc" >"$work/build.log" 2>&1 &
build_pid=$!
pids+=($build_pid)

p1=$(free_port)
p2=$(free_port)
while [[ $p2 == "$p1" ]]; do p2=$(free_port); done
sql() { as_pg "$bin/psql -h 127.0.0.1 -p $1 -U postgres -d ${3:-postgres} -XtAq -v ON_ERROR_STOP=1 -c \"$2\""; }
start_server() {  # start_server DIR PORT
  as_pg "$bin/pg_ctl -D '$work/$1' -l '$work/$1.log' -w -t 30 -o \"-p $2 -k '$work' -c listen_addresses=127.0.0.1 -c fsync=off\" start" >/dev/null
}

as_pg "$bin/initdb -D '$work/primary' -U postgres --auth=trust -E UTF8 --locale=C.UTF-8" >"$work/initdb.log" 2>&1
check "initdb of the primary" $? || exit 1
start_server primary "$p1"
check "the primary starts on port $p1" $? || { cat "$work/primary.log"; exit 1; }
sql "$p1" "CREATE DATABASE fitz_failover" && sql "$p1" "CREATE TABLE failover_rows (id text PRIMARY KEY)" fitz_failover
check "the test table exists" $? || exit 1

as_pg "$bin/pg_basebackup -h 127.0.0.1 -p $p1 -U postgres -D '$work/standby' -R -X stream -c fast" >"$work/basebackup.log" 2>&1
check "pg_basebackup -R makes the standby" $? || { cat "$work/basebackup.log"; exit 1; }
start_server standby "$p2"
check "the standby starts on port $p2" $? || { cat "$work/standby.log"; exit 1; }
streaming() { [[ $(sql "$p1" "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'") == 1 ]]; }
poll 400 streaming
check "the standby streams from the primary" $? || exit 1
# Set on the primary only (after the base backup), so the promoted standby does not wait for a
# standby of its own.
sql "$p1" "ALTER SYSTEM SET synchronous_standby_names = '*'" && sql "$p1" "SELECT pg_reload_conf()" >/dev/null
synchronous() { [[ $(sql "$p1" "SELECT sync_state FROM pg_stat_replication") == sync ]]; }
poll 400 synchronous
check "the standby is synchronous: an acknowledged commit is on it" $? || exit 1
[[ $(sql "$p2" "SELECT pg_is_in_recovery()") == t ]]
check "the standby is in recovery" $? || exit 1

wait "$build_pid"
check "the failover service builds" $? || { cat "$work/build.log"; exit 1; }
port=$(free_port)
export DATABASE_URL="postgres://postgres@127.0.0.1:$p1,127.0.0.1:$p2/fitz_failover?target_session_attrs=read-write&connect_timeout=2"
env PORT="$port" FITZ_ACCESS_LOG=off FITZ_HTTP_THREADS=2 FITZ_DB_MAX_CONNS=4 FITZ_DB_POOL_TIMEOUT_MS=3000 \
  "$work/svc" >"$work/svc.log" 2>&1 &
svc_pid=$!
pids+=($svc_pid)
ping() { curl -sf "http://127.0.0.1:$port/ping" >/dev/null; }
poll 400 ping
check "the service answers" $? || { cat "$work/svc.log"; exit 1; }

# The load runs until the end; the script moves on when the load file shows what it waits for.
load=$work/load.txt
touch "$load"
python3 "$client" load "http://127.0.0.1:$port" 8 "$work/stop" "$load" &
load_pid=$!
pids+=($load_pid)
at_least() { [[ $(python3 "$client" count "$load" "$2" "$3") -ge $1 ]]; }
poll 600 at_least 300 2 0
check "the load writes through the primary" $? || exit 1

stopped_begin=$(now)
as_pg "$bin/pg_ctl -D '$work/primary' -m immediate -w stop" >/dev/null
stopped=$?
stopped_at=$(now)
check "the primary stopped (immediate mode) in $(python3 -c "print(f'{$stopped_at - $stopped_begin:.2f}')") s" $stopped
poll 400 at_least 5 503 "$stopped_at"
check "requests get 503 while there is no primary" $?
promote_at=$(now)
as_pg "$bin/pg_ctl -D '$work/standby' -w -t 30 promote" >/dev/null
check "the standby is promoted" $?
promoted_at=$(now)
poll 600 at_least 300 2 "$promoted_at"
check "writes succeed on the new primary" $?
touch "$work/stop"
wait "$load_pid"

sql "$p2" "SELECT id FROM failover_rows" fitz_failover >"$work/stored.txt"
python3 "$client" verdict "$load" "$stopped_at" "$promote_at" "$promoted_at" "$work/stored.txt" 300 ||
  { fails=$((fails + 1)); tail -20 "$work/svc.log"; }

# A server that turns read-only under the pool (default_transaction_read_only, as a server
# being demoted by its operator would): the write on the pooled connection fails with 25006,
# which answers 503 and drops the connection; new sessions are refused by the read-write check
# (503) until the server takes writes again, then writes succeed without a restart.
status_of() { curl -s -o /dev/null -w '%{http_code}' --max-time 20 -X POST "http://127.0.0.1:$port/rows/$1"; }
warm=$(status_of read-only-warm)
sql "$p2" "ALTER SYSTEM SET default_transaction_read_only = on" && sql "$p2" "SELECT pg_reload_conf()" >/dev/null
reloaded() { [[ $(sql "$p2" "SHOW default_transaction_read_only") == on ]]; }
poll 200 reloaded
codes=""
for i in 1 2 3 4; do codes+=" $(status_of "read-only-$i")"; done
sql "$p2" "ALTER SYSTEM RESET default_transaction_read_only" && sql "$p2" "SELECT pg_reload_conf()" >/dev/null
writable() { [[ $(status_of "writable-$RANDOM$RANDOM") == 200 ]]; }
poll 200 writable
back=$?
[[ $warm == 200 && $codes == ' 503 503 503 503' && $back == 0 ]]
check "a server turned read-only: 503 (got$codes after $warm), writes succeed once it takes them again" $?

echo "failover script wall time: $(python3 -c "print(f'{$(now) - $began:.1f}')") s"
if ((fails)); then
  echo "$fails failover check(s) failed"
  exit 1
fi
echo "failover: all checks passed"
