#!/usr/bin/env bash
# Outbound HTTP: a Fitz handler that GETs a local keep-alive upstream (http_client/proxy.fitz)
# beside the same handler in Node with fetch (http_client/proxy.mjs), in one run, with wrk.
# Prints req/s, p50/p99 and the proxy's CPU time per request (user+system from /proc, so the
# upstream and wrk are not counted).
#
#   bench/http_client.sh [path/to/fitz]        # CONN=50 DUR=10 THREADS=1
# Needs wrk and node. Upstream, proxy and wrk share the machine's cores.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FITZ=$(realpath "${1:-$ROOT/build/bin/fitz}")
CONN=${CONN:-50}
DUR=${DUR:-10}
THREADS=${THREADS:-1}
UP_PORT=${UP_PORT:-18190}
FITZ_PORT=${FITZ_PORT:-18191}
NODE_PORT=${NODE_PORT:-18192}

command -v wrk >/dev/null || { echo "wrk not found: install the Debian package 'wrk'" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$TMP"' EXIT
export FITZ_CACHE_DIR=${FITZ_CACHE_DIR:-$TMP/cache}

wait_port() {
  for _ in $(seq 1 100); do
    if (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null; then return 0; fi
    sleep 0.05
  done
  echo "nothing listens on port $1" >&2
  return 1
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

"$FITZ" build "$ROOT/bench/http_client/proxy.fitz" -o "$TMP/proxy" >/dev/null
PORT=$UP_PORT node "$ROOT/bench/http_client/upstream.mjs" &
wait_port "$UP_PORT"
UPSTREAM="http://127.0.0.1:$UP_PORT/quote"
export UPSTREAM

# measure NAME PORT PID
measure() {
  local name=$1 port=$2 pid=$3
  wrk -t2 -c"$CONN" -d2s "http://127.0.0.1:$port/proxy" >/dev/null  # warm-up: pools, JIT
  local before after out rps p50 p99 reqs errs hz
  hz=$(getconf CLK_TCK)
  before=$(cpu_ticks "$pid")
  out=$(wrk -t2 -c"$CONN" -d"${DUR}s" --latency "http://127.0.0.1:$port/proxy")
  after=$(cpu_ticks "$pid")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  reqs=$(awk '/requests in/ {print $1}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  errs=$(awk '/Non-2xx|Socket errors/ {print}' <<<"$out" | tr '\n' ' ')
  local cpu_us
  cpu_us=$(awk -v t=$((after - before)) -v hz="$hz" -v n="$reqs" 'BEGIN { printf "%.1f", t / hz * 1e6 / n }')
  printf '%-6s %10s req/s  p50 %-8s p99 %-8s CPU %6s us/request %s\n' "$name" "$rps" "$p50" "$p99" "$cpu_us" "$errs"
}

curl -sf "http://127.0.0.1:$UP_PORT/" >/dev/null
PORT=$FITZ_PORT FITZ_HTTP_THREADS=$THREADS FITZ_LOG=error "$TMP/proxy" 2>/dev/null &
fitz_pid=$!
wait_port "$FITZ_PORT"
[[ $(curl -s "http://127.0.0.1:$FITZ_PORT/proxy") == '"{\"symbol\":\"ABC\",\"price\":12.5}"' ]] || { echo "fitz proxy answers wrongly" >&2; exit 1; }
measure fitz "$FITZ_PORT" "$fitz_pid"
kill "$fitz_pid"

PORT=$NODE_PORT node "$ROOT/bench/http_client/proxy.mjs" &
node_pid=$!
wait_port "$NODE_PORT"
[[ $(curl -s "http://127.0.0.1:$NODE_PORT/proxy") == '"{\"symbol\":\"ABC\",\"price\":12.5}"' ]] || { echo "node proxy answers wrongly" >&2; exit 1; }
measure node "$NODE_PORT" "$node_pid"
