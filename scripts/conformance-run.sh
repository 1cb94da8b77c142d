#!/usr/bin/env bash
# The differential conformance test: every program of ../shared/conformance/run (and of
# tests/testdata/run) must pass `fitz check`, build with `fitz run`, and print exactly its .out.
# A case with a NAME.err expects a runtime error: the exit status must be 1, stdout must equal
# NAME.out (what was printed before the error) and stderr must start with the lines of NAME.err.
# Otherwise the exit status must be 0.
# Usage: scripts/conformance-run.sh [FITZ] [CASE-FILTER]
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fitz=$(realpath "${1:-$root/build/bin/fitz}")
filter=${2:-}
dirs=()
[[ -d $root/../shared/conformance/run ]] && dirs+=("$root/../shared/conformance/run")
[[ -d $root/tests/testdata/run ]] && dirs+=("$root/tests/testdata/run")
if [[ ! -d $root/../shared/conformance/run ]]; then
  echo "conformance: ../shared/conformance/run is missing" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0 failed=()
for dir in "${dirs[@]}"; do
  for src in "$dir"/*.fitz; do
    name=$(basename "$src" .fitz)
    [[ -n $filter && $name != *$filter* ]] && continue
    case_dir=$work/$name
    mkdir -p "$case_dir"
    if head -n 1 "$src" | grep -q '^// --- file: '; then
      # Multi-file case: each marker line starts a new file; the first file is the entry.
      awk -v d="$case_dir" '/^\/\/ --- file: / { f = d "/" $4; n++; if (n == 1) print $4 > (d "/.entry"); system("mkdir -p \"$(dirname \"" f "\")\""); next } { print > f }' "$src"
      entry=$(cat "$case_dir/.entry")
    else
      cp "$src" "$case_dir/$name.fitz"
      entry=$name.fitz
    fi
    expected=${src%.fitz}.out
    actual=$case_dir/.actual
    expected_err=${src%.fitz}.err
    ok=0
    if (cd "$case_dir" && timeout 120 "$fitz" check "$entry" >/dev/null 2>"$case_dir/.check"); then
      # A case with a NAME.leaks file documents a known reference cycle (a closure that holds
      # itself): LeakSanitizer is off for that case only; every other check still applies.
      asan=${ASAN_OPTIONS:-}
      [[ -f ${src%.fitz}.leaks ]] && asan="detect_leaks=0${asan:+:$asan}"
      (cd "$case_dir" && ASAN_OPTIONS=$asan timeout 300 "$fitz" run ${FITZ_RUN_FLAGS:-} "$entry" >"$actual" 2>"$case_dir/.err")
      status=$?
      if [[ -f $expected_err ]]; then
        lines=$(wc -l <"$expected_err")
        ((status == 1)) && cmp -s "$expected" "$actual" &&
          head -n "$lines" "$case_dir/.err" | cmp -s "$expected_err" - && ok=1
      else
        ((status == 0)) && cmp -s "$expected" "$actual" && ok=1
      fi
    fi
    if ((ok)); then
      pass=$((pass + 1))
    else
      fail=$((fail + 1))
      failed+=("$name")
      if [[ -n ${VERBOSE:-} ]]; then
        echo "--- $name"; head -c 3000 "$case_dir/.check" "$case_dir/.err"; diff "$expected" "$actual" | head -20
        [[ -f $expected_err ]] && diff "$expected_err" <(head -n "$(wc -l <"$expected_err")" "$case_dir/.err")
      fi
    fi
  done
done
for n in "${failed[@]}"; do echo "FAILED conformance/$n"; done
echo "conformance run: $pass passed, $fail failed"
((fail == 0))
