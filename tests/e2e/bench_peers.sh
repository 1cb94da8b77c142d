#!/usr/bin/env bash
# The compiled peers of `fitz bench` (bench/apps/go, bench/apps/rust) serve what bench/apps/fitz
# serves: built the way the runner builds them, started on one seeded database, the same requests
# must give the same statuses, the same Content-Type and, where the answer does not depend on
# time or randomness, the same bytes. Needs FITZ_TEST_DATABASE_URL (scripts/pg-local.sh url: a
# role that may create databases); the first run compiles the Rust peer (minutes), later ones
# take the binaries cached under the build folder.
set -uo pipefail
fitz=$(realpath "${1:?usage: tests/e2e/bench_peers.sh path/to/fitz}")
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(dirname "$(dirname "$fitz")")
if [[ -z ${FITZ_TEST_DATABASE_URL:-} ]]; then
  echo "FITZ_TEST_DATABASE_URL is not set: run scripts/pg-local.sh start and export the URL it prints" >&2
  exit 1
fi
work=$(mktemp -d)
pids=()
dbname=bench_peers_e2e_$$
cleanup() {
  for p in "${pids[@]}"; do { kill -KILL "$p" && wait "$p"; } 2>/dev/null; done
  (cd "$root/bench" && python3 -c "import sys; from runner import database; database.drop(sys.argv[1], sys.argv[2])" \
    "$FITZ_TEST_DATABASE_URL" "$dbname" 2>/dev/null)
  rm -rf "$work"
}
trap cleanup EXIT
fails=0
check() {
  if [[ $2 == 0 ]]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}

# The database the runner gives every server (schema, seed, TechEmpower tables).
db_url=$(cd "$root/bench" && python3 -c "import sys; from runner import database; print(database.fresh(sys.argv[1], sys.argv[2], 20, 3))" \
  "$FITZ_TEST_DATABASE_URL" "$dbname")
check "fresh database $dbname" $?

"$fitz" build "$root/bench/apps/fitz" -o "$work/fitz-app" >"$work/fitz-build.log" 2>&1
check "fitz build bench/apps/fitz: $(tail -3 "$work/fitz-build.log")" $?

# The runner's own build step (Debian's toolchains, offline, cached by source hash).
binaries=$(cd "$root/bench" && python3 - "$build" <<'EOF'
import sys, types
from runner import impls
ctx = types.SimpleNamespace(build=sys.argv[1])
for impl in (impls.GoApp(), impls.RustApp()):
    try:
        impl.prepare(ctx)
        print(impl.name, impl.binary)
    except impls.Unavailable as e:
        print(impl.name, "unavailable:", e, file=sys.stderr)
EOF
)
for peer in go rust; do
  grep -q "^$peer /" <<<"$binaries"
  check "the runner builds bench/apps/$peer" $?
done

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
declare -A port
serve() {  # NAME BINARY
  port[$1]=$(free_port)
  env PORT="${port[$1]}" HOST=127.0.0.1 DATABASE_URL="$db_url" FITZ_ACCESS_LOG=off "$2" >"$work/$1.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do
    [[ $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${port[$1]}/health") == 200 ]] && return 0
    sleep 0.1
  done
  return 1
}
serve fitz "$work/fitz-app"
check "fitz app answers /health: $(tail -3 "$work/fitz.log")" $?
peers=()
for peer in go rust; do
  bin=$(awk -v p="$peer" '$1 == p {print $2}' <<<"$binaries")
  [[ -n $bin ]] || continue
  serve "$peer" "$bin"
  check "$peer peer answers /health: $(tail -3 "$work/$peer.log")" $?
  peers+=("$peer")
done

# call NAME METHOD PATH [BODY]: "<status> <content-type>" on the first line, then the body.
call() {
  local args=(-s -o "$work/body" -w '%{http_code} %{content_type}\n' -X "$2")
  [[ $# -ge 4 ]] && args+=(-H 'Content-Type: application/json' --data-binary "$4")
  curl "${args[@]}" "http://127.0.0.1:${port[$1]}$3"
  cat "$work/body"
}

# Same status, type and bytes: answers that depend only on the seeded data.
for path in /health '/users?limit=5' /users /users/3 /users/4/posts /users/999999 /json /plaintext /fortunes; do
  want=$(call fitz GET "$path")
  for peer in "${peers[@]}"; do
    got=$(call "$peer" GET "$path")
    [[ $got == "$want" ]]
    check "GET $path: $peer answers as fitz does ($(head -c 120 <<<"$got") vs $(head -c 120 <<<"$want"))" $?
  done
done

# shape NAME METHOD PATH [BODY]: status, type and the body with its generated values blanked
# (new ids, timestamps, random world rows).
shape() {
  call "$@" | python3 -c '
import json, sys
head = sys.stdin.readline().strip()
body = sys.stdin.read()
def blank(v):
    if isinstance(v, list):
        return [blank(x) for x in v]
    if isinstance(v, dict):
        return {k: ("*" if k in ("id", "created_at", "randomNumber") else blank(x)) for k, x in v.items()}
    return v
try:
    print(head, json.dumps(blank(json.loads(body))))
except ValueError:
    print(head, "not JSON:", body[:200])'
}
n=0
for peer in "${peers[@]}"; do
  n=$((n + 1))
  for spec in "POST /users {\"name\":\"New\",\"email\":\"new-$n@example.com\"}" \
              "POST /users {\"name\":\"Again\",\"email\":\"new-$n@example.com\"}" \
              "POST /users/2/posts {\"title\":\"T\",\"body\":\"B\"}" \
              "POST /users/999999/posts {\"title\":\"T\",\"body\":\"B\"}" \
              "PUT /users/5 {\"name\":\"Five\",\"email\":\"five-$n@example.com\"}" \
              "PUT /users/999999 {\"name\":\"None\",\"email\":\"none-$n@example.com\"}" \
              "GET /db" "GET /queries?queries=3" "GET /queries?queries=0" "GET /queries?queries=abc" \
              "GET /updates?queries=2"; do
    read -r method path body <<<"$spec"
    # Each server gets its own unique emails; fitz answers first with the same ones.
    fitz_body=${body//new-$n/fitz-new-$n}
    fitz_body=${fitz_body//five-$n/fitz-five-$n}
    fitz_body=${fitz_body//none-$n/fitz-none-$n}
    want=$(shape fitz "$method" "$path" ${body:+"$fitz_body"})
    got=$(shape "$peer" "$method" "$path" ${body:+"$body"})
    want=${want//fitz-/}
    [[ $got == "$want" ]]
    check "$method $path: $peer answers as fitz does ($got vs $want)" $?
  done
  # Malformed input: a clear 400 or 404, never a crash; the server keeps serving.
  for spec in "POST /users not-json" "POST /users {\"name\":1,\"email\":\"x\"}" "PUT /users/1 {}" \
              "POST /users/1/posts [1,2]"; do
    read -r method path body <<<"$spec"
    st=$(call "$peer" "$method" "$path" "$body" | head -1 | cut -d' ' -f1)
    [[ $st == 400 ]]
    check "$method $path with '$body': $peer answers 400 (got $st)" $?
  done
  st=$(call "$peer" GET /users/abc | head -1 | cut -d' ' -f1)
  [[ $st == 404 ]]
  check "GET /users/abc: $peer answers 404 (got $st)" $?
  st=$(call "$peer" GET /health | head -1 | cut -d' ' -f1)
  [[ $st == 200 ]]
  check "$peer still serves after malformed requests (got $st)" $?
done

echo "bench_peers: $fails failure(s)"
[[ $fails == 0 ]]
