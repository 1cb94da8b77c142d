#!/usr/bin/env bash
# Bounded libFuzzer runs of every target in tests/fuzz (NAME_fuzz.cpp → bin/fitz_NAME_fuzz):
# configures the clang + sanitizer build (-DFITZ_FUZZ=ON) when needed, builds the targets, and
# runs each for FITZ_FUZZ_SECONDS (default 40), FITZ_FUZZ_JOBS targets at a time (default: one
# per core), seeded from tests/fuzz/corpus/NAME and, for the targets that read Fitz source, every
# .fitz file of the repository and the shared conformance corpus. New inputs stay in a scratch
# copy; crashing inputs are kept under BUILD/artifacts. Fails on any crash, leak, timeout, out
# of memory or sanitizer report. Usage: scripts/fuzz.sh [BUILD_DIR] [TARGET...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
out=${1:-build/fuzz}
shift || true
seconds=${FITZ_FUZZ_SECONDS:-40}
jobs=${FITZ_FUZZ_JOBS:-$(nproc)}

targets=("$@")
if ((${#targets[@]} == 0)); then
  for src in tests/fuzz/*_fuzz.cpp; do
    name=$(basename "$src" .cpp)
    targets+=("${name%_fuzz}")
  done
fi

bash scripts/configure-sanitized.sh "$out"
bins=()
for t in "${targets[@]}"; do bins+=("fitz_${t}_fuzz"); done
cmake --build "$out" -j"$(nproc)" --target "${bins[@]}"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out/artifacts"

# Fitz programs for the targets that read source: the repository's own and the conformance corpus.
fitz_sources() {
  find tests examples bench -name '*.fitz' -not -path 'tests/fuzz/*' 2>/dev/null
  if [[ -d ../shared/conformance ]]; then find ../shared/conformance -name '*.fitz'; fi
}

run_target() {
  local t=$1 corpus=$work/$1 log=$work/$1.log args=()
  mkdir -p "$corpus"
  cp tests/fuzz/corpus/"$t"/* "$corpus"/ 2>/dev/null || true
  case $t in
    frontend | checker | format)
      local i=0
      while read -r f; do cp "$f" "$corpus/src_$((i++))_$(basename "$f")"; done < <(fitz_sources)
      args+=(-max_len=65536)
      ;;
  esac
  local start=$SECONDS rc=0
  "$out/bin/fitz_${t}_fuzz" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$out/artifacts/$t-" "${args[@]}" "$corpus" >"$log" 2>&1 || rc=$?
  local execs cov
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n1 | cut -d' ' -f2)
  if ((rc == 0)); then
    printf 'fuzz %-13s ok     %10s executions in %3d s, coverage %s, corpus %s inputs\n' \
      "$t" "${execs:-?}" $((SECONDS - start)) "${cov:-?}" "$(ls "$corpus" | wc -l)"
  else
    printf 'fuzz %-13s FAILED (exit %d) after %s executions; the input is in %s/artifacts/%s-*\n' \
      "$t" "$rc" "${execs:-?}" "$out" "$t"
    grep -E -A40 'ERROR: |==ERROR|runtime error|oracle' "$log" | head -n 60
    return 1
  fi
}

running=0
for t in "${targets[@]}"; do
  (run_target "$t" && echo ok >"$work/$t.result" || echo failed >"$work/$t.result") &
  running=$((running + 1))
  if ((running >= jobs)); then
    wait -n || true
    running=$((running - 1))
  fi
done
wait
failed=()
for t in "${targets[@]}"; do
  [[ $(cat "$work/$t.result" 2>/dev/null) == ok ]] || failed+=("$t")
done
if ((${#failed[@]})); then
  echo "fuzz: crashes in ${failed[*]} (reproduce: $out/bin/fitz_<target>_fuzz <artifact>)"
  exit 1
fi
