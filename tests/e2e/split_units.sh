#!/usr/bin/env bash
# A large program compiles as several translation units at once (codegen::split_units) and
# links into one service that answers as the whole program would: the 1,000-line benchmark
# service in two units serves routes of its first and last resources, and a route in the last
# unit calls a handler of the first as a plain function (the handler's twin, defined in another
# unit). With FITZ_BUILD_UNITS=1 the same program is one unit, and a small program is never cut.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fitz=$(realpath "${1:-$here/../../build/bin/fitz}")
suite=split_units
source "$here/service_lib.sh"

python3 "$here/../../bench/build/gen_service.py" 10 >"$work/big.fitz"
cat >>"$work/big.fitz" <<'EOF'

// Fitz code calling a route handler: its plain twin must exist, whichever unit holds it.
@get("/first_item0")
fn first_item0() {
    return get_item0(1)
}
EOF
python3 "$here/../../bench/build/gen_service.py" 1 >"$work/small.fitz"

out=$(FITZ_BUILD_UNITS=2 "$fitz" build --time-phases -O1 "$work/big.fitz" -o "$work/big" 2>&1); rc=$?
[[ $rc == 0 && $out == *"2 translation units at once"* ]]; check "the large service builds as 2 units (rc $rc): $out" $?
objects=$(ls "$FITZ_CACHE_DIR"/bin/*.cpp 2>/dev/null | grep -c '\.[0-9]\.cpp$')
[[ $objects == 2 ]]; check "the build cache holds the 2 units' sources (found $objects)" $?
[[ -z $(ls "$FITZ_CACHE_DIR"/bin/ | grep '\.o') ]]; check "no object file is left in the cache" $?

start big "$work/big"
req POST /item0s -H 'content-type: application/json' -d '{"name": " first ", "price": 2.5}'
expect "create in the first unit's resource" 201 '{"id":1,"name":"first","price":2.5,"tags":[],"active":true}'
req POST /item9s -H 'content-type: application/json' -d '{"name": "last", "price": 1.0, "tags": ["x"]}'
expect "create in the last unit's resource" 201 '{"id":1,"name":"last","price":1.0,"tags":["x"],"active":true}'
req PATCH /item9s/1 -H 'content-type: application/json' -d '{"active": false}'
expect "patch in the last unit's resource" 200 '{"id":1,"name":"last","price":1.0,"tags":["x"],"active":false}'
req GET '/item9s?active=false'
expect "list with a query parameter" 200 '[{"id":1,"name":"last","price":1.0,"tags":["x"],"active":false}]'
req POST /item5s -H 'content-type: application/json' -d '{"name": "", "price": 1.0}'
expect "validation in a middle resource" 422 '{"error":"a name is required"}'
req GET /item4s/7
expect "a 404 of a handler" 404 '{"error":"no item4 7"}'
req GET /first_item0
expect "a handler called as a function from another unit" 200 '{"id":1,"name":"first","price":2.5,"tags":[],"active":true}'
req DELETE /item0s/1
expect "delete" 204 ''
stop big

rm -rf "$FITZ_CACHE_DIR/bin"
out=$(FITZ_BUILD_UNITS=1 "$fitz" build --time-phases -O1 "$work/big.fitz" -o "$work/big1" 2>&1); rc=$?
[[ $rc == 0 && $out != *"translation units"* ]]; check "FITZ_BUILD_UNITS=1 builds one unit (rc $rc): $out" $?
out=$(FITZ_BUILD_UNITS=2 "$fitz" build --time-phases -O1 "$work/small.fitz" -o "$work/small" 2>&1); rc=$?
[[ $rc == 0 && $out != *"translation units"* ]]; check "a small service stays one unit (rc $rc): $out" $?
out=$(FITZ_BUILD_UNITS=2 "$fitz" build --syntax-only "$work/big.fitz" 2>&1); rc=$?
[[ $rc == 0 ]]; check "--syntax-only checks every unit (rc $rc): $out" $?

echo "split_units: $pass passed, $fail failed"
[[ $fail == 0 ]]
