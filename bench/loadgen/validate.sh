#!/usr/bin/env bash
# Checks fitz-loadgen two ways against a server on the fitz HTTP runtime (GET /plaintext;
# SERVER=baseline: the hand-written Beast server).
#
# 1. Its count, exactly: with the server's access log on, every request fitz-loadgen says
#    ended was answered by the server, and the server answered at most one more per connection
#    (the requests in flight when the run stopped). No timing enters this check.
# 2. Its throughput against wrk: the same connections and one client thread, alternating,
#    ROUNDS rounds; the medians must agree within TOLERANCE percent. A ratio measured in one
#    run, so a noisy machine slows both alike; still, on a shared 2-core machine the medians
#    of five 2-second rounds move by 10-20%, so the test suite (scripts/run-tests.sh) passes
#    TOLERANCE=50: there it catches a load generator that serialises its connections or drops
#    responses, while the 10% default is for a quiet machine and `bench/` runs.
#
#   bench/loadgen/validate.sh [BUILD_DIR]      # ROUNDS=5 DUR=2 CONN=32 TOLERANCE=10
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(realpath "${1:-$root/build}")
ROUNDS=${ROUNDS:-5}
DUR=${DUR:-2}
CONN=${CONN:-32}
TOLERANCE=${TOLERANCE:-10}
command -v wrk >/dev/null || { echo "FAILED: wrk not found: install the Debian package 'wrk'" >&2; exit 2; }
work=$(mktemp -d)
server=
trap 'if [[ -n $server ]]; then kill "$server" 2>/dev/null || true; fi; rm -rf "$work"' EXIT

# start_server LOG_FILE|--no-log: sets $server and $url
start_server() {
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  local log=/dev/null opt=--no-log
  [[ $1 != --no-log ]] && log=$1 opt=
  if [[ ${SERVER:-fitz} == baseline ]]; then
    PORT=$port FITZ_HTTP_THREADS=1 "$build/bin/fitz_http_baseline" 2>"$log" &
  else
    PORT=$port FITZ_HTTP_THREADS=1 "$build/bin/fitz_http_bench_app" $opt 2>"$log" &
  fi
  server=$!
  for _ in $(seq 1 100); do
    (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break
    sleep 0.05
  done
  url=http://127.0.0.1:$port/plaintext
}

stop_server() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  server=
}

# loadgen SECONDS: runs fitz-loadgen on $url and leaves its JSON in $work/lg.json. Its exit
# status is not fatal here: the checks below read the failures from the JSON and say what
# they were.
loadgen() {
  "$build/bin/fitz-loadgen" "$url" -t 1 -c "$CONN" -d "$1" --quiet --json - >"$work/lg.json" 2>"$work/lg.err" || true
  if ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/lg.json" 2>/dev/null; then
    echo "FAILED: fitz-loadgen wrote no JSON results:" >&2
    cat "$work/lg.err" >&2
    exit 1
  fi
}

# 1. The count. Only the bench app writes an access log.
if [[ ${SERVER:-fitz} != baseline ]]; then
  start_server "$work/access.log"
  loadgen 1
  # The server logs a response after writing it: wait until the log stops growing (unchanged
  # over four looks 0.05 s apart, at most 5 s) rather than a fixed time.
  last=-1 same=0
  for _ in $(seq 1 100); do
    now=$(wc -l <"$work/access.log")
    if [[ $now == "$last" ]]; then ((++same)); else same=0; fi
    ((same < 4)) || break
    last=$now
    sleep 0.05
  done
  stop_server
  python3 - "$work/lg.json" "$work/access.log" "$CONN" <<'PY'
import json, sys
lg = json.load(open(sys.argv[1]))
conn = int(sys.argv[3])
served = sum(1 for line in open(sys.argv[2]) if '"http.target":"/plaintext"' in line)
ended, failures = lg["ended"], lg["failures"]
print(f"count: fitz-loadgen ended {ended} requests ({lg['requests']} measured, {failures} failed); the server answered {served}")
if failures:
    sys.exit(f"FAILED: fitz-loadgen saw {failures} failed requests")
if not ended <= served <= ended + conn:
    sys.exit(f"FAILED: the server answered {served} requests; fitz-loadgen's {ended} ended plus at most {conn} in flight do not account for them")
PY
fi

# 2. Throughput against wrk.
start_server --no-log
wrk -t1 -c"$CONN" -d1s "$url" >/dev/null  # warm-up
ours=() theirs=()
for r in $(seq 1 "$ROUNDS"); do
  w=$(wrk -t1 -c"$CONN" -d"${DUR}s" "$url" | awk '/Requests\/sec/ {print $2}')
  loadgen "$DUR"
  l=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["rps"] if d["failures"]==0 else -d["failures"])' "$work/lg.json")
  echo "round $r: wrk $w req/s, fitz-loadgen $l req/s"
  theirs+=("$w") ours+=("$l")
done
python3 - "$TOLERANCE" "${theirs[*]}" "${ours[*]}" <<'PY'
import statistics, sys
tol = float(sys.argv[1])
wrk = [float(x) for x in sys.argv[2].split()]
ours = [float(x) for x in sys.argv[3].split()]
if min(ours) < 0:
    sys.exit(f"FAILED: fitz-loadgen saw failed requests ({-int(min(ours))} in one round)")
w, o = statistics.median(wrk), statistics.median(ours)
diff = 100 * (o - w) / w
print(f"median: wrk {w:.0f} req/s, fitz-loadgen {o:.0f} req/s ({diff:+.1f}%; tolerance {tol:.0f}%)")
if abs(diff) > tol:
    sys.exit(f"FAILED: fitz-loadgen and wrk disagree by more than {tol:.0f}%")
PY
