#!/usr/bin/env bash
# `make demo`: after the build, shows fitz on the examples: a clean check, a run and the
# diagnostics of a program with mistakes (examples/hello), then the HTTP + Postgres service
# examples/users-api against DATABASE_URL or a local Postgres started for it, with a short tour
# of requests. On a terminal the service keeps running until Ctrl-C; FITZ_DEMO_TOUR_ONLY=1 (or
# no terminal) stops it after the tour.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(realpath "${1:-$root/build}")
fitz=$build/bin/fitz
cd "$root/examples/hello"

echo "==> fitz --version"
"$fitz" --version
echo
echo "==> fitz check main.fitz"
"$fitz" check main.fitz && echo "main.fitz: no errors"
echo
echo "==> fitz run main.fitz"
"$fitz" run main.fitz
echo
echo "==> fitz check broken.fitz (a program with mistakes; exit status 1 is expected)"
"$fitz" check broken.fitz
echo "exit status: $?"
echo

echo "==> Postgres for the service"
if [[ -z ${DATABASE_URL:-} ]]; then
  DATABASE_URL=$(bash "$root/scripts/pg-local.sh" start) || { echo "demo: could not start Postgres" >&2; exit 1; }
  echo "started a local Postgres (scripts/pg-local.sh stop stops it): $DATABASE_URL"
else
  echo "using DATABASE_URL=$DATABASE_URL"
fi
export DATABASE_URL

cd "$root/examples/users-api"
echo
echo "==> fitz build examples/users-api"
"$fitz" build . -o "$build/demo/users-api" || exit 1
port=${PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')}
log=$build/demo/users-api.log
PORT=$port "$build/demo/users-api" >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null' EXIT
base=http://127.0.0.1:$port
for _ in $(seq 1 100); do
  curl -sf "$base/healthz" >/dev/null && break
  sleep 0.05
done

show() {
  echo
  echo "\$ curl $*"
  curl -s -w '  [%{http_code}]\n' "$@"
}
email="ada-$$-$RANDOM@example.com"
show -X POST "$base/users" -H 'content-type: application/json' -d "{\"name\": \"Ada\", \"email\": \"$email\"}"
show -X POST "$base/users" -H 'content-type: application/json' -d "{\"name\": \"Ada\", \"email\": \"$email\"}"
show -X POST "$base/users" -H 'content-type: application/json' -d '{"name": "Bo", "email": 42}'
show "$base/users?limit=3"
show "$base/users/not-a-number"
show "$base/users/999999999"
echo
echo "API document: $base/openapi.json   API page: $base/docs   server log: $log"
if [[ -t 0 && -z ${FITZ_DEMO_TOUR_ONLY:-} ]]; then
  echo "users-api is serving on $base (Ctrl-C to stop)"
  wait $server
fi
exit 0
