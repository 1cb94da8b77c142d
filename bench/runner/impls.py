"""The implementations `fitz bench` compares. Each knows how to build itself and how to start
one server process; one that cannot be built here is reported as unavailable with the reason."""
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
    ]
