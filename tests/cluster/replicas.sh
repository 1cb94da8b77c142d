#!/usr/bin/env bash
# A replica set on one machine, started by this script: three replicas of tests/cluster/replicas
# (HTTP routes, a WebSocket endpoint with broadcasts over FITZ_WS_PUBSUB=postgres, a per-second
# cron job) behind haproxy (health checks on /readyz every 100 ms), one Postgres (a scratch
# database beside FITZ_TEST_DATABASE_URL, else scripts/pg-local.sh's), and fitz-loadgen sending
# GET /hello through haproxy. It proves, each as a check that can fail:
#   - a rolling restart (SIGTERM, /readyz 503, haproxy drops the replica while it still serves,
#     drain, exit 0, start the next) loses no request;
#   - kill -9 of a replica loses at most the requests in flight (one per loadgen connection),
#     haproxy drops it within its check interval, and the others keep serving;
#   - WebSocket clients of the killed replica reconnect through haproxy and receive a broadcast
#     sent through another replica;
#   - the cron job runs at most once per tick across the set (a run lost with a kill is allowed).
# Prints one summary line with the measured numbers. usage: tests/cluster/replicas.sh [path/to/fitz]
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here=$root/tests/cluster
fitz=$(realpath "${1:-$root/build/bin/fitz}")
loadgen=$(dirname "$fitz")/fitz-loadgen
started=$SECONDS
for tool in haproxy psql curl python3 "$loadgen"; do
  command -v "$tool" >/dev/null || { echo "replicas: $tool is missing (scripts/install-deps.sh)" >&2; exit 1; }
done

work=$(mktemp -d)
declare -A rpid=()  # replica number -> pid
others=()           # haproxy, the WebSocket clients, loadgen runs
server=${FITZ_TEST_DATABASE_URL:-}
dbname=fitz_cluster_e2e
admin() { psql "$server" -XtAq -v ON_ERROR_STOP=1 -c "$1"; }
cleanup() {
  for p in "${rpid[@]}" "${others[@]}"; do kill -KILL "$p" 2>/dev/null; done
  wait 2>/dev/null
  [[ -n $server ]] && admin "DROP DATABASE IF EXISTS $dbname WITH (FORCE)" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
fails=0
check() {  # description, status (0 passes), details shown on failure
  if [[ $2 == 0 ]]; then echo "ok   $1"; else echo "FAIL $1 ${3:-}"; fails=$((fails + 1)); fi
}
now_ms() { date +%s%3N; }
# poll TENTHS CMD...: runs CMD every 0.1 s until it succeeds, at most TENTHS times.
poll() {
  local n=$1
  shift
  for ((k = 0; k < n; k++)); do "$@" && return 0; sleep 0.1; done
  "$@"
}

if [[ -z $server ]]; then server=$(bash "$root/scripts/pg-local.sh" start) || exit 1; fi
url=${server%/*}/$dbname
sql() { psql "$url" -XtAq -v ON_ERROR_STOP=1 -c "$1"; }
admin "DROP DATABASE IF EXISTS $dbname WITH (FORCE)" && admin "CREATE DATABASE $dbname" &&
  sql "CREATE TABLE cluster_runs (id bigserial PRIMARY KEY, replica text NOT NULL,
       at timestamptz NOT NULL DEFAULT clock_timestamp())" || exit 1

"$fitz" build "$here/replicas/main.fitz" -o "$work/app" >"$work/build.log" 2>&1
check "the service builds" $? "$(cat "$work/build.log")"
[[ -x $work/app ]] || exit 1

# Free ports, chosen now: three replicas, the load balancer, its statistics page.
read -r -a ports <<<"$(python3 -c '
import socket
socks = [socket.socket() for _ in range(5)]
for s in socks: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))')"
lb=${ports[3]} stats=${ports[4]}

start_replica() {  # N: starts replica N on its port
  local n=$1
  env PORT="${ports[$((n - 1))]}" REPLICA="r$n" DATABASE_URL="$url" FITZ_WS_PUBSUB=postgres FITZ_HTTP_THREADS=2 \
    FITZ_ACCESS_LOG=off "$work/app" >>"$work/r$n.out" 2>>"$work/r$n.err" &
  rpid[$n]=$!
}
readyz() { curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${ports[$(($1 - 1))]}/readyz"; }
is_ready() { [[ $(readyz "$1") == 200 ]]; }
is_draining() { [[ $(readyz "$1") == 503 ]]; }
# haproxy's view of replica N: UP, DOWN, or a transition such as "UP 1/2".
lb_state() { curl -s "http://127.0.0.1:$stats/stats;csv" | awk -F, -v s="r$1" '$1 == "replicas" && $2 == s { print $18 }'; }
lb_is() { [[ $(lb_state "$1") == "$2" ]]; }

for n in 1 2 3; do start_replica "$n"; done
for n in 1 2 3; do
  poll 200 is_ready "$n"
  check "replica r$n starts and answers /readyz" $? "$(tail -c 300 "$work/r$n.err")"
done

cat >"$work/haproxy.cfg" <<EOF
global
    maxconn 4096
defaults
    mode http
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    timeout tunnel 1h
    retries 3
    option redispatch
frontend lb
    bind 127.0.0.1:$lb
    default_backend replicas
backend replicas
    balance roundrobin
    option httpchk GET /readyz
    http-check expect status 200
    default-server inter 100ms fastinter 100ms downinter 100ms fall 2 rise 1
    server r1 127.0.0.1:${ports[0]} check
    server r2 127.0.0.1:${ports[1]} check
    server r3 127.0.0.1:${ports[2]} check
listen stats
    bind 127.0.0.1:$stats
    stats enable
    stats uri /stats
EOF
haproxy -db -f "$work/haproxy.cfg" >"$work/haproxy.log" 2>&1 &
others+=("$!")
for n in 1 2 3; do
  poll 100 lb_is "$n" UP
  check "haproxy sees r$n up" $? "$(tail -c 300 "$work/haproxy.log")"
done

# Six WebSocket clients through haproxy: two per replica with round robin.
python3 "$here/replicas_ws.py" 127.0.0.1 "$lb" /feed 6 >"$work/ws.log" 2>"$work/ws.err" &
others+=("$!")
ws_opened() { [[ $(grep -c '"event": "text", "text": "hello from' "$work/ws.log") -ge $1 ]]; }
poll 100 ws_opened 6
check "six WebSocket clients connect through haproxy" $? "$(tail -c 300 "$work/ws.log") $(tail -c 300 "$work/ws.err")"

# load SECONDS NAME: fitz-loadgen through haproxy in the background; $load_pid.
load() {
  # Paced (2 ms between a response and the next request) to leave the machine's cores to the
  # replicas and haproxy: continuous load, not a throughput test.
  "$loadgen" "http://127.0.0.1:$lb/hello" -c 8 -d "$1" --think-ms 2 --timeout-ms 5000 --max-error-rate 1 \
    --json "$work/$2.json" >"$work/$2.out" 2>"$work/$2.err" &
  load_pid=$!
  others+=("$load_pid")
  # Until it reports its first measured second.
  poll 50 grep -qs 's] conns' "$work/$2.err"
}
# result NAME: "failed total" from loadgen's JSON (total: answered, errors and timeouts).
result() {
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); e=j['endpoints'][0]
print(j['failures'] + j['connect_errors'], e['requests'] + e['errors'] + e['timeouts'] + j['connect_errors'])" "$work/$1.json"
}

# ---- rolling restart: SIGTERM, /readyz 503, haproxy drops it, exit, start the next -------------
load 25 rolling
exits=()
for n in 1 2 3; do
  t0=$(now_ms)
  kill -TERM "${rpid[$n]}"
  poll 20 is_draining "$n"
  check "r$n answers /readyz with 503 once it got SIGTERM" $?
  # haproxy must stop sending before the replica stops accepting: while /readyz still answers.
  poll 30 lb_is "$n" DOWN
  lb_down=$?
  is_draining "$n"
  check "haproxy drops r$n while it still accepts (state '$(lb_state "$n")')" $((lb_down || $?))
  poll 400 bash -c "! kill -0 ${rpid[$n]} 2>/dev/null"
  wait "${rpid[$n]}"
  rc=$?
  exits+=("$(python3 -c "print(round(($(now_ms) - $t0) / 1000, 2))")")
  check "r$n exits 0 after draining (rc $rc)" "$rc" "$(tail -c 300 "$work/r$n.err")"
  start_replica "$n"
  poll 200 is_ready "$n" && poll 100 lb_is "$n" UP
  check "the new r$n is ready and back in haproxy" $?
done
kill -0 "$load_pid" 2>/dev/null
check "the load ran through the whole rolling restart" $?
wait "$load_pid"
read -r rolling_failed rolling_total <<<"$(result rolling)"
[[ $rolling_failed == 0 && $rolling_total -gt 0 ]]
check "no request failed during the rolling restart ($rolling_failed of $rolling_total)" $? "$(tail -c 600 "$work/rolling.err")"

# ---- kill -9 of the replica with the most WebSocket clients ------------------------------------
# The replica each client is on now: the last hello it got.
placement() {
  python3 - "$work/ws.log" <<'EOF'
import json, sys
on = {}
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["event"] == "text" and e["text"].startswith("hello from "):
        on[e["client"]] = e["text"][len("hello from "):]
    elif e["event"] == "closed":
        on.pop(e["client"], None)
print(" ".join(f"{c}={r}" for c, r in sorted(on.items())))
EOF
}
all_placed() { [[ $(placement | wc -w) == 6 ]]; }
poll 100 all_placed
before=$(placement)
victim=$(tr ' ' '\n' <<<"$before" | cut -d= -f2 | sort | uniq -c | sort -rn | head -1 | awk '{print $2}')
victim=${victim#r}
moved=$(tr ' ' '\n' <<<"$before" | awk -F= -v r="r$victim" '$2 == r { print $1 }' | tr '\n' ' ')
[[ -n $victim && -n $moved ]]
check "the WebSocket clients are placed before the kill ($before)" $?

lines_before=$(wc -l <"$work/ws.log")
load 8 kill
t0=$(now_ms)
kill -KILL "${rpid[$victim]}"
wait "${rpid[$victim]}" 2>/dev/null
poll 50 lb_is "$victim" DOWN
check "haproxy drops the killed r$victim (state '$(lb_state "$victim")')" $?
drop_s=$(python3 -c "print(round(($(now_ms) - $t0) / 1000, 2))")
# Checks every 100 ms, two failures: 0.2 s on an idle machine; the bound leaves room for a
# machine busy with other builds (the replicas, haproxy and this script share its cores).
python3 -c "import sys; sys.exit(0 if $drop_s <= 2.0 else 1)"
check "haproxy drops it within its check interval (${drop_s} s, at most 2)" $?
others_serve=0
for _ in $(seq 12); do
  out=$(curl -s -w ' %{http_code}' "http://127.0.0.1:$lb/hello")
  [[ $out == '{"replica":"r'[123]'"} 200' && $out != *"r$victim"* ]] || others_serve=1
done
check "the other replicas keep serving through haproxy (last: $out)" $others_serve

# The clients of the killed replica reconnect elsewhere, then a broadcast reaches all six.
reconnected() {
  local c
  for c in $moved; do
    tail -n +"$((lines_before + 1))" "$work/ws.log" | grep "\"client\": $c, \"event\": \"text\", \"text\": \"hello from r[^$victim]" >/dev/null || return 1
  done
}
poll 150 reconnected
check "the WebSocket clients of r$victim (${moved% }) reconnect to another replica" $? "$(tail -n 20 "$work/ws.log")"
note="after-kill-$RANDOM"
out=$(curl -s -w ' %{http_code}' -H 'content-type: application/json' -d "{\"text\":\"$note\"}" "http://127.0.0.1:$lb/announce")
check "a broadcast is accepted through haproxy: $out" "$([[ $out == *' 202' ]]; echo $?)"
everyone_got() { [[ $(grep -c "\"text\": \"$note\"" "$work/ws.log") -ge 6 ]]; }
poll 100 everyone_got
got=$(grep "\"text\": \"$note\"" "$work/ws.log" | python3 -c 'import json,sys; print(len({json.loads(l)["client"] for l in sys.stdin}))')
check "all six clients receive it, sent through another replica ($got of 6)" "$([[ $got == 6 ]]; echo $?)" "$(tail -n 20 "$work/ws.log")"

wait "$load_pid"
read -r kill_failed kill_total <<<"$(result kill)"
# Only requests in flight on the killed replica may fail: at most one per loadgen connection.
[[ $kill_failed -le 8 && $kill_total -gt 0 ]]
check "kill -9 fails only requests in flight ($kill_failed of $kill_total, at most 8)" $? "$(tail -c 600 "$work/kill.err")"
start_replica "$victim"
poll 200 is_ready "$victim" && poll 100 lb_is "$victim" UP
check "r$victim comes back" $?

# ---- the cron job: at most one run per tick, runs throughout -----------------------------------
for n in 1 2 3; do kill -TERM "${rpid[$n]}"; done
for n in 1 2 3; do wait "${rpid[$n]}"; done
unset rpid
declare -A rpid=()
# A run's tick comes from the runtime's run record (written before the body starts); the body's
# own rows count executions. No retries are configured, so each tick has at most one record.
counts=$(sql "SELECT (SELECT count(*) FROM cluster_runs), (SELECT count(DISTINCT replica) FROM cluster_runs),
                     count(*), count(DISTINCT tick_at), count(*) FILTER (WHERE tick_at IS NULL),
                     (SELECT count(*) FROM fitz_cron_ticks WHERE job_name = 'cluster_tick'),
                     count(*) FILTER (WHERE status = 'ok'),
                     coalesce(extract(epoch FROM max(tick_at) - min(tick_at))::int, 0)
              FROM fitz_cron_runs WHERE job_name = 'cluster_tick'")
IFS='|' read -r runs replicas records distinct unknown claims ok_runs span <<<"$counts"
doubled=$(sql "SELECT count(*) FROM (SELECT tick_at FROM fitz_cron_runs WHERE job_name = 'cluster_tick'
               GROUP BY tick_at HAVING count(*) > 1) d")
# A run killed between the body's insert and its status update counts as a run, not as ok; a
# replica killed between its record and the body's insert leaves a record without a run.
[[ $doubled == 0 && $unknown == 0 && $records == "$distinct" && $ok_runs -le $runs && $runs -le $records && $records -le $claims ]]
check "no cron tick ran twice ($runs runs, $records run records for $distinct ticks, $claims claimed, $ok_runs ok, $doubled doubled)" $?
lost=$((claims - runs))
# Every second of the run has a replica up, so nearly every tick runs; a kill loses at most a few.
[[ $replicas -ge 2 && $span -gt 0 && $runs -ge $((span * 8 / 10)) ]]
check "the cron job ran throughout on several replicas ($runs runs over ${span} s, $replicas replicas, $lost lost)" $?

wall=$((SECONDS - started))
echo "replicas summary: rolling restart failed $rolling_failed/$rolling_total, SIGTERM-to-exit ${exits[*]} s;" \
  "kill -9 failed $kill_failed/$kill_total, haproxy dropped it in ${drop_s} s; WebSocket clients moved: $(wc -w <<<"$moved"), broadcast received $got/6;" \
  "cron runs $runs over ${span} s, doubled $doubled, lost $lost; wall ${wall} s"
[[ $fails == 0 ]]
