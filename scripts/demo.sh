#!/usr/bin/env bash
# `make demo`: after the build, shows fitz on the example program: a clean check, a run, the AST,
# and the diagnostics for a program with mistakes.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(realpath "${1:-$root/build}")
fitz=$build/bin/fitz
cd "$root/examples/hello"

echo "==> fitz --version"
"$fitz" --version
echo
echo "==> fitz check main.fitz"
"$fitz" check main.fitz && echo "main.fitz: no errors"
echo
echo "==> fitz run main.fitz"
"$fitz" run main.fitz
echo
echo "==> fitz check --dump=ast main.fitz (first 15 lines)"
"$fitz" check --dump=ast main.fitz | head -n 15
echo
echo "==> fitz check broken.fitz (a program with mistakes; exit status 1 is expected)"
"$fitz" check broken.fitz
echo "exit status: $?"
exit 0
