#!/usr/bin/env bash
# `fitz build --debug` and `fitz debug` end to end: debug info that maps to .fitz lines and a
# cache key of its own; LLDB's command line on a script with the Fitz formatters; a whole DAP
# session (breakpoint in a handler hit by a request, Fitz frames and locals, step, continue)
# through `fitz debug --dap`; a launch whose program does not build; a session ended by
# SIGTERM or a closed input; --print-config; and the error when the adapter is not installed.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fitz=$(realpath "${1:-$here/../../build/bin/fitz}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export FITZ_CACHE_DIR=$work/cache
pass=0 fail=0
check() {  # name, condition-result
  if [[ $2 == 0 ]]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED e2e debug: $1"; fi
}

cp "$here/debug/service.fitz" "$here/debug/script.fitz" "$work/"

# Help.
out=$("$fitz" debug --help); rc=$?
[[ $rc == 0 && $out == *"usage: fitz debug"* && $out == *"--dap"* && $out == *"--print-config"* ]]
check "debug --help (rc $rc): $out" $?
out=$("$fitz" build --help)
[[ $out == *"--debug"* ]]; check "build --help names --debug: $out" $?
out=$("$fitz" debug --bogus 2>&1); rc=$?
[[ $rc == 2 && $out == *"unknown option"* ]]; check "unknown option (rc $rc): $out" $?
out=$("$fitz" debug --dap "$work/script.fitz" 2>&1); rc=$?
[[ $rc == 2 && $out == *"takes no path"* ]]; check "--dap with a path (rc $rc): $out" $?

# --debug: DWARF line tables name the .fitz file; an optimised build of the same program is a
# different cache entry (and has no line table for it).
"$fitz" build --debug "$work/script.fitz" -o "$work/script-debug"; rc=$?
check "build --debug (rc $rc)" $rc
lines=$(readelf --debug-dump=decodedline "$work/script-debug" 2>/dev/null | grep -c 'script.fitz')
[[ $lines -gt 3 ]]; check "the debug build maps code to script.fitz lines ($lines rows)" $?
"$fitz" build "$work/script.fitz" -o "$work/script-release"; rc=$?
check "build without --debug (rc $rc)" $rc
cmp -s "$work/script-debug" "$work/script-release"; [[ $? != 0 ]]
check "--debug changes the binary (its own cache key)" $?
# grep reads to the end: with -q, readelf killed by SIGPIPE would make `!` pass.
! readelf -S "$work/script-release" | grep '\.debug_line' >/dev/null
check "the default build carries no line table" $?
out=$("$work/script-debug"); [[ $out == "alpha and 2 more" ]]; check "the debug build runs: $out" $?

# The LLDB command line (--batch runs a file of commands): a breakpoint on a .fitz line, Fitz
# function names, Fitz values.
printf '%s\n' 'breakpoint set --file script.fitz --line 6' run bt 'frame variable' next >"$work/commands.lldb"
out=$(cd "$work" && timeout 120 "$fitz" debug script.fitz --batch commands.lldb 2>&1); rc=$?
[[ $rc == 0 && $out == *"stop reason = breakpoint"* ]]; check "lldb stops at script.fitz:6 (rc $rc): $out" $?
[[ $out == *"f_describe(words_"*'=["alpha", "beta", "gamma"], limit_'*"=null) at script.fitz:6"* ]]
check "the backtrace shows describe with Fitz values at script.fitz:6" $?
[[ $out == *'(fitz::Str) first_'*' = "alpha"'* ]]; check "a Str local reads \"alpha\"" $?
[[ $out == *'= ["alpha", "beta", "gamma"] {'* ]]; check "a List<Str> reads [\"alpha\", \"beta\", \"gamma\"]" $?
[[ $out == *'= [5, 4, 5] {'* ]]; check "a List<Int> reads [5, 4, 5]" $?
[[ $out == *'limit_'*'= null'* ]]; check "a null Int? reads null" $?
[[ $out == *'shown_'*'= "alpha and 2 more"'* ]]; check "an interpolated Str reads as text" $?
[[ $out != *raw_* ]]; check "a Str shows no raw bytes" $?
[[ $out == *"stop reason = step over"*"at script.fitz:7"* ]]; check "next steps to the function's closing line" $?
out=$("$fitz" debug "$work/script.fitz" --batch "$work/missing.lldb" 2>&1); rc=$?
[[ $rc == 2 && $out == *"no such file"* ]]; check "--batch with a missing file (rc $rc): $out" $?

# A whole DAP session on a service.
python3 "$here/debug/debug_session.py" "$fitz" "$work/service.fitz" >"$work/session.log" 2>&1; rc=$?
check "DAP session (rc $rc): $(cat "$work/session.log")" $rc
grep -q '^ok   an HTTP request stops at the breakpoint' "$work/session.log"
check "the session reached the breakpoint" $?

# A launch whose program has errors fails with the checker's message, and the adapter exits.
printf 'let x: Int = "no"\n' >"$work/broken.fitz"
DEBUG_DIR="$here/debug" python3 - "$fitz" "$work/broken.fitz" >"$work/broken.log" 2>&1 <<'PY'
import os, sys
sys.path.insert(0, os.environ["DEBUG_DIR"])
from dap_client import DapClient
client = DapClient([sys.argv[1], "debug", "--dap"])
client.request("initialize", {"adapterID": "fitz"})
r = client.request("launch", {"program": sys.argv[2]})
print("success:", r["success"])
print("message:", r.get("message", ""))
client.request("disconnect", {})
print("status:", client.close())
PY
out=$(cat "$work/broken.log")
[[ $out == *"success: False"* && $out == *"error[E"* && $out == *"broken.fitz:1"* && $out == *"status: 0"* ]]
check "a launch of a broken program fails with its diagnostics: $out" $?

# An editor ending the session without a disconnect (SIGTERM, or closing the adapter's input)
# stops the service too: a debuggee is never left running detached.
for how in SIGTERM EOF; do
  out=$(timeout 120 python3 "$here/debug/stop_session.py" "$fitz" "$work/service.fitz" "$how" 2>&1)
  [[ $out == *"listening: True"*"service stopped: True"* ]]; check "$how ends the session and the service: $out" $?
done

# --print-config: how an editor starts the adapter, and a launch configuration.
out=$("$fitz" debug --print-config "$work/service.fitz"); rc=$?
python3 -c '
import json, sys
c = json.loads(sys.argv[1])
assert c["adapter"]["args"] == ["debug", "--dap"], c
assert c["configuration"]["type"] == "fitz" and c["configuration"]["request"] == "launch", c
assert c["configuration"]["program"] == sys.argv[2], c
' "$out" "$work/service.fitz"; check "--print-config (rc $rc): $out" $?
out=$("$fitz" debug --print-config "$work/missing.fitz" 2>&1); rc=$?
[[ $rc == 2 && $out == *"no such file"* ]]; check "--print-config of a missing file (rc $rc): $out" $?

# Without LLDB's adapter on PATH the error says what to install.
mkdir -p "$work/emptybin"
out=$(PATH=$work/emptybin "$fitz" debug --dap </dev/null 2>&1); rc=$?
[[ $rc == 2 && $out == *"install lldb-14"* ]]; check "missing lldb-vscode (rc $rc): $out" $?
out=$(PATH=$work/emptybin "$fitz" debug "$work/script.fitz" </dev/null 2>&1); rc=$?
[[ $rc == 2 && $out == *"install lldb-14"* ]]; check "missing lldb (rc $rc): $out" $?

echo "e2e debug: $pass passed, $fail failed"
[[ $fail == 0 ]]
