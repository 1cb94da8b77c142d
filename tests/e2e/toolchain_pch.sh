#!/usr/bin/env bash
# The runtime headers precompiled with the toolchain (lib/pch/, tools/runtime_pch) are what a
# first build with an empty cache uses: for a script and a service, at the level of `fitz build`
# and of `fitz run`/`dev`/`test`, fitz picks them and the compiler reads them (GCC ignores a
# precompiled header whose flags differ without a word, so a drift would only show as a slow
# build). A level the toolchain has none for still gets one made in the build cache.
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

printf 'let xs = [1, 2, 3]\nprint("sum {xs.len()}")\n' >"$work/script.fitz"
python3 "$here/../../bench/build/gen_service.py" 1 >"$work/service.fitz"
mkdir -p "$work/proj/tests"
cp "$work/service.fitz" "$work/proj/service.fitz"
printf '@test\nfn validates() {\n    assert_eq(item0_validate(" a ", 1.0), Ok("a"))\n}\n' >>"$work/proj/service.fitz"

# Check the levels this toolchain precompiled: the default always; a release toolchain's are -O1
# (its dev level) and -O2, a sanitized one's -O0 only.
levels=("")
for l in -O0 -O1 -O2; do
  [[ -d $(dirname "$fitz")/../lib/pch/script$l ]] && levels+=("$l")
done
for level in "${levels[@]}"; do
  rm -rf "$FITZ_CACHE_DIR/bin"  # a cached binary would skip the compile
  out=$("$fitz" build --time-phases $level "$work/script.fitz" -o "$work/script" 2>&1); rc=$?
  [[ $rc == 0 && $out == *"precompiled header from the toolchain (used)"* ]]
  check "script ${level:-default level} uses the toolchain's header (rc $rc): $out" $?
  out=$("$fitz" build --time-phases $level "$work/service.fitz" -o "$work/service" 2>&1); rc=$?
  [[ $rc == 0 && $out == *"precompiled header from the toolchain (used)"* ]]
  check "service ${level:-default level} uses the toolchain's header (rc $rc): $out" $?
done
rm -rf "$FITZ_CACHE_DIR/bin"
out=$("$fitz" run --time-phases "$work/script.fitz" 2>&1); rc=$?
[[ $rc == 0 && $out == *"precompiled header from the toolchain (used)"* && $out == *"sum 3"* ]]
check "fitz run uses the toolchain's header (rc $rc): $out" $?
out=$("$fitz" test "$work/proj/service.fitz" 2>&1); rc=$?
[[ $rc == 0 && $out == *"1 passed, 0 failed"* ]]; check "fitz test of a service (rc $rc): $out" $?
[[ ! -e $FITZ_CACHE_DIR/pch ]]; check "no header was precompiled in the build cache" $?

# -O3: none in the toolchain, so one is made in the cache, and used.
out=$("$fitz" build --time-phases -O3 "$work/script.fitz" -o "$work/script3" 2>&1); rc=$?
[[ $rc == 0 && $out == *"precompiled header from the cache (used)"* ]]; check "-O3 falls back to the cache (rc $rc): $out" $?
[[ $("$work/script3") == "sum 3" ]]; check "the -O3 build runs" $?

echo "toolchain_pch: $pass passed, $fail failed"
[[ $fail == 0 ]]
