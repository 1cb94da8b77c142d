#!/usr/bin/env bash
# Fails when a phase after the checker reads decorators or route templates from the AST instead of
# the checker's answers (architecture decision 9: the service model in checker/service_model.h,
# FnInfo, FieldInfo). Scans codegen/, openapi/, lsp/, cli/, orm/ and tools/ for the ways a
# decorator is read; every remaining use must be listed in ALLOWED below with its reason.
# usage: tests/lint/no_decorator_reads.sh [REPO_ROOT]
set -uo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
cd "$root" || exit 2

# What reading a decorator (or a decorator-derived template) looks like in C++.
pattern='\.decorators\b|is_decorator\(|find_decorator\(|has_decorator\(|decorator_kwarg\(|decorator_first_positional\(|decorator_kind\(|parse_route_template\(|template_pieces\('

# file:reason. A file listed here may read decorators; anything else may not.
ALLOWED=(
  # Hover finds which registry entry (decorators.def) the decorator under the cursor is, to show
  # its documentation: identifying a decorator is not deciding a service fact.
  "lsp/features/hover.cpp:decorator hover through the registry (decorators.def)"
  # The ORM's table model is built by the checker (check_orm.cpp calls it while checking), by the
  # registry's kinds; codegen and the editor read the plans it leads to (checker/orm_plan.h).
  "orm/model.cpp:the checker's ORM table model, through the registry's kinds"
)

allowed() {
  local f=$1 entry
  for entry in "${ALLOWED[@]}"; do
    [[ ${entry%%:*} == "$f" ]] && return 0
  done
  return 1
}

status=0
hits=$(grep -rnE --include='*.cpp' --include='*.h' "$pattern" codegen openapi lsp cli orm tools 2>/dev/null)
while IFS= read -r hit; do
  [[ -z $hit ]] && continue
  file=${hit%%:*}
  if ! allowed "$file"; then
    echo "decorator read outside the checker: $hit" >&2
    status=1
  fi
done <<<"$hits"

# An allowlist entry whose file no longer reads decorators is stale: drop it.
for entry in "${ALLOWED[@]}"; do
  f=${entry%%:*}
  if ! grep -qE "$pattern" "$f" 2>/dev/null; then
    echo "stale allowlist entry (the file reads no decorator now): $f" >&2
    status=1
  fi
done

if [[ $status != 0 ]]; then
  echo "read the checker's answer instead: prog.service (checker/service_model.h), FnInfo or FieldInfo;" >&2
  echo "a fact the checker does not record yet belongs in the checker (see tests/lint/no_decorator_reads.sh)" >&2
fi
exit $status
