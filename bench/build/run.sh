#!/usr/bin/env bash
# Build-time benchmark: `fitz build` of a generated 1,000-line program with the runtime
# already built (cold build cache), then a rebuild of the unchanged program (cache hit).
# Writes a Markdown table to stdout. Usage: bench/build/run.sh [FITZ] [LINES]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fitz=$(realpath "${1:-$root/build/bin/fitz}")
lines=${2:-1000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export FITZ_CACHE_DIR=$work/cache

# A program of about $lines lines: types with methods, functions with loops, matches,
# string interpolation, lists and maps, and top-level code that calls all of it.
python3 - "$lines" >"$work/big.fitz" <<'PY'
import sys
target = int(sys.argv[1])
out = []
i = 0
while len(out) < target - 5:
    out += [
        f"type Rec{i} {{",
        f"    id: Int",
        f"    name: Str = \"r{i}\"",
        f"    tags: List<Str> = []",
        f"    fn score(k: Int) -> Int => id * k + {i}",
        f"    fn label() -> Str => \"{{name}}#{{id}}\"",
        f"}}",
        f"fn work{i}(n: Int) -> Int {{",
        f"    let total = 0",
        f"    let m: Map<Str, Int> = {{}}",
        f"    for j in 0..n {{",
        f"        let r = Rec{i} {{ id: j }}",
        f"        total += r.score(j % 7)",
        f"        m[\"k{{j % 5}}\"] = total",
        f"    }}",
        f"    let kind = match total % 3 {{",
        f"        0 => \"zero\"",
        f"        1 | 2 => \"other\"",
        f"        _ => \"never\"",
        f"    }}",
        f"    let xs = [x * 2 for x in 0..n if x % 2 == 0]",
        f"    return total + xs.len() + kind.len() + m.len()",
        f"}}",
    ]
    i += 1
out.append("let grand = 0")
for k in range(i):
    out.append(f"grand += work{k}(10)")
out.append("print(grand)")
print("\n".join(out))
PY
n=$(wc -l <"$work/big.fitz")
# Wall time and CPU time (user + sys, children included): on a loaded machine the CPU time is
# the steadier number.
timed() { /usr/bin/time -f "%e %U %S" -o "$work/t" "$@" >/dev/null; awk '{ printf "%.3f %.3f", $1, $2 + $3 }' "$work/t"; }
read -r cold_wall cold_cpu <<<"$(timed "$fitz" build "$work/big.fitz" -o "$work/big")"
read -r warm_wall warm_cpu <<<"$(timed "$fitz" build "$work/big.fitz" -o "$work/big")"
"$work/big" >/dev/null
echo "| program | cold build wall (s) | cold build CPU (s) | cached rebuild wall (s) | cached rebuild CPU (s) |"
echo "|---|---:|---:|---:|---:|"
printf '| generated, %d lines | %s | %s | %s | %s |\n' "$n" "$cold_wall" "$cold_cpu" "$warm_wall" "$warm_cpu"
