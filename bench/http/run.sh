#!/usr/bin/env bash
# Side-by-side HTTP benchmark: a hand-written Beast server (baseline.cpp) and a program on the
# fitz::http API (app.cpp), each serving GET /health and POST /echo (typed JSON body), measured
# with wrk in one run. Prints req/s, p50/p99 latency, peak RSS and the fitz/baseline ratio.
#
#   bench/http/run.sh                 # THREADS=1 CONN=50 DUR=10 ROUNDS=2
#   THREADS=2 DUR=5 bench/http/run.sh
#   FITZ_ARGS=--no-log bench/http/run.sh   # without the access log
# Needs wrk (Debian package `wrk`). Server and wrk share the machine's cores.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build-http-bench}
THREADS=${THREADS:-1}
CONN=${CONN:-50}
DUR=${DUR:-10}
ROUNDS=${ROUNDS:-2}
WRK_THREADS=${WRK_THREADS:-2}
FITZ_ARGS=${FITZ_ARGS:-}
PORT_BASE=${PORT_BASE:-18080}

command -v wrk >/dev/null || { echo "wrk not found: install the Debian package 'wrk'" >&2; exit 1; }
cmake -S "$ROOT/bench/http" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$BUILD" fitz_http_bench_app fitz_http_baseline >/dev/null

TMP=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$TMP"' EXIT
cat > "$TMP/echo.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"text":"hello, fitz","n":42}'
wrk.headers["Content-Type"] = "application/json"
LUA

wait_port() {
  for _ in $(seq 1 100); do
    if (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null; then return 0; fi
    sleep 0.05
  done
  echo "server on port $1 did not start" >&2
  return 1
}

# run_wrk NAME PORT PATH [lua] -> appends "name path rps p50 p99" to $TMP/results
run_wrk() {
  local name=$1 port=$2 path=$3 script=${4:-}
  local args=(-t"$WRK_THREADS" -c"$CONN" -d"${DUR}s" --latency)
  [ -n "$script" ] && args+=(-s "$script")
  local out
  out=$(wrk "${args[@]}" "http://127.0.0.1:$port$path")
  local rps p50 p99 errs
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  errs=$(awk '/Non-2xx|Socket errors/ {print}' <<<"$out" | tr '\n' ' ')
  echo "$name $path $rps $p50 $p99 $errs" >> "$TMP/results"
}

bench_server() {
  local name=$1 port=$2; shift 2
  PORT=$port FITZ_HTTP_THREADS=$THREADS "$@" 2>/dev/null &
  local pid=$!
  wait_port "$port"
  wrk -t1 -c4 -d1s "http://127.0.0.1:$port/health" >/dev/null  # warm-up
  run_wrk "$name" "$port" /health
  run_wrk "$name" "$port" /echo "$TMP/echo.lua"
  local rss hwm
  rss=$(awk '/VmRSS/ {print $2}' /proc/$pid/status)
  hwm=$(awk '/VmHWM/ {print $2}' /proc/$pid/status)
  echo "$name rss_kb $rss $hwm" >> "$TMP/rss"
  kill -TERM $pid
  wait $pid 2>/dev/null || true
}

echo "wrk -t$WRK_THREADS -c$CONN -d${DUR}s, server threads: $THREADS, rounds: $ROUNDS (alternating)"
for r in $(seq 1 "$ROUNDS"); do
  bench_server baseline $((PORT_BASE + 2 * r)) "$BUILD/bin/fitz_http_baseline"
  bench_server fitz $((PORT_BASE + 2 * r + 1)) "$BUILD/bin/fitz_http_bench_app" $FITZ_ARGS
done

echo
echo "all runs (server path req/s p50 p99):"
sed 's/^/  /' "$TMP/results"
echo
printf "%-9s %-8s %12s %10s %10s   %s\n" server path "req/s(best)" p50 p99 notes
for name in baseline fitz; do
  for path in /health /echo; do
    awk -v n=$name -v p=$path '$1==n && $2==p' "$TMP/results" | sort -k3 -g -r | head -1 |
      awk '{n = ""; for (i = 6; i <= NF; ++i) n = n " " $i; printf "%-9s %-8s %12.0f %10s %10s  %s\n", $1, $2, $3, $4, $5, n}'
  done
done
echo
for name in baseline fitz; do
  awk -v n=$name '$1==n {if ($4>m) m=$4; if ($3>r) r=$3} END {printf "%-9s RSS after load %6.1f MB, peak %6.1f MB\n", n, r/1024, m/1024}' "$TMP/rss"
done
echo
for path in /health /echo; do
  b=$(awk -v p=$path '$1=="baseline" && $2==p {if ($3>m) m=$3} END {print m}' "$TMP/results")
  f=$(awk -v p=$path '$1=="fitz" && $2==p {if ($3>m) m=$3} END {print m}' "$TMP/results")
  awk -v p=$path -v b="$b" -v f="$f" 'BEGIN {printf "ratio fitz/baseline %-8s %5.1f%%\n", p, 100*f/b}'
done
