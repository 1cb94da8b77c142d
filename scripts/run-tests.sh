#!/usr/bin/env bash
# Runs every test: the grammar (generated parser up to date, corpus tests), the unit and golden
# tests through ctest, and the bounded fuzz run. Called by `make test` after the build.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
cd "$root"

step() { printf '\n==> %s\n' "$*"; }

step "grammar: committed parser matches grammar.js"
bash scripts/regen-grammar.sh --check

step "grammar: tree-sitter corpus tests"
bash scripts/test-grammar.sh

step "unit and golden tests (ctest)"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"

if [[ -x scripts/fuzz-smoke.sh ]]; then
  step "fuzz: bounded run of the frontend fuzzer on the seed corpus"
  bash scripts/fuzz-smoke.sh
fi
