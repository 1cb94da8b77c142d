#!/usr/bin/env bash
# Build time of services: `fitz build` of a generated ~100-line and ~1,000-line JSON service
# (bench/build/gen_service.py) at -O0, -O1 (what `fitz run`, `fitz dev` and `fitz test` use) and
# -O2 (the default of `fitz build`), each twice: with an empty build cache (the runtime headers
# precompiled with the toolchain are used where it has them for that level; otherwise the
# precompiled header is made in the cache first), and with only the binary cache emptied (a
# header made in the cache by the first build is reused). Prints a Markdown table of wall and CPU
# seconds (user + sys, children included; on a busy machine CPU time is the steadier number), the
# compile phase reported by --time-phases, and where the precompiled header came from.
# Usage: bench/build/services.sh [FITZ] [LEVELS]   (LEVELS default "-O0 -O1 -O2")
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fitz=$(realpath "${1:-$root/build/bin/fitz}")
levels=${2:-"-O0 -O1 -O2"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export FITZ_CACHE_DIR=$work/cache

python3 "$root/bench/build/gen_service.py" 1 >"$work/small.fitz"
python3 "$root/bench/build/gen_service.py" 10 >"$work/large.fitz"

# One build: prints "wall cpu compile_ms header" (header: toolchain, cache or none).
build() {
  /usr/bin/time -f "%e %U %S" -o "$work/t" "$fitz" build --time-phases "$@" 2>"$work/phases" >/dev/null
  local ms pch
  ms=$(sed -n 's/^time: compile \([0-9.]*\) ms.*/\1/p' "$work/phases")
  pch=$(sed -n 's/^time: compile.*precompiled header from the \([a-z]*\) (\([a-z]*\).*/\1,\2/p' "$work/phases")
  awk -v ms="${ms:-0}" -v pch="${pch:-none}" '{ printf "%.2f %.2f %.0f %s", $1, $2 + $3, ms, pch }' "$work/t"
}

echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg), $(c++ --version | head -1)"
echo
echo "| program | level | empty cache wall (s) | CPU (s) | of it compile (ms) | header | header cached wall (s) | CPU (s) | of it compile (ms) |"
echo "|---|---|---:|---:|---:|---|---:|---:|---:|"
for prog in small large; do
  n=$(wc -l <"$work/$prog.fitz")
  for level in $levels; do
    rm -rf "$FITZ_CACHE_DIR"
    read -r cw cc cm ch <<<"$(build "$level" "$work/$prog.fitz" -o "$work/$prog")"
    rm -rf "$FITZ_CACHE_DIR/bin"
    read -r ww wc wm _ <<<"$(build "$level" "$work/$prog.fitz" -o "$work/$prog")"
    printf '| service, %d lines | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$n" "$level" "$cw" "$cc" "$cm" "$ch" "$ww" "$wc" "$wm"
  done
done
