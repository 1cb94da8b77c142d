#!/usr/bin/env python3
"""Self-test of reference_coverage.py: the committed reference passes, and a copy with one
command option, diagnostic, decorator, manifest key and environment variable removed fails
with one report for each."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

# page -> (text removed from it, words the report must contain)
CUTS = [
    ("cli.md", "`--title TITLE` (or `--title=TITLE`)", "option `--title` of `fitz openapi`"),
    ("diagnostics.md", "### E0301\n", "E0301 has no"),
    ("decorators.md", "### cron\n", "`@cron` has no"),
    ("fitz-toml.md", "| `license` |", "key `license`"),
    ("environment.md", "| `FITZ_CACHE_DIR` |", "`FITZ_CACHE_DIR`"),
]


def run(script, fitz, root, ref):
    p = subprocess.run([sys.executable, script, "--fitz", fitz, "--root", root, "--reference", ref],
                       capture_output=True, text=True, timeout=300)
    return p.returncode, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fitz", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--script", required=True)
    a = ap.parse_args()
    ref = os.path.join(a.root, "docs", "reference")
    problems = []
    rc, err = run(a.script, a.fitz, a.root, ref)
    if rc != 0:
        problems.append(f"the committed reference should pass:\n{err}")
    work = tempfile.mkdtemp(prefix="fitz-refcov-")
    try:
        cut_ref = os.path.join(work, "reference")
        shutil.copytree(ref, cut_ref)
        for page, text, _ in CUTS:
            path = os.path.join(cut_ref, page)
            content = open(path, encoding="utf-8").read()
            if text not in content:
                problems.append(f"{page}: the self-test's cut {text!r} is not in the page any more")
                continue
            open(path, "w", encoding="utf-8").write(content.replace(text, "", 1))
        rc, err = run(a.script, a.fitz, a.root, cut_ref)
        if rc != 1:
            problems.append(f"the cut reference should fail with exit 1, got {rc}")
        for page, _, words in CUTS:
            if not any(line.startswith(page) and words in line for line in err.splitlines()):
                problems.append(f"{page}: no report containing {words!r}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    print(f"reference coverage self-test: {len(CUTS)} removals reported, the committed pages pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
