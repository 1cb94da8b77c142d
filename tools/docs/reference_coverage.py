#!/usr/bin/env python3
"""Fails when something that exists is missing from docs/reference/: a command or option of
`fitz` (from its --help), a diagnostic code (frontend/diagnostic_kinds.def, each with an
example and a fix), a decorator or decorator option (checker/decorators.def), a
fitz.toml key (the manifest reader) or an environment variable read by the toolchain or the
runtime. The built-ins page is checked by fitz_builtin_doc --check."""
import argparse
import glob
import os
import re
import subprocess
import sys


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def sections(text, level):
    """Heading text -> body, for headings of exactly `level` hashes."""
    out, name, body = {}, None, []
    for line in text.split("\n"):
        m = re.match(r"^(#+) (.*)$", line)
        if m and len(m.group(1)) <= level:
            if name is not None:
                out[name] = "\n".join(body)
            name, body = (m.group(2).strip() if len(m.group(1)) == level else None), []
        else:
            body.append(line)
    if name is not None:
        out[name] = "\n".join(body)
    return out


def check_cli(fitz, ref, problems):
    page = read(os.path.join(ref, "cli.md"))
    secs = sections(page, 2)
    top = subprocess.run([fitz, "--help"], capture_output=True, text=True).stdout
    commands = re.findall(r"^  ([a-z]+)\b", top.split("commands:")[1].split("options:")[0], re.M)
    if not commands:
        problems.append("cli: could not read the commands from `fitz --help`")
    for opt in re.findall(r"(?<![\w-])(-{1,2}[A-Za-z][\w-]*)", top.split("options:")[1]):
        if f"`{opt}`" not in secs.get("Global options", ""):
            problems.append(f"cli.md: global option `{opt}` is not documented")
    for status in ("0", "1", "2", "3"):
        if not re.search(rf"^\| {status} \|", secs.get("Exit status", ""), re.M):
            problems.append(f"cli.md: exit status {status} is not documented")
    for cmd in commands:
        body = secs.get(f"fitz {cmd}")
        if body is None:
            problems.append(f"cli.md: command `fitz {cmd}` has no `## fitz {cmd}` section")
            continue
        p = subprocess.run([fitz, cmd, "--help"], capture_output=True, text=True, timeout=60,
                           stdin=subprocess.DEVNULL)
        if p.returncode != 0:
            continue  # a command that is not available yet; its section says so
        text = p.stdout
        if "options:" in text:
            text = text[text.index("options:"):]
        for opt in sorted(set(re.findall(r"(?<![\w-])(-{1,2}[A-Za-z][\w-]*)", text))):
            if f"`{opt}" not in body:
                problems.append(f"cli.md: option `{opt}` of `fitz {cmd}` is not documented")


def check_diagnostics(root, ref, problems):
    codes = re.findall(r'^DIAG\(\w+, "([EW]\d{4})"', read(os.path.join(root, "frontend/diagnostic_kinds.def")), re.M)
    secs = sections(read(os.path.join(ref, "diagnostics.md")), 3)
    for code in codes:
        body = secs.get(code)
        if body is None:
            problems.append(f"diagnostics.md: {code} has no `### {code}` section")
            continue
        if "```" not in body:
            problems.append(f"diagnostics.md: {code} has no example")
        if "**Fix:**" not in body:
            problems.append(f"diagnostics.md: {code} has no **Fix:** line")
        if "```fitz" in body and f"```fitz fail {code}" not in body and "```fitz fail" in body:
            problems.append(f"diagnostics.md: the example of {code} is marked with another code")


def check_decorators(root, ref, problems):
    src = read(os.path.join(root, "checker/decorators.def"))
    # DECORATOR(Kind, "name", places, min, max, first, ARGS(ARG("kw", ...), ...) | NO_ARGS | ANY_ARGS, ...
    rows = []
    for m in re.finditer(r'^DECORATOR\(\w+, "(\w+)",(.*?)(?=^DECORATOR\(|^#undef|\Z)', src, re.M | re.S):
        body = m.group(2)
        kwargs = re.findall(r'ARG\("(\w+)"', body)
        if re.search(r"\bANY_ARGS\b", body):
            kwargs.append("*")
        rows.append((m.group(1), kwargs))
    if not rows:
        problems.append("decorators: could not read the decorator registry checker/decorators.def")
    page = read(os.path.join(ref, "decorators.md"))
    secs = sections(page, 3)
    for name, kwargs in rows:
        if name not in secs:
            problems.append(f"decorators.md: `@{name}` has no `### {name}` section")
        row = re.search(rf"^\| \[`@{name}`\].*$", page, re.M)
        if not row:
            problems.append(f"decorators.md: `@{name}` is missing from the summary table")
            continue
        for kw in kwargs:
            if kw == "*":
                if "any" not in row.group(0):
                    problems.append(f"decorators.md: `@{name}` takes any option; the table does not say so")
            elif f"`{kw}=`" not in row.group(0):
                problems.append(f"decorators.md: option `{kw}=` of `@{name}` is not in the table")


def check_manifest(root, ref, problems):
    keys = set(re.findall(r'\b[ef]\.key == "(\w+)"', read(os.path.join(root, "frontend/manifest.cpp"))))
    keys |= set(re.findall(r'\{"(\w+)", &m\.\w+\}', read(os.path.join(root, "frontend/manifest.cpp"))))
    if not keys:
        problems.append("fitz-toml: could not read the keys of frontend/manifest.cpp")
    page = read(os.path.join(ref, "fitz-toml.md"))
    for key in sorted(keys):
        if f"`{key}`" not in page and f"[{key}]" not in page:
            problems.append(f"fitz-toml.md: key `{key}` is not documented")


def check_environment(root, ref, problems):
    names = set()
    for folder in ("cli", "codegen", "frontend", "checker", "lsp", "format", "runtime", "openapi", "orm"):
        for path in glob.glob(os.path.join(root, folder, "**", "*.*"), recursive=True):
            if path.endswith((".cpp", ".h")):
                text = read(path)
                names |= set(re.findall(r'getenv\("([A-Z_][A-Z0-9_]*)"\)', text))
                names |= set(re.findall(r'\benv_or\("([A-Z_][A-Z0-9_]*)"', text))
    page = read(os.path.join(ref, "environment.md"))
    for name in sorted(names):
        if not name.startswith("FITZ_TEST") and f"`{name}`" not in page:
            problems.append(f"environment.md: `{name}` is read by the code and not documented")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fitz", required=True)
    ap.add_argument("--root", required=True, help="the repository")
    ap.add_argument("--reference", help="the reference pages (default: ROOT/docs/reference)")
    a = ap.parse_args()
    ref = a.reference or os.path.join(a.root, "docs", "reference")
    problems = []
    check_cli(os.path.abspath(a.fitz), ref, problems)
    check_diagnostics(a.root, ref, problems)
    check_decorators(a.root, ref, problems)
    check_manifest(a.root, ref, problems)
    check_environment(a.root, ref, problems)
    for p in problems:
        print(p, file=sys.stderr)
    print(f"reference coverage: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
