#!/usr/bin/env bash
# The Neovim recipe of docs/editors.md, run as written in a headless Neovim (Debian 12's 0.7):
# a file with a type error gets the checker's diagnostic (code, line, column) and a hover.
# The recipe is read from the docs, so the docs cannot drift from what works.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fitz=$(realpath "${1:-$root/build/bin/fitz}")
command -v nvim >/dev/null || { echo "neovim: nvim is not installed (scripts/install-deps.sh installs it)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The lua block after the marker comment.
awk '/<!-- neovim-0.7-recipe/ { found = 1; next } found && /^```lua/ { inside = 1; next }
     inside && /^```/ { exit } inside { print }' "$root/docs/editors.md" > "$work/init.lua"
[[ -s $work/init.lua ]] || { echo "neovim: no recipe found in docs/editors.md"; exit 1; }

cat > "$work/check.lua" <<'LUA'
local out = { "filetype " .. vim.bo.filetype }
local ok = vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local d = vim.diagnostic.get(0)[1]
if d then table.insert(out, string.format("diagnostic %d:%d %s %s", d.lnum + 1, d.col + 1, tostring(d.code), (d.message:gsub("\n", " ")))) end
local line, char = tonumber(os.getenv("FITZ_NVIM_HOVER_LINE") or "0"), tonumber(os.getenv("FITZ_NVIM_HOVER_CHAR") or "4")
local params = { textDocument = { uri = vim.uri_from_bufnr(0) }, position = { line = line, character = char } }
local res = vim.lsp.buf_request_sync(0, "textDocument/hover", params, 10000)
for _, r in pairs(res or {}) do
  if r.result and r.result.contents then table.insert(out, "hover " .. (r.result.contents.value or ""):gsub("\n", " ")) end
end
vim.fn.writefile(out, os.getenv("FITZ_NVIM_OUT"))
vim.cmd("qa!")
LUA
mkdir -p "$work/proj/src" "$work/bin"
printf '[package]\nname = "nv"\nversion = "0.1.0"\n' > "$work/proj/fitz.toml"
printf 'let total = 1\nlet bad: Int = "text"\n' > "$work/proj/src/main.fitz"
ln -s "$fitz" "$work/bin/fitz"  # the recipe runs `fitz` from PATH
cd "$work/proj/src"
PATH="$work/bin:$PATH" FITZ_NVIM_OUT="$work/out.txt" HOME="$work" XDG_CONFIG_HOME="$work/config" \
  timeout 90 nvim --headless -u "$work/init.lua" main.fitz -c "luafile $work/check.lua" </dev/null >/dev/null 2>&1
rc=$?
out=$(cat "$work/out.txt" 2>/dev/null)
fail=0
expect() { grep -qF -- "$1" <<<"$out" || { echo "neovim: expected '$1' (nvim exit $rc), got:"; echo "$out"; fail=1; }; }
expect "filetype fitz"
expect "diagnostic 2:16 E0300 \`bad\` declared as \`Int\` received a value of type \`Str\`"
expect 'hover ```fitz let total: Int ```'

# A live view: its template's unknown name, and a hover that says where a name comes from.
printf 'component Shelf {\n  state { count: Int = 0 }\n  <template><p>{cuont}</p></template>\n}\n' > Shelf.fitzv
rm -f "$work/out.txt"
PATH="$work/bin:$PATH" FITZ_NVIM_OUT="$work/out.txt" HOME="$work" XDG_CONFIG_HOME="$work/config" \
  FITZ_NVIM_HOVER_LINE=1 FITZ_NVIM_HOVER_CHAR=11 \
  timeout 90 nvim --headless -u "$work/init.lua" Shelf.fitzv -c "luafile $work/check.lua" </dev/null >/dev/null 2>&1
rc=$?
out=$(cat "$work/out.txt" 2>/dev/null)
expect "filetype fitzv"
expect "diagnostic 3:17 E0550 unknown variable \`cuont\`"
expect 'hover ```fitz count: Int ``` state field of `Shelf`'
((fail)) && exit 1
echo "neovim $(nvim --version | head -1 | cut -d' ' -f2): recipe from docs/editors.md works (diagnostics, hover; .fitz and .fitzv)"
