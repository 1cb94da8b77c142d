#!/usr/bin/env bash
# `fitz run` passes INT, TERM and HUP on to the program it started and exits with the program's
# status (128+N after signal N); when it stops, the program and its port go too — also under
# `timeout` and when `fitz run` itself is killed outright.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fitz=$(realpath "${1:-$here/../../build/bin/fitz}")
suite=run-signals
source "$here/service_lib.sh"
app=$here/run_signals/main.fitz

# launch NAME [WRAPPER...]: `fitz run` on the service, in the background; sets $fpid (the
# process started), $port and $child (the service `fitz run` started). The first launch builds.
launch() {
  local name=$1
  shift
  # Started with default dispositions: a run under nohup (SIGHUP ignored) must not change what
  # the program does with the signals this test sends.
  PORT=0 FITZ_HTTP_THREADS=2 "$@" env --default-signal=HUP,INT,TERM "$fitz" run "$app" >"$work/$name.out" 2>"$work/$name.err" &
  fpid=$!
  pids+=("$fpid")
  child=
  port=$(listening_port "$fpid" "$work/$name.err" 120)
  [[ -n $port ]]; check "$name: the service starts: $(head -c 500 "$work/$name.err")" $?
  child=$(pgrep -f "^$FITZ_CACHE_DIR/run/.*/main" | head -1)
  [[ -n $child ]]; check "$name: the service runs as a child process" $?
  [[ -n $child ]] && pids+=("$child")
}

# ended NAME: waits (up to 30 s) for $fpid to exit; sets $rc ("" when it did not).
ended() {
  rc=
  for _ in $(seq 300); do
    if ! kill -0 "$fpid" 2>/dev/null; then { wait "$fpid"; } 2>/dev/null; rc=$?; return; fi
    sleep 0.1
  done
  check "$1: fitz run exits" 1
}

# gone NAME: the service process no longer exists and nothing listens on its port.
gone() {
  local alive=0
  for _ in $(seq 100); do
    kill -0 "$child" 2>/dev/null || { alive=1; break; }
    sleep 0.1
  done
  [[ $alive == 1 ]]; check "$1: the service process $child is gone" $?
  ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; check "$1: port $port is free" $?
}

serves() {  # NAME: the service answers on $port
  [[ $(curl -s "http://127.0.0.1:$port/ping") == '"pong"' || $(curl -s "http://127.0.0.1:$port/ping") == pong ]]
  check "$1: the service answers" $?
}

# SIGTERM to `fitz run`: the service drains and exits 0, and so does `fitz run`.
launch term
serves term
kill -TERM "$fpid"
ended term
[[ $rc == 0 ]]; check "term: fitz run exits with the service's status 0 (got '$rc')" $?
gone term

# SIGINT (Ctrl+C, or an editor's stop button): the same.
launch int
kill -INT "$fpid"
ended int
[[ $rc == 0 ]]; check "int: fitz run exits with the service's status 0 (got '$rc')" $?
gone int

# SIGHUP (the terminal closed): the service does not catch it and dies of it, so 128+1.
launch hup
kill -HUP "$fpid"
ended hup
[[ $rc == 129 ]]; check "hup: fitz run exits 128+1 as the service died of SIGHUP (got '$rc')" $?
gone hup

# The program killed by a signal: `fitz run` reports 128+N as a shell does.
launch killed
kill -KILL "$child"
ended killed
[[ $rc == 137 ]]; check "killed: fitz run exits 128+9 when the program dies of SIGKILL (got '$rc')" $?
gone killed

# Under `timeout`: when the time is up the service goes too (timeout itself exits 124).
launch timeout timeout 8
ended timeout
[[ $rc == 124 ]]; check "timeout: timeout reports the time-out (got '$rc')" $?
gone timeout

# `fitz run` killed outright cannot forward anything; the kernel stops the service for it.
launch sigkill
kill -KILL "$fpid"
ended sigkill
gone sigkill

echo "e2e $suite: $pass passed, $fail failed"
[[ $fail == 0 ]]
