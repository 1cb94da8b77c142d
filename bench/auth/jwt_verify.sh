#!/usr/bin/env bash
# JWT verification cost per request through a compiled service: tests/e2e/auth/main.fitz
# serves GET /open (unguarded) and GET /me (@authenticated: bearer token, jwt.decode in the
# @auth_provider, the user bound to the handler). For HS256 and RS256 (2048-bit key) it loads
# each route with fitz-loadgen in alternating rounds and reports, per route, the server's CPU
# time per request (utime + stime from /proc, which other load on the machine does not
# inflate) and requests/second, then the ratio /me : /open. Prints a table; no assertion.
# Usage: bench/auth/jwt_verify.sh [BUILD_DIR] [SECONDS_PER_RUN] [ROUNDS]   (FITZ_LOADGEN: another fitz-loadgen)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(realpath "${1:-$root/build}")
secs=${2:-4}
rounds=${3:-3}
loadgen=${FITZ_LOADGEN:-$build/bin/fitz-loadgen}
work=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
export FITZ_CACHE_DIR=$work/cache
"$build/bin/fitz" build "$root/tests/e2e/auth/main.fitz" -o "$work/svc" >/dev/null
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$work/rsa.pem" 2>/dev/null
openssl pkey -in "$work/rsa.pem" -pubout -out "$work/rsa.pub"
ticks=$(getconf CLK_TCK)
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

printf '%-6s %-6s %12s %12s\n' alg route 'us CPU/req' 'req/s'
for alg in HS256 RS256; do
  JWT_ALG=$alg JWT_SECRET=bench-secret JWT_PRIVATE_KEY="$(cat "$work/rsa.pem")" JWT_PUBLIC_KEY="$(cat "$work/rsa.pub")" \
    PORT=0 FITZ_HTTP_THREADS=1 "$work/svc" >/dev/null 2>"$work/$alg.err" &
  pid=$!
  port=
  for _ in $(seq 100); do
    port=$(grep -a -o 'listening on http://127.0.0.1:[0-9]*' "$work/$alg.err" 2>/dev/null | head -1 | sed 's/.*://') || true
    [[ -n $port ]] && break
    sleep 0.1
  done
  token=$(curl -s -X POST -H 'content-type: application/json' -d '{"name":"bob","password":"bob-pass"}' \
    "http://127.0.0.1:$port/login" | sed 's/.*"token":"\([^"]*\)".*/\1/')
  declare -A us=() rps=()
  for ((r = 0; r < rounds; r++)); do
    for route in /open /me; do
      a=$(cpu "$pid")
      "$loadgen" "http://127.0.0.1:$port$route" -c 4 -d "$secs" --warmup 1 --quiet \
        -H "authorization: Bearer $token" --json "$work/r.json" >/dev/null
      b=$(cpu "$pid")
      read -r n s < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["requests"], d["rps"])' "$work/r.json")
      us[$route]+="$(python3 -c "print(($b - $a) * 1e6 / $ticks / max($n, 1))") "
      rps[$route]+="$s "
    done
  done
  median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
  for route in /open /me; do
    printf '%-6s %-6s %12.1f %12.0f\n' "$alg" "$route" "$(median <<<"${us[$route]}")" "$(median <<<"${rps[$route]}")"
  done
  o=$(median <<<"${us[/open]}")
  m=$(median <<<"${us[/me]}")
  printf '%-6s ratio /me:/open CPU per request %.2f (verify + provider about %.1f us)\n' "$alg" \
    "$(python3 -c "print($m / $o)")" "$(python3 -c "print($m - $o)")"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  pid=
  unset us rps
done
