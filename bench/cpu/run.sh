#!/usr/bin/env bash
# CPU benchmarks: each program in Fitz, hand-written C++ (-O2) and Python 3. Builds all three,
# checks they print the same thing, and writes a Markdown table of wall times (median of
# RUNS runs; hyperfine when installed) with the ratios Fitz/C++ and Python/Fitz to stdout.
# Usage: bench/cpu/run.sh [FITZ] [NAME...]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
fitz=$(realpath "${1:-$root/build/bin/fitz}")
shift || true
names=("$@")
((${#names[@]})) || names=(fib strings lists objects)
runs=${RUNS:-5}
python=${PYTHON:-/usr/bin/python3}
cxx=${CXX:-c++}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Median wall time of a command in seconds.
measure() {
  if command -v hyperfine >/dev/null; then
    hyperfine -N -w 1 -r "$runs" --export-json "$work/h.json" "$*" >/dev/null 2>&1
    "$python" -c 'import json,sys; print("%.4f" % json.load(open(sys.argv[1]))["results"][0]["median"])' "$work/h.json"
    return
  fi
  local times=()
  "$@" >/dev/null  # warm-up
  for ((i = 0; i < runs; i++)); do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null
    t1=$(date +%s.%N)
    times+=("$(echo "$t1 - $t0" | bc -l)")
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{ a[NR] = $1 } END { printf "%.4f\n", a[int((NR + 1) / 2)] }'
}

echo "| benchmark | C++ -O2 (s) | Fitz (s) | Python 3 (s) | Fitz / C++ | Python / Fitz |"
echo "|---|---:|---:|---:|---:|---:|"
for n in "${names[@]}"; do
  "$cxx" -std=c++20 -O2 -o "$work/$n.cpp.bin" "$here/$n.cpp"
  "$fitz" build "$here/$n.fitz" -o "$work/$n.fitz.bin" >/dev/null
  a=$("$work/$n.cpp.bin") b=$("$work/$n.fitz.bin") c=$("$python" "$here/$n.py")
  if [[ $a != "$b" || $b != "$c" ]]; then
    echo "$n: outputs differ: C++ '$a', Fitz '$b', Python '$c'" >&2
    exit 1
  fi
  tc=$(measure "$work/$n.cpp.bin")
  tf=$(measure "$work/$n.fitz.bin")
  tp=$(measure "$python" "$here/$n.py")
  printf '| %s | %s | %s | %s | %.2fx | %.1fx |\n' "$n" "$tc" "$tf" "$tp" \
    "$(echo "$tf / $tc" | bc -l)" "$(echo "$tp / $tf" | bc -l)"
done
