#!/usr/bin/env python3
"""Shows the differential driver can fail: with a stand-in fitz whose builds of some programs end
in an internal compiler error, drive.py must exit non-zero, count them, save them and name their
signature; and gen.py must write the same programs for the same seed."""

import argparse
import os
import re
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--drive", required=True)
    ap.add_argument("--gen", required=True)
    ap.add_argument("--stub", required=True)
    a = ap.parse_args()
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        fails = os.path.join(tmp, "failures")
        p = subprocess.run([sys.executable, a.drive, "30", "--seed", "7", "--fitz", a.stub, "--no-corpus",
                            "--failures", fails, "--batch", "4"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = p.stdout.decode()
        m = re.search(r"differential: 30 generated, 30 checked ok, (\d+) built ok, (\d+) internal errors", out)
        if p.returncode == 0:
            problems.append("drive.py exited 0 although builds failed")
        if not m:
            problems.append("no summary line in:\n" + out)
        else:
            built, ices = int(m.group(1)), int(m.group(2))
            if ices == 0 or built + ices != 30:
                problems.append("expected some of 30 programs to fail, got %d built and %d errors" % (built, ices))
            saved = [f for f in os.listdir(fails) if f.endswith(".txt")] if os.path.isdir(fails) else []
            if len(saved) != ices:
                problems.append("%d failures saved for %d internal errors" % (len(saved), ices))
        if "c++: stub failure" not in out:
            problems.append("the signature `c++: stub failure` is not reported:\n" + out)
        # Same seed, same programs.
        texts = []
        for d in ("a", "b"):
            outdir = os.path.join(tmp, d)
            subprocess.run([sys.executable, a.gen, "--seed", "11", "--count", "15", "--out", outdir], check=True)
            texts.append([open(os.path.join(outdir, f), encoding="utf-8").read() for f in sorted(os.listdir(outdir))])
        if texts[0] != texts[1]:
            problems.append("gen.py wrote different programs for the same seed")
    for pr in problems:
        print("FAIL: " + pr)
    print("differential selftest: %s" % ("ok" if not problems else "%d problem(s)" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
