# Shared pieces of the end-to-end scripts that build a Fitz service and talk to it over
# loopback (sourced, not run). The script sets `suite` (the name in failure lines) first; this
# file makes $work (removed on exit with every server still running), counts checks in
# $pass/$fail, and gives listening_port/start/stop/req/expect/has_header.

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
export FITZ_CACHE_DIR=$work/cache
pass=0 fail=0
check() {  # description, condition-result
  if [[ $2 == 0 ]]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED e2e $suite: $1"; fi
}

# listening_port PID ERRFILE SECONDS: the port the process PID says on ERRFILE it listens on,
# once it does; empty if PID ends first or SECONDS pass.
listening_port() {
  local port=
  for _ in $(seq $(($3 * 10))); do
    port=$(grep -so 'listening on http://127.0.0.1:[0-9]*' "$2" | head -1 | sed 's/.*://')
    [[ -n $port ]] && break
    kill -0 "$1" 2>/dev/null || break
    sleep 0.1
  done
  echo "$port"
}

# start NAME BINARY [ENV...]: runs it on an ephemeral port; sets $port and $pid.
start() {
  local name=$1 bin=$2
  shift 2
  env PORT=0 FITZ_HTTP_THREADS=2 "$@" "$bin" >"$work/$name.out" 2>"$work/$name.err" &
  pid=$!
  pids+=("$pid")
  port=$(listening_port "$pid" "$work/$name.err" 10)
  [[ -n $port ]]; check "$name starts and prints its address: $(head -c 500 "$work/$name.err")" $?
}

# wait_line NAME TEXT: waits (up to 30 s) until the service NAME printed TEXT on stderr.
wait_line() {
  for _ in $(seq 300); do
    grep -q -F "$2" "$work/$1.err" && break
    sleep 0.1
  done
  grep -q -F "$2" "$work/$1.err"; check "$1 says '$2': $(tail -c 500 "$work/$1.err")" $?
}

# stop NAME: SIGTERM, then the process must exit 0 on its own (after the drain delay).
stop() {
  kill -TERM "$pid"
  local rc=
  for _ in $(seq 100); do
    if ! kill -0 "$pid" 2>/dev/null; then wait "$pid"; rc=$?; break; fi
    sleep 0.1
  done
  [[ $rc == 0 ]]; check "$1 exits 0 after SIGTERM (status '${rc:-still running}')" $?
}

# req METHOD PATH [curl args...]: sets $status, $body and $headers (lower-cased names).
req() {
  local method=$1 path=$2
  shift 2
  status=$(curl -s -o "$work/body" -D "$work/headers" -w '%{http_code}' -X "$method" "$@" "http://127.0.0.1:$port$path")
  body=$(cat "$work/body")
  headers=$(tr 'A-Z' 'a-z' <"$work/headers" | tr -d '\r')
}
expect() {  # description, expected status, expected body (exact; "*" skips)
  [[ $status == "$2" && ( $3 == "*" || $body == "$3" ) ]]
  check "$1: expected $2 $3, got $status $body" $?
}
has_header() {  # description, "name: value" (lower case)
  grep -qxF "$2" <<<"$headers"; check "$1: header '$2' missing in: $headers" $?
}
