#!/usr/bin/env python3
"""Self-test of doctest.py: a page of correct blocks passes, and a page of broken blocks fails
with one report per broken block, each naming the page and the line of the block."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

# line of the block in testdata/broken.md -> words its report must contain
EXPECTED = {
    3: "not clean",
    7: "output differs",
    15: "needs an ```output block",
    19: "expected E0301",
    23: "needs the diagnostic code",
    27: "unknown word",
    31: "follows no",
    35: "`fitz test` exited 1",
    42: "expected W1001 from `fitz lint`",
}


def run(doctest, fitz, page_dir, page):
    work = tempfile.mkdtemp(prefix="fitz-doctest-self-")
    try:
        shutil.copy(os.path.join(page_dir, page), work)
        p = subprocess.run([sys.executable, doctest, "--fitz", fitz, "--docs", work],
                           capture_output=True, text=True, timeout=600)
        return p.returncode, p.stdout + p.stderr, os.path.basename(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fitz", required=True)
    ap.add_argument("--doctest", required=True)
    ap.add_argument("--cases", required=True)
    a = ap.parse_args()
    problems = []

    rc, out, _ = run(a.doctest, a.fitz, a.cases, "good.md")
    if rc != 0:
        problems.append(f"good.md: expected exit 0, got {rc}:\n{out}")

    rc, out, root = run(a.doctest, a.fitz, a.cases, "broken.md")
    if rc != 1:
        problems.append(f"broken.md: expected exit 1, got {rc}")
    reports = [l for l in out.splitlines() if l.startswith(f"{root}/broken.md:")]
    for line, words in EXPECTED.items():
        prefix = f"{root}/broken.md:{line}: "
        hits = [r for r in reports if r.startswith(prefix)]
        if not hits or words not in hits[0]:
            problems.append(f"broken.md:{line}: expected a report containing {words!r}")
    if len(reports) != len(EXPECTED):
        problems.append(f"broken.md: expected {len(EXPECTED)} reports, got {len(reports)}")
    if problems:
        print(out, file=sys.stderr)
        print("\n".join(problems), file=sys.stderr)
        return 1
    print(f"doctest self-test: {len(EXPECTED)} broken blocks reported, correct page passes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
