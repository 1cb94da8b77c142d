#!/usr/bin/env bash
# The check => build differential test: generates N well-typed programs (gen.py), adds the
# repository's own programs, and fails when `fitz build` cannot compile one `fitz check` accepts.
# Usage: tests/differential/run.sh [N] [--seed S] [--fitz PATH] [--jobs J] [--minimize] [...]
# (`--help` lists every option; README.md beside this script says what it reports.)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec python3 "$here/drive.py" "$@"
