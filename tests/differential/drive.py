#!/usr/bin/env python3
"""The check => build differential test: every program `fitz check` accepts must compile.

Generates programs with gen.py, adds the repository's own corpora, runs `fitz check` on each and
`fitz build --syntax-only` on each accepted one, several at a time. Generated programs are built
together as modules of one program (each declaration a program may hold once, such as `@server`,
at most once per batch; programs with commands alone); a batch that fails is rebuilt one program
at a time to find the culprit. Internal compiler errors are saved with the output of
fitz (the C++ compiler's errors included) and grouped by their first error line.
See tests/differential/README.md.
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import gen  # noqa: E402

ICE_EXIT = 3


def run(argv, cwd=None, timeout=600, env=None):
    try:
        p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout, env=env)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return -1, "timed out after %d s" % timeout
    except OSError as e:  # e.g. fitz being relinked under a long run
        return -1, "cannot run %s: %s" % (argv[0], e)


class Case:
    """One program: a file, or a project directory (fitz.toml) or an entry file with modules beside it."""

    def __init__(self, name, path, origin, singletons=None, module=None):
        # singletons: the declarations the program holds that a program may hold once (a
        # batch takes each at most once); None: the program is built alone. module: its name
        # as a module of a batch.
        self.name, self.path, self.origin, self.singletons = name, path, origin, singletons
        self.module = module or name
        self.check_rc = None
        self.build_rc = None
        self.output = ""


def signature(output):
    """A short, stable name for an internal compiler error: its first error line, normalised."""
    m = re.search(r"cannot express (.*)", output)
    if m:
        return "unsupported: " + m.group(1).strip()
    if "did not compile" in output:
        for line in output.splitlines():
            if re.search(r"\berror:", line) and "internal compiler error" not in line:
                line = re.sub(r"^.*?error:\s*", "", line)
                line = re.sub(r"\b[0-9a-f]{32}\b", "H", line)
                line = re.sub(r"\b(t|v|fz|_q|_w|arg|tmp)_?\d+\b", r"\1N", line)
                return "c++: " + line.strip()[:240]
        return "c++: (no error line)"
    m = re.search(r"internal compiler error:?(.*)", output)
    if m:
        return "ice: " + m.group(1).strip()[:240]
    return "exit status: " + output.strip().splitlines()[-1][:200] if output.strip() else "exit status"


def fitz_location(output):
    """The Fitz source position the C++ error maps back to (`file.fitz:L:C: required from here`)."""
    m = re.search(r"([\w./-]+\.fitz:\d+:\d+):\s+required from here", output)
    if m:
        return m.group(1)
    m = re.search(r"([\w./-]+\.fitz:\d+:\d+):\s+error", output)
    return m.group(1) if m else ""


class Driver:
    def __init__(self, args):
        self.a = args
        self.fitz = os.path.abspath(args.fitz)
        self.work = tempfile.mkdtemp(prefix="fitz-differential-")
        self.env = dict(os.environ)
        self.env["FITZ_CACHE_DIR"] = os.path.abspath(args.cache) if args.cache else os.path.join(self.work, "cache")
        self.known = self.load_known()
        self.split_batches = 0

    def load_known(self):
        """Signatures of internal compiler errors recorded in known/ (each file says `// signature: ...`)."""
        out = []
        d = os.path.join(HERE, "known")
        if not os.path.isdir(d):
            return out
        for f in sorted(os.listdir(d)):
            if not f.endswith(".fitz"):
                continue
            with open(os.path.join(d, f), encoding="utf-8") as fh:
                for line in fh:
                    m = re.match(r"//\s*signature:\s*(.+)", line)
                    if m:
                        out.append((m.group(1).strip(), f))
        return out

    def known_for(self, sig):
        for s, f in self.known:
            if s in sig:
                return f
        return None

    # ---- the programs ----------------------------------------------------------------------

    def generated(self):
        out = os.path.join(self.work, "gen")
        os.makedirs(out)
        cases = []
        for i in range(self.a.count):
            kind, text, singletons = gen.generate(self.a.seed, i)
            name = "s%d_p%05d" % (self.a.seed, i)
            path = os.path.join(out, name + ".fitz")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            cases.append(Case(name, path, "generated:" + kind, None if "commands" in singletons else set(singletons)))
        return cases

    def split_multifile(self, src, dest):
        """tests/testdata/run cases may hold several files after `// --- file: NAME` markers."""
        with open(src, encoding="utf-8") as f:
            lines = f.readlines()
        if not lines or not lines[0].startswith("// --- file: "):
            return None
        entry, cur = None, None
        for line in lines:
            if line.startswith("// --- file: "):
                rel = line.split()[3]
                entry = entry or rel
                p = os.path.join(dest, rel)
                os.makedirs(os.path.dirname(p), exist_ok=True)
                cur = open(p, "w", encoding="utf-8")
                continue
            if cur:
                cur.write(line)
        return os.path.join(dest, entry)

    def corpus(self):
        cases = []

        def add(name, path, origin, singletons=None):
            cases.append(Case(name, path, origin, singletons, module="corpus%d" % len(cases)))

        # Every program of the golden suites, `fail_` ones too: those check rejects are not
        # counted, and one it accepts (a run-time failure, say) must compile like any other.
        suites = ["check", "run", "orm", "tir", "syntax", "ast", "openapi", "modules"]
        files = []
        for sub in ["tests/testdata/" + s for s in suites] + ["tests/differential/regressions"]:
            d = os.path.join(ROOT, sub)
            if os.path.isdir(d):
                files += [(sub, f) for f in sorted(os.listdir(d)) if f.endswith(".fitz")]
        for sub, f in files:
            src = os.path.join(ROOT, sub, f)
            name = "%s/%s" % (sub, f[:-5])
            split = self.split_multifile(src, os.path.join(self.work, "corpus", sub, f[:-5]))
            add(name, split or src, "corpus", None if split else self.batch_kind(src))
        # Multi-module cases (a folder with main.fitz, or a project with fitz.toml) and the
        # single-file example.
        for suite in suites:
            d = os.path.join(ROOT, "tests/testdata", suite)
            for p in sorted(os.listdir(d)) if os.path.isdir(d) else []:
                case = os.path.join(d, p)
                if os.path.isfile(os.path.join(case, "fitz.toml")):
                    add("tests/testdata/%s/%s" % (suite, p), case, "corpus")
                elif os.path.isfile(os.path.join(case, "main.fitz")):
                    add("tests/testdata/%s/%s/main.fitz" % (suite, p), os.path.join(case, "main.fitz"), "corpus")
        if os.path.isfile(os.path.join(ROOT, "examples/hello/main.fitz")):
            add("examples/hello/main.fitz", os.path.join(ROOT, "examples/hello/main.fitz"), "corpus")
        for base in ["examples", "bench/apps"]:
            d = os.path.join(ROOT, base)
            for p in sorted(os.listdir(d)) if os.path.isdir(d) else []:
                if os.path.isfile(os.path.join(d, p, "fitz.toml")):
                    add("%s/%s" % (base, p), os.path.join(d, p), "corpus")
        e2e = os.path.join(ROOT, "tests/e2e")
        for dirpath, _, fnames in sorted(os.walk(e2e)):
            if os.path.isfile(os.path.join(dirpath, "fitz.toml")):
                add(os.path.relpath(dirpath, ROOT), dirpath, "corpus")
                continue
            if any(os.path.isfile(os.path.join(p, "fitz.toml")) for p in self.parents(dirpath, e2e)):
                continue
            for f in sorted(fnames):
                if f.endswith(".fitz"):
                    add(os.path.relpath(os.path.join(dirpath, f), ROOT)[:-5], os.path.join(dirpath, f), "corpus")
        return cases

    @staticmethod
    def batch_kind(path):
        """A corpus file joins batches when it is core code alone: no imports (their paths are
        relative to the file) and no declaration that registers with the program."""
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if re.search(r"^\s*(import|from)\s", text, re.M):
            return None
        if re.search(r"@(get|post|put|patch|delete|ws|server|auth_provider|healthz|readyz|command|cron|background|table)\b", text):
            return None
        return set()

    @staticmethod
    def parents(d, stop):
        while d.startswith(stop) and d != stop:
            yield d
            d = os.path.dirname(d)

    # ---- check and build -------------------------------------------------------------------

    def target_args(self, case):
        # A project directory is built from inside it; a file by its path.
        if os.path.isdir(case.path):
            return case.path, []
        return os.path.dirname(case.path), [os.path.basename(case.path)]

    def check(self, case):
        cwd, arg = self.target_args(case)
        case.check_rc, out = run([self.fitz, "check"] + arg, cwd=cwd, timeout=120, env=self.env)
        if case.check_rc != 0:
            case.output = out

    def build(self, case):
        cwd, arg = self.target_args(case)
        case.build_rc, out = run([self.fitz, "build", "--syntax-only"] + arg, cwd=cwd, timeout=600, env=self.env)
        if case.build_rc != 0:
            case.output = out

    def build_batch(self, batch):
        """Core programs as modules of one program; on failure, each alone."""
        if len(batch) == 1:
            self.build(batch[0])
            return
        d = tempfile.mkdtemp(prefix="batch-", dir=self.work)
        lines = []
        for c in batch:
            shutil.copy(c.path, os.path.join(d, c.module + ".fitz"))
            lines.append("import %s" % c.module)
        with open(os.path.join(d, "main.fitz"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        rc, _ = run([self.fitz, "build", "--syntax-only", "main.fitz"], cwd=d, timeout=900, env=self.env)
        if rc == 0:
            for c in batch:
                c.build_rc = 0
            return
        self.split_batches += 1
        for c in batch:
            self.build(c)

    def process(self, cases, jobs):
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
            list(ex.map(self.check, cases))
        accepted = [c for c in cases if c.check_rc == 0]
        singles = [c for c in accepted if c.singletons is None]
        size = max(1, self.a.batch)
        batches = []  # [(cases, singletons taken)]
        for c in accepted:
            if c.singletons is None:
                continue
            for b in batches:
                if len(b[0]) < size and not (b[1] & c.singletons):
                    b[0].append(c)
                    b[1].update(c.singletons)
                    break
            else:
                batches.append(([c], set(c.singletons)))
        batches = [b[0] for b in batches]
        # Biggest work first so the pool ends together.
        work = [("batch", b) for b in batches] + [("single", c) for c in singles]
        t0 = time.time()
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
            futs = [ex.submit(self.build_batch, w) if k == "batch" else ex.submit(self.build, w) for k, w in work]
            for i, f in enumerate(concurrent.futures.as_completed(futs), 1):
                f.result()
                if self.a.progress and i % self.a.progress == 0:
                    print("  built %d of %d units (%.0f s)" % (i, len(work), time.time() - t0), file=sys.stderr, flush=True)

    # ---- failures --------------------------------------------------------------------------

    def minimize(self, case):
        """Drops top-level items (blank-line separated) while the same error remains; cheap and greedy."""
        if os.path.isdir(case.path):
            return None
        with open(case.path, encoding="utf-8") as f:
            blocks = f.read().split("\n\n")
        sig = signature(case.output)
        d = tempfile.mkdtemp(prefix="min-", dir=self.work)
        trial_path = os.path.join(d, os.path.basename(case.path))
        i = 0
        budget = 60
        while i < len(blocks) and budget > 0:
            trial = blocks[:i] + blocks[i + 1:]
            with open(trial_path, "w", encoding="utf-8") as f:
                f.write("\n\n".join(trial))
            budget -= 1
            rc, _ = run([self.fitz, "check", os.path.basename(trial_path)], cwd=d, timeout=60, env=self.env)
            if rc == 0:
                rc, out = run([self.fitz, "build", "--syntax-only", os.path.basename(trial_path)], cwd=d, timeout=300, env=self.env)
                if rc != 0 and signature(out) == sig:
                    blocks = trial
                    continue
            i += 1
        return "\n\n".join(blocks)

    def save_failure(self, case, outdir, minimize):
        base = os.path.join(outdir, case.name.replace("/", "__"))
        if os.path.isdir(case.path):
            shutil.copytree(case.path, base, dirs_exist_ok=True)
        elif case.origin == "corpus" and os.path.dirname(case.path) != os.path.join(ROOT, os.path.dirname(case.name)):
            shutil.copytree(os.path.dirname(case.path), base, dirs_exist_ok=True)
        else:
            shutil.copy(case.path, base + ".fitz")
        with open(base + ".txt", "w", encoding="utf-8") as f:
            f.write("origin: %s\nsource: %s\nsignature: %s\n\n%s" % (case.origin, case.path, signature(case.output), case.output))
        if minimize:
            small = self.minimize(case)
            if small is not None:
                with open(base + ".min.fitz", "w", encoding="utf-8") as f:
                    f.write(small)

    def report(self, cases, label):
        checked = [c for c in cases if c.check_rc == 0]
        built = [c for c in checked if c.build_rc == 0]
        ices = [c for c in checked if c.build_rc not in (0, None)]
        return checked, built, ices

    def main(self):
        t0 = time.time()
        gen_cases = self.generated() if self.a.count > 0 else []
        corpus = self.corpus() if self.a.corpus else []
        self.process(gen_cases + corpus, self.a.jobs)
        g_checked, g_built, g_ices = self.report(gen_cases, "generated")
        c_checked, c_built, c_ices = self.report(corpus, "corpus")
        rejected = [c for c in gen_cases if c.check_rc != 0]
        outdir = os.path.abspath(self.a.failures)
        new_ices, known_ices, by_sig = [], [], {}
        for c in g_ices + c_ices:
            sig = signature(c.output)
            by_sig.setdefault(sig, []).append(c)
            (known_ices if self.known_for(sig) else new_ices).append(c)
        if rejected or g_ices or c_ices:
            os.makedirs(outdir, exist_ok=True)
        minimized = set()
        for c in g_ices + c_ices:
            sig = signature(c.output)
            first = sig not in minimized
            minimized.add(sig)
            self.save_failure(c, outdir, self.a.minimize and first and c in new_ices)
        for c in rejected:
            base = os.path.join(outdir, "rejected__" + c.name)
            shutil.copy(c.path, base + ".fitz")
            with open(base + ".txt", "w", encoding="utf-8") as f:
                f.write(c.output)
        if by_sig:
            print("internal compiler errors by signature:")
            for sig, cs in sorted(by_sig.items(), key=lambda kv: -len(kv[1])):
                k = self.known_for(sig)
                print("  %4d  %s%s" % (len(cs), sig, "  [known: %s]" % k if k else ""))
                print("        e.g. %s %s" % (cs[0].name, fitz_location(cs[0].output)))
        if rejected:
            print("generated programs fitz check rejected (generator or checker bugs):")
            for c in rejected[:20]:
                first = next((l for l in c.output.splitlines() if "error[" in l), c.output.strip()[:200])
                print("  %s: %s" % (c.name, first))
        if g_ices or c_ices or rejected:
            print("failures saved in %s" % outdir)
        if self.split_batches:
            print("%d batch builds failed and were rebuilt one program at a time" % self.split_batches)
        if corpus:
            print("corpus: %d programs, %d checked ok, %d built ok, %d internal errors" %
                  (len(corpus), len(c_checked), len(c_built), len(c_ices)))
        known_note = " (%d of them known, see tests/differential/known/)" % len(known_ices) if known_ices else ""
        print("differential: %d generated, %d checked ok, %d built ok, %d internal errors%s  [%.0f s]" %
              (len(gen_cases), len(g_checked), len(g_built), len(g_ices), known_note, time.time() - t0))
        if not self.a.keep:
            shutil.rmtree(self.work, ignore_errors=True)
        else:
            print("work directory kept: %s" % self.work)
        status = 0
        if new_ices:
            status = 1
        max_rejected = self.a.max_rejected / 100.0 * max(1, len(gen_cases))
        if len(rejected) > max_rejected:
            print("differential: %d generated programs were rejected by fitz check (at most %.1f%% allowed)" %
                  (len(rejected), self.a.max_rejected))
            status = 1
        return status


def main():
    ap = argparse.ArgumentParser(description="check => build differential test")
    ap.add_argument("count", type=int, nargs="?", default=200, help="how many programs to generate")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fitz", default=os.path.join(ROOT, "build", "bin", "fitz"))
    ap.add_argument("--jobs", type=int, default=2, help="programs checked and built at once (default 2)")
    ap.add_argument("--batch", type=int, default=8, help="generated programs per batch build (default 8)")
    ap.add_argument("--no-corpus", dest="corpus", action="store_false", help="skip the repository's programs")
    ap.add_argument("--failures", default="differential-failures", help="where failing programs are saved")
    ap.add_argument("--minimize", action="store_true", help="shrink the first program of each new ICE signature")
    ap.add_argument("--max-rejected", type=float, default=2.0,
                    help="percent of generated programs fitz check may reject before the run fails (default 2)")
    ap.add_argument("--cache", help="FITZ_CACHE_DIR for the builds (default: a fresh one, removed afterwards)")
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("--progress", type=int, default=0, metavar="K", help="report on stderr every K builds")
    args = ap.parse_args()
    if not os.access(args.fitz, os.X_OK):
        print("differential: no fitz at %s (use --fitz PATH)" % args.fitz, file=sys.stderr)
        return 2
    return Driver(args).main()


if __name__ == "__main__":
    sys.exit(main())
