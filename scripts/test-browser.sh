#!/usr/bin/env bash
# Runs the real-browser tests of the live-view client (runtime/live/client/live.js): Debian's
# Chromium driven by playwright-core against a scripted WebSocket peer (tests/browser). Installs
# the npm packages from the committed lockfile first when node_modules does not match it.
#
#   scripts/test-browser.sh            # the whole suite (about 30 s)
#   scripts/test-browser.sh PATTERN    # only the tests whose name matches PATTERN
#
# FITZ_LIVE_TEST_SERVER=<path of fitz_live_test_server> also runs test/server.test.js against
# the real runtime (scripts/run-tests.sh passes the binary of its build dir); unset, those
# tests are skipped, so the script needs no build dir.
# FITZ_BIN=<path of fitz> also builds examples/live-views, tests/live/app and a project made by
# `fitz new --template liveviews` with it, and runs test/app.test.js and test/compiled.test.js
# (the acceptance examples against compiled apps); FITZ_LIVE_EXAMPLE / FITZ_LIVE_APP /
# FITZ_LIVE_TEMPLATE=<binary> run them on built ones.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir="$root/tests/browser"
chromium=${FITZ_CHROMIUM:-/usr/bin/chromium}

for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "test-browser.sh: $tool is not installed" >&2; exit 2; }
done
[[ -x $chromium ]] || { echo "test-browser.sh: no Chromium at $chromium (scripts/install-deps.sh installs Debian's chromium)" >&2; exit 2; }

# The tests run from tests/browser: a path relative to where this script was called must not break.
if [[ -n ${FITZ_LIVE_TEST_SERVER:-} ]]; then export FITZ_LIVE_TEST_SERVER=$(realpath -m "$FITZ_LIVE_TEST_SERVER"); fi
if [[ -n ${FITZ_BIN:-} && -z ${FITZ_LIVE_APP:-} ]]; then
  fitz_bin=$(realpath -m "$FITZ_BIN")
  app_dir=$(mktemp -d)
  trap 'rm -rf "$app_dir"' EXIT
  echo "==> tests/live/app, examples/live-views: fitz build"
  (cd "$root/tests/live/app" && "$fitz_bin" build -o "$app_dir/app")
  (cd "$root/examples/live-views" && "$fitz_bin" build -o "$app_dir/example")
  echo "==> fitz new --template liveviews: fitz build"
  (cd "$app_dir" && "$fitz_bin" new counter_app --template liveviews >/dev/null && cd counter_app && "$fitz_bin" build -o "$app_dir/template")
  export FITZ_LIVE_APP=$app_dir/app FITZ_LIVE_EXAMPLE=$app_dir/example FITZ_LIVE_TEMPLATE=$app_dir/template
fi
if [[ -n ${FITZ_LIVE_APP:-} ]]; then export FITZ_LIVE_APP=$(realpath -m "$FITZ_LIVE_APP"); fi
if [[ -n ${FITZ_LIVE_EXAMPLE:-} ]]; then export FITZ_LIVE_EXAMPLE=$(realpath -m "$FITZ_LIVE_EXAMPLE"); fi
if [[ -n ${FITZ_LIVE_TEMPLATE:-} ]]; then export FITZ_LIVE_TEMPLATE=$(realpath -m "$FITZ_LIVE_TEMPLATE"); fi
cd "$dir"
# The same stamp as scripts/install-deps.sh: the lockfile's hash and the node/npm that installed it.
stamp_file=node_modules/.fitz-install-stamp
stamp="$(sha256sum package-lock.json | cut -d' ' -f1) node-$(node --version) npm-$(npm --version)"
if [[ ! -f $stamp_file || "$(cat "$stamp_file")" != "$stamp" ]]; then
  echo "==> tests/browser: npm ci"
  npm ci --prefer-offline --no-audit --no-fund --loglevel=error
  printf '%s\n' "$stamp" > "$stamp_file"
fi

args=(--test --test-reporter=spec --test-concurrency=1)
if (($# > 0)); then args+=(--test-name-pattern="$1"); fi
echo "==> tests/browser: $("$chromium" --version 2>/dev/null || echo chromium)"
start=$(date +%s%N)
if [[ -n ${FITZ_LIVE_TEST_SERVER:-} && ! -x $FITZ_LIVE_TEST_SERVER ]]; then
  echo "test-browser.sh: FITZ_LIVE_TEST_SERVER=$FITZ_LIVE_TEST_SERVER is not an executable" >&2; exit 2
fi
FITZ_CHROMIUM=$chromium node "${args[@]}" test/
ms=$(( ($(date +%s%N) - start) / 1000000 ))
printf 'browser tests took %d.%01d s\n' $((ms / 1000)) $((ms % 1000 / 100))
