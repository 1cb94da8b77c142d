#!/usr/bin/env bash
# Checks fitz-loadgen against wrk: both load GET /plaintext of a server on the fitz HTTP runtime
# (SERVER=baseline: the hand-written Beast server) with the same connections and one client
# thread, alternating, several rounds; the medians of their throughputs must agree within
# TOLERANCE percent (default 10). A ratio measured in one run, so a noisy machine slows both
# alike.
#
#   bench/loadgen/validate.sh [BUILD_DIR]      # ROUNDS=5 DUR=2 CONN=32 TOLERANCE=10
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(realpath "${1:-$root/build}")
ROUNDS=${ROUNDS:-5}
DUR=${DUR:-2}
CONN=${CONN:-32}
TOLERANCE=${TOLERANCE:-10}
command -v wrk >/dev/null || { echo "wrk not found: install the Debian package 'wrk'" >&2; exit 2; }

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
if [[ ${SERVER:-fitz} == baseline ]]; then
  PORT=$port FITZ_HTTP_THREADS=1 "$build/bin/fitz_http_baseline" &
else
  PORT=$port FITZ_HTTP_THREADS=1 "$build/bin/fitz_http_bench_app" --no-log &
fi
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break
  sleep 0.05
done
url=http://127.0.0.1:$port/plaintext
wrk -t1 -c"$CONN" -d1s "$url" >/dev/null  # warm-up

ours=() theirs=()
for r in $(seq 1 "$ROUNDS"); do
  w=$(wrk -t1 -c"$CONN" -d"${DUR}s" "$url" | awk '/Requests\/sec/ {print $2}')
  l=$("$build/bin/fitz-loadgen" "$url" -t 1 -c "$CONN" -d "$DUR" --quiet --json - 2>/dev/null |
      python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["rps"] if d["failures"]==0 else -1)')
  echo "round $r: wrk $w req/s, fitz-loadgen $l req/s"
  theirs+=("$w") ours+=("$l")
done
python3 - "$TOLERANCE" "${theirs[*]}" "${ours[*]}" <<'PY'
import statistics, sys
tol = float(sys.argv[1])
wrk = [float(x) for x in sys.argv[2].split()]
ours = [float(x) for x in sys.argv[3].split()]
if min(ours) < 0:
    sys.exit("fitz-loadgen saw failed requests")
w, o = statistics.median(wrk), statistics.median(ours)
diff = 100 * (o - w) / w
print(f"median: wrk {w:.0f} req/s, fitz-loadgen {o:.0f} req/s ({diff:+.1f}%)")
if abs(diff) > tol:
    sys.exit(f"fitz-loadgen and wrk disagree by more than {tol:.0f}%")
PY
