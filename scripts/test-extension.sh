#!/usr/bin/env bash
# Tests the VS Code extension without VS Code: installs its npm dependencies from the
# committed lockfile (skipped when node_modules already matches it), compiles it, runs its
# tests (grammar goldens, unit, manifest, activation with a fake vscode module, packaging),
# and packages the .vsix. Exits non-zero on any failure.
#
#   scripts/test-extension.sh              # what `make test` runs
#   scripts/test-extension.sh --with-lsp   # also the end-to-end test of `fitz lsp`
#                                          # ($FITZ_BIN, default build/bin/fitz)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ext="$root/vscode-extension"
with_lsp=0
for arg in "$@"; do
  case "$arg" in
    --with-lsp) with_lsp=1 ;;
    -h|--help) sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "test-extension.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done

step() { printf '\n==> %s\n' "$*"; }

for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "test-extension.sh: $tool is not installed" >&2; exit 2; }
done

cd "$ext"

# node_modules is current when it was installed from this exact lockfile by this node/npm.
stamp_file=node_modules/.fitz-install-stamp
stamp="$(sha256sum package-lock.json | cut -d' ' -f1) node-$(node --version) npm-$(npm --version)"
if [[ -f "$stamp_file" && "$(cat "$stamp_file")" == "$stamp" ]]; then
  step "extension: npm dependencies up to date (npm ci skipped)"
else
  step "extension: npm ci"
  start=$(date +%s%N)
  npm ci --no-audit --no-fund --loglevel=error
  printf '%s\n' "$stamp" > "$stamp_file"
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  printf 'npm ci took %d.%01d s\n' $((ms / 1000)) $((ms % 1000 / 100))
fi

step "extension: compile (tsc)"
npm run --silent compile

step "extension: tests"
npm test

if [[ $with_lsp == 1 ]]; then
  step "extension: language server end to end (${FITZ_BIN:-build/bin/fitz} lsp)"
  npm run --silent test:lsp
fi

step "extension: package the .vsix"
npm run --silent package
vsix=$(ls -t "$ext"/fitz-*.vsix | head -n 1)
printf 'packaged %s (%s KiB)\n' "${vsix#"$root"/}" "$(( $(stat -c %s "$vsix") / 1024 ))"
