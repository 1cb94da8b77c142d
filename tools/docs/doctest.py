#!/usr/bin/env python3
"""Doc tests: checks every fenced ```fitz block of the Markdown pages under a docs folder.

Info strings (words after ```fitz, in any order):
  (nothing)        `fitz check` must report no error and no warning
  run              checked clean, then `fitz run`; the next fenced block must be ```output and
                   equals the program's standard output
  test             `fitz test` must pass; an ```output block right after it is compared too
  serve            checked clean, built, and started as an HTTP service (PORT set to a free
                   port); the next ```http block holds requests and their expected answers:
                   `METHOD /path [JSON body]`, optional `Name: value` request headers, then
                   the status, then the exact body (or nothing), separated by blank lines;
                   a body whose every line starts with `... ` lists text the body must contain
                   (pages whose markup carries a fresh token each time)
  orm              checked clean; the next ```output block equals `fitz check --dump=orm`
                   (the SQL of each ORM query)
  fail CODE...     `fitz check` must report each CODE (E0301, W0200, ...)
  lint CODE...     `fitz lint` must report each CODE (W1000, ...) and nothing that is an error
  file=PATH        the block is also written to PATH (imports of other blocks can then find it)
  dir=NAME         files of this block live in the sub-folder NAME of the page's folder
  project          run the command in the block's folder without a PATH (project mode)
  db               the program needs Postgres: it runs with DATABASE_URL set to
                   $FITZ_TEST_DATABASE_URL (scripts/run-tests.sh starts one); fails when unset
  --update rewrites each ```output block with what its program printed (review the diff).
A ```repl block is a `fitz repl` session: lines starting with `fitz> ` or `  ... ` are typed
(without the prompt), every other line is what the session must print, in order and exactly
(standard output and error together, without colour).
Blocks in other languages with file=PATH (```toml file=fitz.toml) are written and not checked.
A page's named files are all written before any block of that page is checked.
Every failure is reported as path:line of the block; the exit status is 1 when any failed.
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

CODE = re.compile(r"^[EW]\d{4}$")
FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
MODES = {"run", "test", "fail", "lint", "project", "db", "orm", "serve"}


class Block:
    def __init__(self, page, line, lang, words, text):
        self.page, self.line, self.lang, self.text = page, line, lang, text
        self.words, self.attrs = [], {}
        for w in words:
            if "=" in w:
                k, _, v = w.partition("=")
                self.attrs[k] = v
            else:
                self.words.append(w)
        self.output = None  # expected stdout (the ```output block that follows)
        self.output_lines = None  # (first, last) 0-based lines of that block's content
        self.end = None  # 0-based line of the closing fence

    def where(self):
        return f"{self.page}:{self.line}"


def parse_page(path, rel):
    """Returns (blocks, errors) of one Markdown page."""
    blocks, errors = [], []
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = len(m.group(1)), m.group(2), m.group(3).strip()
        start = i + 1
        body = []
        i += 1
        while i < len(lines):
            close = FENCE.match(lines[i])
            if close and close.group(2)[0] == fence[0] and len(close.group(2)) >= len(fence) \
                    and not close.group(3).strip():
                break
            body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
            i += 1
        else:
            errors.append(f"{rel}:{start}: fenced block is never closed")
            break
        words = info.split()
        lang = words[0] if words else ""
        blocks.append(Block(rel, start, lang, words[1:], "\n".join(body) + "\n" if body else ""))
        blocks[-1].end = i
        i += 1
    # Attach ```output blocks to the runnable block right before them.
    result = []
    for b in blocks:
        if b.lang == "http":
            prev = result[-1] if result else None
            if prev is None or prev.lang != "fitz" or "serve" not in prev.words or prev.output is not None:
                errors.append(f"{b.where()}: ```http block follows no ```fitz serve block")
            else:
                prev.output = b.text
            continue
        if b.lang == "output":
            prev = result[-1] if result else None
            if prev is None or prev.lang != "fitz" or not ({"run", "test", "orm"} & set(prev.words)) \
                    or prev.output is not None:
                errors.append(f"{b.where()}: ```output block follows no ```fitz run, test or orm block")
            else:
                prev.output = b.text
                prev.output_lines = (b.line, b.end)
            continue
        result.append(b)
    return result, errors


def diagnostics(out):
    found = []
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                found.append(json.loads(line))
            except ValueError:
                pass
    return found


def describe(diags):
    return "; ".join(f"{d.get('code')} {d.get('message')} at {d.get('file')}:"
                     f"{(d.get('span') or {}).get('start', {}).get('line')}" for d in diags)


class Runner:
    def __init__(self, fitz, timeout):
        self.fitz, self.timeout = fitz, timeout
        self.actual = {}  # block -> stdout, for --update
        self.counts = {"check": 0, "run": 0, "test": 0, "fail": 0, "lint": 0, "orm": 0, "serve": 0, "repl": 0}

    def call(self, args, cwd, env=None):
        try:
            p = subprocess.run([self.fitz] + args, cwd=cwd, capture_output=True, text=True,
                               timeout=self.timeout, env=env)
            return p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired:
            return None, "", f"timed out after {self.timeout} s"

    def serve(self, b, cwd, name):
        """Builds the service, starts it on a free port, replays the ```http exchanges."""
        binary = os.path.join(cwd, "service.bin")
        rc, out, err = self.call(["build", name, "-o", binary], cwd)
        if rc != 0:
            return f"`fitz build` exited {rc}: {(err or out).strip()[:2000]}"
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        env = dict(os.environ, PORT=str(port), HOST="127.0.0.1")
        proc = subprocess.Popen([binary], cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(200):  # up to 10 s for the listener
                try:
                    urllib.request.urlopen(base + "/healthz", timeout=1).read()
                    break
                except (urllib.error.URLError, ConnectionError, OSError):
                    if proc.poll() is not None:
                        return f"the service exited with {proc.returncode}: {proc.stderr.read()[:2000]}"
                    time.sleep(0.05)
            else:
                return "the service did not answer /healthz within 10 s"
            for chunk in [c for c in b.output.strip("\n").split("\n\n") if c.strip()]:
                lines = chunk.split("\n")
                if len(lines) < 2:
                    return f"http exchange needs a request line and a status: {chunk!r}"
                method, _, rest = lines[0].partition(" ")
                path, _, body = rest.partition(" ")
                req = urllib.request.Request(base + path, method=method,
                                             data=body.encode() if body else None)
                if body:
                    req.add_header("Content-Type", "application/json")
                while len(lines) > 2 and re.match(r"^[A-Za-z][A-Za-z0-9-]*: ", lines[1]):
                    name, _, value = lines.pop(1).partition(": ")
                    req.add_header(name, value)
                try:
                    with urllib.request.urlopen(req, timeout=10) as r:
                        status, got = r.status, r.read().decode()
                except urllib.error.HTTPError as e:
                    status, got = e.code, e.read().decode()
                want_body = "\n".join(lines[2:])
                parts = lines[2:]
                if parts and all(p.startswith("... ") for p in parts):
                    missing = [p[4:] for p in parts if p[4:] not in got]
                    if str(status) != lines[1].strip() or missing:
                        return (f"{lines[0]}: expected {lines[1].strip()} containing {missing!r}, "
                                f"got {status} {got[:2000]!r}")
                    continue
                # A blank line separates exchanges, so a body's final newline is not written.
                if str(status) != lines[1].strip() or got not in (want_body, want_body + "\n"):
                    return (f"{lines[0]}: expected {lines[1].strip()} {want_body!r}, "
                            f"got {status} {got!r}")
            return None
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def repl(self, b, cwd):
        """A ```repl transcript: its inputs are typed into `fitz repl`, its other lines compared."""
        self.counts["repl"] += 1
        inputs, expected = [], []
        for line in b.text.rstrip("\n").split("\n"):
            if line.startswith("fitz> ") or line.startswith("  ... "):
                inputs.append(line[6:])
            elif line.rstrip() in ("fitz>", "  ..."):
                inputs.append("")
            else:
                expected.append(line)
        if not inputs:
            return "a ```repl block needs `fitz> ` input lines"
        env = dict(os.environ, NO_COLOR="1", HOME=cwd)
        try:
            p = subprocess.run([self.fitz, "repl"], cwd=cwd, input="\n".join(inputs) + "\n", env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=self.timeout)
        except subprocess.TimeoutExpired:
            return f"`fitz repl` took longer than {self.timeout} s"
        got = p.stdout.rstrip("\n").split("\n") if p.stdout.strip() else []
        if p.returncode != 0:
            return f"`fitz repl` exited {p.returncode}: {p.stdout.strip()[:2000]}"
        if got != expected:
            return ("the session printed something else\n--- expected\n" + "\n".join(expected) +
                    "\n--- actual\n" + "\n".join(got)).rstrip()
        return None

    def check(self, b, cwd, target):
        rc, out, err = self.call(["check", "--format=json"] + target, cwd)
        return rc, diagnostics(out), err

    def run_block(self, b, pagedir):
        cwd = os.path.join(pagedir, b.attrs.get("dir", ""))
        os.makedirs(cwd, exist_ok=True)
        name = b.attrs.get("file", "example.fitz")
        path = os.path.join(cwd, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(b.text)
        target = [] if "project" in b.words else [name]
        unknown = [w for w in b.words if w not in MODES and not CODE.match(w)]
        if unknown:
            return f"unknown word(s) in the info string: {' '.join(unknown)}"
        if "fail" in b.words:
            self.counts["fail"] += 1
            want = [w for w in b.words if CODE.match(w)]
            if not want:
                return "`fail` needs the diagnostic code(s) the example must produce"
            rc, diags, err = self.check(b, cwd, target)
            got = {d.get("code") for d in diags}
            missing = [c for c in want if c not in got]
            if missing:
                return (f"expected {' '.join(missing)}, got "
                        f"{describe(diags) or 'no diagnostic'} {err.strip()}").strip()
            if any(c.startswith("E") for c in want) and rc != 1:
                return f"`fitz check` exited {rc}, expected 1"
            return None
        if "lint" in b.words:
            self.counts["lint"] += 1
            want = [w for w in b.words if CODE.match(w)]
            if not want:
                return "`lint` needs the lint code(s) the example must produce"
            rc, out, err = self.call(["lint", "--format=json"] + target, cwd)
            diags = diagnostics(out)
            missing = [c for c in want if c not in {d.get("code") for d in diags}]
            if missing:
                return (f"expected {' '.join(missing)} from `fitz lint`, got "
                        f"{describe(diags) or 'no diagnostic'} {err.strip()}").strip()
            if rc != 0:
                return f"`fitz lint` exited {rc}, expected 0 (warnings only)"
            return None
        rc, diags, err = self.check(b, cwd, target)
        if diags or rc != 0:
            return f"`fitz check` is not clean (exit {rc}): {describe(diags) or err.strip()}"
        if "serve" in b.words:
            self.counts["serve"] += 1
            if b.output is None:
                return "a `serve` block needs an ```http block right after it"
            return self.serve(b, cwd, name)
        if "orm" in b.words:
            self.counts["orm"] += 1
            if b.output is None:
                return "an `orm` block needs an ```output block right after it"
            rc, out, err = self.call(["check", "--dump=orm"] + target, cwd)
            if rc != 0:
                return f"`fitz check --dump=orm` exited {rc}: {(err or out).strip()[:2000]}"
            self.actual[b] = out
            if out != b.output:
                return ("SQL differs\n--- expected\n" + b.output + "--- actual\n" + out).rstrip()
            return None
        if "run" in b.words or "test" in b.words:
            cmd = "run" if "run" in b.words else "test"
            self.counts[cmd] += 1
            if cmd == "run" and b.output is None:
                return "a `run` block needs an ```output block right after it"
            env = None
            if "db" in b.words:
                url = os.environ.get("FITZ_TEST_DATABASE_URL", "")
                if not url:
                    return ("a `db` block needs FITZ_TEST_DATABASE_URL (bash scripts/pg-local.sh "
                            "start); scripts/run-tests.sh sets it")
                env = dict(os.environ, DATABASE_URL=url)
            rc, out, err = self.call([cmd] + target, cwd, env)
            if rc != 0:
                return f"`fitz {cmd}` exited {rc}: {(err or out).strip()[:2000]}"
            self.actual[b] = out
            if b.output is not None and out != b.output:
                return ("output differs\n--- expected\n" + b.output + "--- actual\n" + out).rstrip()
            return None
        self.counts["check"] += 1
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fitz", required=True, help="the fitz binary")
    ap.add_argument("--docs", required=True, help="the folder of Markdown pages")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per command")
    ap.add_argument("--update", action="store_true", help="rewrite ```output blocks")
    ap.add_argument("--keep", action="store_true", help="keep the work folder and print it")
    ap.add_argument("--extra", action="append", default=[],
                    help="another Markdown file to check (e.g. README.md); repeatable")
    ap.add_argument("pages", nargs="*", help="only these pages (relative to --docs)")
    a = ap.parse_args()

    fitz = os.path.abspath(a.fitz)
    docs = os.path.abspath(a.docs)
    pages = []
    for root, _, files in os.walk(docs):
        for f in files:
            if f.endswith(".md"):
                pages.append(os.path.relpath(os.path.join(root, f), docs))
    pages.sort()
    if a.pages:
        pages = [p for p in pages if p in a.pages]
    # (path on disk, name in reports); extra files are reported by their base name.
    pages = [(os.path.join(docs, p), os.path.join(os.path.basename(docs), p)) for p in pages]
    pages += [(os.path.abspath(e), os.path.basename(e)) for e in a.extra]
    work = tempfile.mkdtemp(prefix="fitz-doctest-")
    runner = Runner(fitz, a.timeout)
    failures = []
    try:
        for n, (page_path, rel) in enumerate(pages):
            blocks, errors = parse_page(page_path, rel)
            failures += errors
            updates = []
            pagedir = os.path.join(work, f"{n}_" + rel.replace(os.sep, "_"))
            os.makedirs(pagedir)
            for b in blocks:  # named files first, so imports and manifests resolve
                if "file" in b.attrs:
                    path = os.path.join(pagedir, b.attrs.get("dir", ""), b.attrs["file"])
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    with open(path, "w", encoding="utf-8") as f:
                        f.write(b.text)
            for b in blocks:
                if b.lang == "repl":
                    if problem := runner.repl(b, pagedir):
                        failures.append(f"{b.where()}: {problem}")
                    continue
                if b.lang != "fitz":
                    continue
                problem = runner.run_block(b, pagedir)
                if a.update and b in runner.actual and b.output_lines \
                        and runner.actual[b] != b.output:
                    updates.append((b.output_lines, runner.actual[b]))
                    continue
                if problem:
                    failures.append(f"{b.where()}: {problem}")
            if updates:
                lines = open(page_path, encoding="utf-8").read().split("\n")
                for (first, end), out in sorted(updates, reverse=True):
                    lines[first:end] = out.rstrip("\n").split("\n") if out else []
                with open(page_path, "w", encoding="utf-8") as f:
                    f.write("\n".join(lines))
                print(f"updated {len(updates)} output block(s) in {rel}")
    finally:
        if a.keep:
            print(f"work folder: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    c = runner.counts
    print(f"doc tests: {len(pages)} pages, {c['check']} checked, {c['run']} run, "
          f"{c['test']} tested, {c['serve']} served, {c['repl']} REPL sessions, {c['orm']} ORM dumps, {c['fail']} failing as expected, {c['lint']} linted, "
          f"{len(failures)} broken")
    for f in failures:
        print(f"{f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
