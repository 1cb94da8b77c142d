#!/usr/bin/env bash
# Configures the clang tree shared by the fuzz runs and the sanitizer stage (scripts/fuzz.sh,
# scripts/sanitize-tests.sh, scripts/run-tests.sh), unless DIR is configured already: libFuzzer
# coverage with ASan + UBSan (-DFITZ_FUZZ=ON), at -O1 with line tables, which builds quicker than
# -O2 -g and still names lines in reports. Only the fuzzed libraries keep -O1; the CMakeLists
# compile the rest of the tree at -O0 (FITZ_FUZZED_LIBRARIES). Further arguments go to cmake (run-tests.sh adds
# -DFITZ_UNITY_BUILD=ON). Usage: scripts/configure-sanitized.sh DIR [CMAKE-ARGS...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=$1
shift
[[ -f $dir/build.ninja ]] && exit 0
cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DFITZ_FUZZ=ON "$@" >/dev/null
