"""The implementations `fitz bench` compares. Each knows how to build itself and how to start
one server process; one that cannot be built here is reported as unavailable with the reason."""
import hashlib
import os
import shutil
import subprocess

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APPS = os.path.join(BENCH, "apps")
SYSTEM_PYTHON = "/usr/bin/python3"  # Debian's, which has the python3-* packages


class Unavailable(Exception):
    pass


def dir_bytes(path: str) -> int:
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            p = os.path.join(root, f)
            if not os.path.islink(p):
                total += os.path.getsize(p)
    return total


class Impl:
    name = ""
    label = ""
    note = ""

    def prepare(self, ctx):
        """Builds or installs; raises Unavailable."""

    def command(self, ctx, port: int, db_url: str):
        """(argv, env, cwd) of one server process."""
        raise NotImplementedError

    def size_bytes(self, ctx) -> int:
        return 0

    def env(self, port, db_url, **extra):
        e = dict(os.environ)
        e.update({"PORT": str(port), "HOST": "127.0.0.1", "DATABASE_URL": db_url}, **extra)
        return e


class Fitz(Impl):
    def __init__(self, name="fitz", label="Fitz", folder="fitz", note="raw driver (db.connect, query with $n)"):
        self.name, self.label, self.folder = name, label, folder
        self.binary = None
        self.note = f"bench/apps/{folder}, compiled by `fitz build`: {note}; one HTTP thread per core"

    def prepare(self, ctx):
        app = os.path.join(APPS, self.folder)
        out = os.path.join(ctx.work, f"{self.folder}-app")
        r = subprocess.run([ctx.fitz, "build", app, "-o", out], capture_output=True, text=True)
        if r.returncode != 0:
            first = (r.stderr or r.stdout).strip().splitlines()
            raise Unavailable(f"`fitz build bench/apps/{self.folder}` failed: " + (first[0] if first else f"exit {r.returncode}"))
        self.binary = out

    def command(self, ctx, port, db_url):
        return [self.binary], self.env(port, db_url, FITZ_ACCESS_LOG="off"), ctx.work

    def size_bytes(self, ctx):
        return os.path.getsize(self.binary) if self.binary else 0


class FitzPython(Fitz):
    """The stack of the published tables' second column: a Fitz program whose storage is the Flask
    peer's SQLAlchemy code, called in-process through `from python import`."""

    def __init__(self):
        super().__init__("fitz-python", "Fitz + Python interop + SQLAlchemy", "fitz-python",
                         "handlers call SQLAlchemy (the Flask peer's models and queries) through `from python import`")

    def prepare(self, ctx):
        check = subprocess.run([SYSTEM_PYTHON, "-c", "import sys, sqlalchemy, psycopg2; print(sqlalchemy.__version__, sys.prefix)"],
                               capture_output=True, text=True)
        if check.returncode != 0:
            raise Unavailable("python3-sqlalchemy or python3-psycopg2 is not installed (scripts/install-deps.sh --bench)")
        version, self.home = check.stdout.split()
        super().prepare(ctx)
        self.note += f"; SQLAlchemy {version} (future=True) + psycopg2, pool 20+10; Python worker pool FITZ_PY_THREADS (default 2 x cores)"

    def command(self, ctx, port, db_url):
        argv, env, cwd = super().command(ctx, port, db_url)
        # The program finds python/bench_store.py through its project folder.
        env["FITZ_PROJECT_DIR"] = os.path.join(APPS, self.folder)
        # The embedded interpreter takes its home from the first python3 on PATH; when a runner
        # started from another Python (pyenv, a venv) put its own first, that home lacks the
        # Debian packages. The home of the interpreter the program links is Debian's.
        env["PYTHONHOME"] = self.home
        return argv, env, cwd


class CppBaseline(Impl):
    """A hand-written C++ server, built with the project: on the fitz runtime (what the language
    costs over writing the same program by hand) or on bare Beast (what the runtime costs)."""

    def __init__(self, name, label, target, note, args=()):
        self.name, self.label, self.target, self.note, self.args = name, label, target, note, list(args)

    def prepare(self, ctx):
        self.binary = os.path.join(ctx.build, "bin", self.target)
        if not os.path.exists(self.binary):
            raise Unavailable(f"{self.binary} is missing (run `make`)")

    def command(self, ctx, port, db_url):
        return [self.binary, *self.args], self.env(port, db_url, FITZ_HTTP_THREADS=str(ctx.cores)), ctx.work

    def size_bytes(self, ctx):
        return os.path.getsize(self.binary)


class Python(Impl):
    name, label = "python", "Python + SQLAlchemy"

    def __init__(self):
        self.note = ""

    def prepare(self, ctx):
        check = subprocess.run([SYSTEM_PYTHON, "-c", "import flask, sqlalchemy, psycopg2, gunicorn; print(sqlalchemy.__version__)"],
                               capture_output=True, text=True)
        if check.returncode != 0:
            raise Unavailable("python3-flask, python3-sqlalchemy, python3-psycopg2 or gunicorn is not installed "
                              "(scripts/install-deps.sh --bench)")
        self.workers = 2 * ctx.cores + 1
        self.note = (f"Flask + SQLAlchemy {check.stdout.strip()} ORM + psycopg2, gunicorn {self.workers} sync workers "
                     f"(2 x cores + 1), pool 20+10 per worker")

    def command(self, ctx, port, db_url):
        argv = [SYSTEM_PYTHON, "-m", "gunicorn", "-w", str(self.workers), "-k", "sync", "-b", f"127.0.0.1:{port}",
                "--log-level", "warning", "app:app"]
        return argv, self.env(port, db_url), os.path.join(APPS, "python")

    def size_bytes(self, ctx):
        return dir_bytes(os.path.join(APPS, "python"))


class NodeApp(Impl):
    def __init__(self, name, label, folder, note):
        self.name, self.label, self.folder, self.note = name, label, folder, note

    def prepare(self, ctx):
        if not shutil.which("node") or not shutil.which("npm"):
            raise Unavailable("node and npm are not installed")
        d = os.path.join(APPS, self.folder)
        if not os.path.isdir(os.path.join(d, "node_modules")):
            r = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=d, capture_output=True, text=True)
            if r.returncode != 0:
                raise Unavailable(f"npm ci in bench/apps/{self.folder} failed: {r.stderr.strip()[:200]}")

    def command(self, ctx, port, db_url):
        return ["node", "app.js"], self.env(port, db_url, WORKERS=str(ctx.cores)), os.path.join(APPS, self.folder)

    def size_bytes(self, ctx):
        return dir_bytes(os.path.join(APPS, self.folder))


def source_hash(folder: str) -> str:
    """Digest of every file under folder (names and contents), the key of a cached build."""
    h = hashlib.sha256()
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(root, f)
            h.update(os.path.relpath(p, folder).encode() + b"\0")
            with open(p, "rb") as fh:
                h.update(fh.read())
            h.update(b"\0")
    return h.hexdigest()[:16]


class Compiled(Impl):
    """A peer in a compiled language, built offline by Debian's own toolchain against Debian's
    packaged libraries. A build takes minutes, so the binary is kept in the build folder under
    the hash of its sources and rebuilt only when they change."""

    def __init__(self, name, label, folder, note):
        self.name, self.label, self.folder, self.note = name, label, folder, note
        self.binary = None

    def missing(self):
        """Why this toolchain cannot build here, or None."""
        return None

    def build(self, src, out_dir, binary):
        """Compiles src into binary (out_dir is this build's scratch folder); returns (ok, output)."""
        raise NotImplementedError

    def prepare(self, ctx):
        why = self.missing()
        if why:
            raise Unavailable(why)
        src = os.path.join(APPS, self.folder)
        cache = os.path.join(ctx.build, "bench-apps")
        out_dir = os.path.join(cache, f"{self.folder}-{source_hash(src)}")
        binary = os.path.join(out_dir, f"bench-{self.folder}")
        if not os.path.exists(binary):
            os.makedirs(out_dir, exist_ok=True)
            ok, output = self.build(src, cache, binary + ".tmp")
            if not ok:
                lines = [ln for ln in output.strip().splitlines() if ln.strip()]
                raise Unavailable(f"building bench/apps/{self.folder} failed: " + " / ".join(lines[-3:]))
            os.replace(binary + ".tmp", binary)
        self.binary = binary

    def command(self, ctx, port, db_url):
        return [self.binary], self.env(port, db_url), ctx.work

    def size_bytes(self, ctx):
        return os.path.getsize(self.binary) if self.binary else 0


GO = "/usr/bin/go"
GOCODE = "/usr/share/gocode"  # Debian's Go libraries (golang-*-dev)


class GoApp(Compiled):
    def __init__(self):
        super().__init__("go", "Go + net/http + pgx", "go",
                         "bench/apps/go: net/http, pgx v4 pool (10 connections per core, statements prepared "
                         "and cached per connection), encoding/json; GOMAXPROCS = cores")

    def missing(self):
        if not os.path.exists(GO):
            return "Go is not installed (golang-go)"
        if not os.path.isdir(os.path.join(GOCODE, "src", "github.com", "jackc", "pgx", "v4")):
            return "pgx v4 is not installed (golang-github-jackc-pgx-v4-dev)"
        return None

    def build(self, src, cache, binary):
        # GOPATH mode on Debian's packaged sources: no module download, nothing written in src.
        env = dict(os.environ, GO111MODULE="off", GOPATH=GOCODE, GOPROXY="off", GOFLAGS="",
                   GOCACHE=os.path.join(cache, "go-cache"))
        r = subprocess.run([GO, "build", "-o", binary, "."], cwd=src, env=env, capture_output=True, text=True)
        return r.returncode == 0, r.stderr + r.stdout


CARGO, RUSTC = "/usr/bin/cargo", "/usr/bin/rustc"  # Debian's, which read Debian's crate registry
CRATES = "/usr/share/cargo/registry"
CARGO_CONFIG = f"""[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "{CRATES}"
"""


class RustApp(Compiled):
    def __init__(self):
        super().__init__("rust", "Rust + hyper + tokio-postgres", "rust",
                         "bench/apps/rust: hyper 0.14 on tokio (one worker thread per core), tokio-postgres 0.7 "
                         "(2 pipelined connections per core, every statement prepared at start), serde_json")

    def missing(self):
        for tool, pkg in ((CARGO, "cargo"), (RUSTC, "rustc")):
            if not os.path.exists(tool):
                return f"{tool} is missing ({pkg})"
        if not os.path.isdir(CRATES) or not any(d.startswith("tokio-postgres-0.7") for d in os.listdir(CRATES)):
            return "tokio-postgres 0.7 is not in Debian's crate registry (librust-tokio-postgres-dev)"
        return None

    def build(self, src, cache, binary):
        # Cargo writes Cargo.lock beside Cargo.toml, so it builds a copy of the sources; the
        # target folder is shared between builds, so a changed main.rs recompiles only itself.
        copy = os.path.join(cache, "rust-src")
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(src, copy)
        home = os.path.join(cache, "cargo-home")
        os.makedirs(home, exist_ok=True)
        with open(os.path.join(home, "config.toml"), "w") as f:
            f.write(CARGO_CONFIG)
        target = os.path.join(cache, "rust-target")
        env = dict(os.environ, CARGO_HOME=home, RUSTC=RUSTC, CARGO_TARGET_DIR=target)
        r = subprocess.run([CARGO, "build", "--release", "--offline", "--quiet"], cwd=copy, env=env,
                           capture_output=True, text=True)
        if r.returncode != 0:
            return False, r.stderr + r.stdout
        shutil.copyfile(os.path.join(target, "release", "bench-rust"), binary)
        os.chmod(binary, 0o755)
        return True, ""


def all_impls():
    return [
        Fitz(),
        Fitz("fitz-orm", "Fitz ORM", "fitz-orm", "the typed ORM, each query one constant SQL string"),
        FitzPython(),
        Fitz("fitz-http", "Fitz (HTTP only)", "fitz-http", "the overhead suite's HTTP routes alone, no database"),
        CppBaseline("cpp", "C++ on the fitz runtime (hand-written)", "fitz_http_bench_app",
                    "bench/http/app.cpp: the same routes written by hand on fitz::http, access log off", ["--no-log"]),
        CppBaseline("beast", "C++ on bare Beast (hand-written)", "fitz_http_baseline",
                    "bench/http/baseline.cpp: Boost.Beast and Boost.JSON, C++20 coroutines"),
        Python(),
        NodeApp("node", "Node + Express + pg", "node-express", "Express 4 + pg (prepared statements), node:cluster, one process per core"),
        NodeApp("node-orm", "Node + Express + Sequelize", "node-sequelize", "Express 4 + Sequelize 6 ORM on pg, node:cluster, one process per core"),
        GoApp(),
        RustApp(),
    ]
