#!/usr/bin/env bash
# Installs the Debian packages fitz needs to build, test and run its demo, and the npm packages of
# tests/browser from their lockfile; nothing else.
# Idempotent: packages already present are left alone, so a second run takes about a second.
set -euo pipefail

# Build toolchain and libraries (see docs/building.md for what each is for).
PKGS=(
  build-essential cmake ninja-build pkg-config ccache git
  nlohmann-json3-dev libtree-sitter-dev libfmt-dev
  libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev
  llvm-14-dev zlib1g-dev libtinfo-dev libgtest-dev libgmock-dev libbenchmark-dev
  libssl-dev libcpp-jwt-dev libargon2-dev
  postgresql postgresql-client
  clang-14 libclang-rt-14-dev
  nodejs npm
  wrk
  # The peers of `fitz bench` (bench/apps/python); pgbench comes with the postgresql package.
  python3-flask python3-sqlalchemy python3-psycopg2 gunicorn
  # `from python import`: CPython embedded in programs that import Python (runtime/python).
  libpython3.11-dev
  # A real editor's LSP client for tests/editors/neovim.sh (Debian 12 ships Neovim 0.7).
  neovim
  # Validates `fitz openapi` output against the OpenAPI 3.1 schema (tests/e2e/openapi.sh).
  python3-jsonschema
  # `fitz deploy image` writes OCI images with umoci (no Docker daemon); tests/e2e/deploy_image.sh
  # inspects them with skopeo, which also pushes them to registries.
  umoci skopeo
  # tests/e2e/deploy_manifests.sh validates what `fitz deploy compose` writes: docker-compose
  # (`config` parses and checks a compose file without a daemon) and haproxy (`-c` checks the
  # load balancer's configuration).
  docker-compose haproxy
  # The SMTP server tests/e2e/smtp.sh sends mail to (plain, STARTTLS, implicit TLS, AUTH).
  python3-aiosmtpd
  # examples/python-pandas: statistics computed with pandas through `from python import`.
  python3-pandas
  # The compiled peers of `fitz bench` (bench/apps/go, bench/apps/rust), built offline from
  # Debian's Go packages and Debian's crate registry (/usr/share/cargo/registry).
  golang-go golang-github-jackc-pgx-v4-dev
  cargo rustc librust-hyper-dev librust-tokio-dev librust-tokio-postgres-dev librust-serde-json-dev
  # `fitz debug`: LLDB and its Debug Adapter Protocol server (lldb-vscode-14).
  lldb-14
  # The fastest linker Debian has, used by `fitz build` when present.
  mold
  # The real browser of tests/browser (the live-view client), driven by playwright-core; test
  # tools never download a browser of their own.
  chromium
)

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    # A package satisfied by another name (e.g. nodejs bundling npm) still counts as present
    # when its main binary is on PATH.
    case "$p" in
      npm) command -v npm >/dev/null 2>&1 && continue ;;
      nodejs) command -v node >/dev/null 2>&1 && continue ;;
    esac
    missing+=("$p")
  fi
done

if ((${#missing[@]} > 0)); then
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  # --no-upgrade keeps unrelated installed packages at their current versions.
  $SUDO apt-get install -y -qq --no-install-recommends --no-upgrade "${missing[@]}"
fi

# The npm packages of tests/browser, from its committed lockfile; skipped when node_modules was
# installed from this exact lockfile by this node/npm (the stamp test-extension.sh also uses).
browser_tests="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tests/browser"
stamp="$(sha256sum "$browser_tests/package-lock.json" | cut -d' ' -f1) node-$(node --version) npm-$(npm --version)"
if [[ "$(cat "$browser_tests/node_modules/.fitz-install-stamp" 2>/dev/null)" != "$stamp" ]]; then
  echo "install-deps: npm ci in tests/browser"
  (cd "$browser_tests" && npm ci --prefer-offline --no-audit --no-fund --loglevel=error)
  printf '%s\n' "$stamp" > "$browser_tests/node_modules/.fitz-install-stamp"
fi
