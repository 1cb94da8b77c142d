#!/usr/bin/env bash
# End-to-end checks of the CLI drivers on real programs: `fitz test` on a project (output and
# exit status), `fitz build` of a program with a runtime error (the Fitz position is reported),
# the build cache, `--emit=cpp`, and `fitz run` passing arguments and exit status through.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fitz=$(realpath "${1:-$here/../../build/bin/fitz}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export FITZ_CACHE_DIR=$work/cache
pass=0 fail=0
check() {  # name, condition-result
  if [[ $2 == 0 ]]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED e2e: $1"; fi
}

# fitz test: every test runs, failures are reported with left/right, exit status 1.
out=$(cd "$here/testproj" && "$fitz" test 2>&1); rc=$?
diff <(printf '%s\n' "$out") "$here/testproj.expected" >"$work/diff"; check "fitz test output" $?
[[ $rc == 1 ]]; check "fitz test exits 1 on failures (got $rc)" $?
out=$(cd "$here/testproj" && "$fitz" test adds 2>&1); rc=$?
[[ $rc == 0 && $out == *"1 passed, 0 failed"* ]]; check "fitz test FILTER" $?
# --file F: only the tests of F (FILTER still applies within it); a file that is not tested is
# a usage error.
out=$(cd "$here/testproj" && "$fitz" test --file tests/text_test.fitz 2>&1); rc=$?
[[ $rc == 0 && $out == *"text_test.fitz::formats_sum ... ok"* && $out == *"text_test.fitz::sums ... ok"* &&
   $out != *"calc_test"* && $out == *"2 passed, 0 failed"* ]]; check "fitz test --file (rc $rc): $out" $?
out=$(cd "$here/testproj" && "$fitz" test formats --file=tests/text_test.fitz 2>&1); rc=$?
[[ $rc == 0 && $out == *"text_test.fitz::formats_sum ... ok"* && $out == *"1 passed, 0 failed"* ]]
check "fitz test FILTER --file=F (rc $rc): $out" $?
out=$(cd "$here/testproj" && "$fitz" test --file tests/calc_test.fitz divides 2>&1); rc=$?
[[ $rc == 0 && $out == *"calc_test.fitz::divides ... ok"* && $out == *"1 passed, 0 failed"* ]]
check "fitz test --file F FILTER (rc $rc): $out" $?
out=$(cd "$here/testproj" && "$fitz" test --file fitz.toml 2>&1); rc=$?
[[ $rc == 2 && $out == *"is not one of the files being tested"* ]]; check "fitz test --file of an untested file (rc $rc): $out" $?
mkdir -p "$work/loose" && printf '@test\nfn loose() {\n    assert_eq(1, 1)\n}\n' >"$work/loose/a_test.fitz"
out=$(cd "$work/loose" && "$fitz" test --file a_test.fitz 2>&1); rc=$?
[[ $rc == 0 && $out == *"a_test.fitz::loose ... ok"* ]]; check "fitz test --file outside a project (rc $rc): $out" $?
out=$(cd "$here/testproj" && "$fitz" test --file nope.fitz 2>&1); rc=$?
[[ $rc == 2 && $out == *"no such file"* ]]; check "fitz test --file of a missing file (rc $rc): $out" $?
[[ -s $work/diff ]] && cat "$work/diff"

# fitz build + run of a program with a runtime error.
cp -r "$here/runtime_error" "$work/re"
(cd "$work/re" && "$fitz" build main.fitz -o prog >/dev/null 2>&1); check "fitz build" $?
out=$("$work/re/prog" 2>"$work/stderr"); rc=$?
[[ $rc == 1 && $out == "before" ]]; check "runtime error exits 1 after earlier output (got $rc)" $?
grep -q "^error: division by zero" "$work/stderr" && grep -q "main.fitz:2:" "$work/stderr"
check "runtime error names the Fitz position: $(tr '\n' ' ' <"$work/stderr")" $?

# The cache: a second build of unchanged sources reports a cache hit.
out=$(cd "$work/re" && "$fitz" build main.fitz -o prog2 --time-phases 2>&1)
[[ $out == *"(cached)"* ]]; check "cached rebuild" $?

# --emit=cpp writes the C++ with #line directives pointing at the Fitz source.
out=$(cd "$work/re" && "$fitz" build main.fitz --emit=cpp -o - 2>&1)
[[ $out == *'#include <fitz/runtime.h>'* && $out == *'#line 2 "main.fitz"'* ]]; check "--emit=cpp" $?

# A guarded route whose @auth_provider has the wrong shape (it must take the headers and return
# a Result) is a checker error (so the editor shows it too) and stops the build (exit 1) instead
# of serving the route unguarded.
cat >"$work/guard.fitz" <<'FITZ'
@auth_provider
fn current_user(token: Str) -> Int? {
    return null
}

@get("/me")
@authenticated
fn me() -> Str {
    return "me"
}
FITZ
out=$("$fitz" build "$work/guard.fitz" -o "$work/guard" 2>&1); rc=$?
[[ $rc == 1 && $out == *"guard.fitz:2:17: error[E0511]: an \`@auth_provider\` takes one parameter, the request headers"* && ! -e $work/guard ]]
check "unguarded routes are refused (got $rc: $out)" $?
out=$("$fitz" check "$work/guard.fitz" 2>&1); rc=$?
[[ $rc == 1 && $out == *"error[E0511]"* ]]; check "fitz check reports the provider's shape too (got $rc: $out)" $?

# A handler whose database is unreachable answers 503 {"error": "database unavailable"}, and
# the server keeps serving.
cat >"$work/down.fitz" <<'FITZ'
@get("/users")
async fn users() -> Result<Int> {
    let conn = db.connect("postgres://fitz@127.0.0.1:1/nowhere").await?
    let rows = conn.query("SELECT 1", []).await?
    return Ok(rows.len())
}

@get("/ping")
fn ping() -> Str {
    return "pong"
}
FITZ
if "$fitz" build "$work/down.fitz" -o "$work/down" >"$work/down.log" 2>&1; then
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  PORT=$port FITZ_ACCESS_LOG=off "$work/down" >/dev/null 2>&1 &
  down_pid=$!
  for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/ping" >/dev/null && break; sleep 0.05; done
  out=$(curl -s -w ' %{http_code}' "http://127.0.0.1:$port/users")
  [[ $out == '{"error":"database unavailable"} 503' ]]; check "unreachable database is a 503 (got $out)" $?
  out=$(curl -s -w ' %{http_code}' "http://127.0.0.1:$port/ping")
  [[ $out == '"pong" 200' ]]; check "the server keeps serving after a 503 (got $out)" $?
  kill $down_pid; wait $down_pid 2>/dev/null
else
  check "a service using db builds: $(head -5 "$work/down.log")" 1
fi

# fitz run passes arguments and the exit status through.
printf 'print("hi")\n' >"$work/hi.fitz"
out=$("$fitz" run "$work/hi.fitz" 2>&1); rc=$?
[[ $rc == 0 && $out == "hi" ]]; check "fitz run" $?
(cd "$work/re" && "$fitz" run main.fitz >/dev/null 2>&1); rc=$?
[[ $rc == 1 ]]; check "fitz run passes the exit status through (got $rc)" $?

# A checker error stops the build with exit status 1 and no binary.
printf 'let x: Int = "a"\n' >"$work/bad.fitz"
(cd "$work" && "$fitz" build bad.fitz -o badprog >/dev/null 2>&1); rc=$?
[[ $rc == 1 && ! -e $work/badprog ]]; check "checker errors stop the build (got $rc)" $?

echo "e2e: $pass passed, $fail failed"
((fail == 0))
