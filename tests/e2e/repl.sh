#!/usr/bin/env bash
# `fitz repl` through a pseudo-terminal: prompts and continuation, values, functions, types and
# variables kept across inputs without re-running earlier inputs, errors, :type, :env, :load,
# :reset, Ctrl+C and the history file (tests/e2e/repl/drive.py).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fitz=$(realpath "${1:-$here/../../build/bin/fitz}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export FITZ_CACHE_DIR=$work/cache HOME=$work/home
mkdir -p "$HOME" "$work/session"
python3 "$here/repl/drive.py" "$fitz" "$work/session"
