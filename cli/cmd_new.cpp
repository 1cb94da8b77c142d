// `fitz new`: scaffolds a project from one of the built-in templates (a small program, an
// in-memory HTTP service, a Postgres-backed service, one storing through SQLAlchemy, a
// command-line tool). The templates are embedded here so the binary needs no data files;
// `{{name}}` is the package name and `{{module}}` the name the tests import it by.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string_view>

#include "cli/driver.h"
#include "frontend/manifest.h"

namespace fs = std::filesystem;

namespace fitz::cli {

namespace {

constexpr const char* kNewUsage = R"fitz(usage: fitz new NAME [--template api|api-postgres|api-python|cli|liveviews] [--git]

Creates the directory NAME with a project: fitz.toml, src/main.fitz (the program), src/lib.fitz
(the package's code), tests/ with a passing test, .gitignore and a README. NAME (its last path
component) is the package name: a lower-case letter, then lower-case letters, digits, `_` or
`-`, at most 64 characters.

templates:
  (default)      a small program: `fitz run` prints a greeting
  api            an HTTP service keeping notes in memory
  api-postgres   an HTTP service keeping notes in Postgres (DATABASE_URL)
  api-python     the same with SQLAlchemy as its storage, through `from python import`
  cli            a command-line tool with arguments and flags (@command)
  liveviews      a web app with a live view (src/Counter.fitzv on `@live("/")`)

options:
  --template T   start from template T
  --git          also run `git init` in the new directory (when git is installed)
  -h, --help     show this help
)fitz";

struct TemplateFile {
  const char* path;
  const char* text;
};

constexpr const char* kManifest = R"fitz([package]
name = "{{name}}"
version = "0.1.0"
edition = "2026"

[bin]
main = "src/main.fitz"

[lib]
entry = "src/lib.fitz"
)fitz";

constexpr const char* kGitignore = R"fitz(# Build outputs
/target/
/src/main
)fitz";

constexpr const char* kReadmeCommands = R"fitz(
## Commands

    fitz run      # build and run src/main.fitz
    fitz test     # run the @test functions in tests/
    fitz check    # type-check every file of the project
    fitz fmt      # format the sources in place (fitz fmt --check in CI)

## Layout

- `fitz.toml`: the manifest (package name, the program under `[bin]`, the library under `[lib]`).
- `src/main.fitz`: the program.
- `src/lib.fitz`: the package's code; tests import it as `from {{module}} import ...`.
- `tests/`: test files; each `@test` function is one test.
)fitz";

// ---- default: a small program ------------------------------------------------------------------

constexpr const char* kProgramReadme = R"fitz(# {{name}}

A Fitz program: `fitz run` prints a greeting.
)fitz";

constexpr const char* kProgramMain = R"fitz(// The program: `fitz run` builds and runs this file.
from lib import greeting, shout

print(greeting("world"))
print(shout("fitz"))
)fitz";

constexpr const char* kProgramLib = R"fitz(// The package's code: src/main.fitz uses it and tests/ checks it.

// A greeting for `name`.
fn greeting(name: Str) -> Str {
    return "Hello, {name}!"
}

// `word` in capitals with an exclamation mark for each of its letters.
fn shout(word: Str) -> Str {
    let marks = ""
    for _ in 0..word.len() {
        marks += "!"
    }
    return "{word.upper()}{marks}"
}
)fitz";

constexpr const char* kProgramTest = R"fitz(from {{module}} import greeting, shout

@test
fn greets_by_name() {
    assert_eq(greeting("Ada"), "Hello, Ada!")
}

@test
fn shouts_one_mark_per_letter() {
    assert_eq(shout("hey"), "HEY!!!")
}
)fitz";

// ---- api: an in-memory HTTP service ------------------------------------------------------------

constexpr const char* kApiReadme = R"fitz(# {{name}}

A Fitz HTTP service that keeps notes in memory. `fitz run` serves it on 127.0.0.1:3000:

    curl -H 'Content-Type: application/json' -d '{"text": "buy milk"}' localhost:3000/notes
    curl localhost:3000/notes
    curl localhost:3000/notes/1
)fitz";

constexpr const char* kApiMain = R"fitz(// The HTTP service: routes over the notes of src/lib.fitz.
from lib import Note, add_note, find_note, all_notes, valid_text

let BAD_REQUEST = 400
let NOT_FOUND = 404

// The body of `POST /notes`.
type NewNote {
    text: Str
}

@get("/health")
fn health() {
    return {"status": "ok"}
}

@get("/notes")
fn list_notes() -> List<Note> {
    return all_notes()
}

@get("/notes/{id}")
fn get_note(id: Int) {
    return match find_note(id) {
        Ok(note) => note
        Err(_) => return NOT_FOUND {"error": "no note {id}"}
    }
}

@post("/notes")
fn create_note(body: NewNote) {
    if not valid_text(body.text) {
        return BAD_REQUEST {"error": "a note needs 1 to 500 characters"}
    }
    return 201 add_note(body.text)
}

@server(3000, "127.0.0.1")
fn main() => 0
)fitz";

constexpr const char* kApiLib = R"fitz(// The service's data: notes kept in memory, lost when the server stops.

type Note {
    id: Int
    text: Str
}

let notes: Map<Int, Note> = {}
let next_id = 1

fn add_note(text: Str) -> Note {
    let note = Note { id: next_id, text: text }
    notes[note.id] = note
    next_id += 1
    return note
}

fn find_note(id: Int) -> Result<Note> {
    return notes.get(id)
}

fn all_notes() -> List<Note> {
    return notes.values()
}

// Text that can be stored as a note: not blank, at most 500 characters.
fn valid_text(text: Str) -> Bool {
    return text.trim().len() > 0 and text.len() <= 500
}
)fitz";

constexpr const char* kApiTest = R"fitz(from {{module}} import add_note, find_note, valid_text

@test
fn finds_a_stored_note() {
    let note = add_note("buy milk")
    assert_eq(find_note(note.id), Ok(note))
}

@test
fn misses_an_unknown_note() {
    let found = match find_note(-1) {
        Ok(_) => true
        Err(_) => false
    }
    assert(not found, "there is no note -1")
}

@test
fn rejects_blank_text() {
    assert(not valid_text("   "))
}
)fitz";

// ---- api-postgres: an HTTP service over Postgres -----------------------------------------------

constexpr const char* kPgReadme = R"fitz(# {{name}}

A Fitz HTTP service that keeps notes in Postgres. Point `DATABASE_URL` at a database
(default `postgres://fitz:fitz@localhost:5432/fitz?sslmode=disable`); the table is created
at start-up. `fitz run` serves it on 127.0.0.1:3000:

    curl -H 'Content-Type: application/json' -d '{"text": "buy milk"}' localhost:3000/notes
    curl localhost:3000/notes
)fitz";

constexpr const char* kPgMain = R"fitz(// The HTTP service: routes over the notes table of src/lib.fitz.
from lib import Note, migrate, add_note, find_note, all_notes, valid_text

let BAD_REQUEST = 400
let NOT_FOUND = 404

// The body of `POST /notes`.
type NewNote {
    text: Str
}

@get("/health")
fn health() {
    return {"status": "ok"}
}

@get("/notes")
async fn list_notes() -> Result<List<Note>> {
    return all_notes().await
}

@get("/notes/{id}")
async fn get_note(id: Int) {
    let note = find_note(id).await?
    if note == null {
        return NOT_FOUND {"error": "no note {id}"}
    }
    return note
}

@post("/notes")
async fn create_note(body: NewNote) {
    if not valid_text(body.text) {
        return BAD_REQUEST {"error": "a note needs 1 to 500 characters"}
    }
    return 201 add_note(body.text).await?
}

migrate().await

@server(3000, "127.0.0.1")
fn main() => 0
)fitz";

constexpr const char* kPgLib = R"fitz(// Notes stored in Postgres. The connection URL comes from DATABASE_URL.

type Note {
    id: Int
    text: Str
}

fn database_url() -> Str {
    return env_or("DATABASE_URL", "postgres://fitz:fitz@localhost:5432/fitz?sslmode=disable")
}

// Creates the table on first use.
async fn migrate() -> Result<Int> {
    let conn = db.connect(database_url()).await?
    return conn.exec(
        "CREATE TABLE IF NOT EXISTS notes (id BIGSERIAL PRIMARY KEY, text TEXT NOT NULL)",
    ).await
}

fn note_from_row(row: DbRow) -> Result<Note> {
    return Ok(Note { id: row.get_int("id")?, text: row.get_str("text")? })
}

async fn add_note(text: Str) -> Result<Note> {
    let conn = db.connect(database_url()).await?
    let rows = conn.query("INSERT INTO notes (text) VALUES ($1) RETURNING id, text", [text]).await?
    return note_from_row(rows[0])
}

async fn find_note(id: Int) -> Result<Note?> {
    let conn = db.connect(database_url()).await?
    let rows = conn.query("SELECT id, text FROM notes WHERE id = $1", [id]).await?
    if rows.len() == 0 {
        return Ok(null)
    }
    return Ok(note_from_row(rows[0])?)
}

async fn all_notes() -> Result<List<Note>> {
    let conn = db.connect(database_url()).await?
    let rows = conn.query("SELECT id, text FROM notes ORDER BY id").await?
    let notes: List<Note> = []
    for row in rows {
        notes.push(note_from_row(row)?)
    }
    return Ok(notes)
}

// Text that can be stored as a note: not blank, at most 500 characters.
fn valid_text(text: Str) -> Bool {
    return text.trim().len() > 0 and text.len() <= 500
}
)fitz";

constexpr const char* kPgTest = R"fitz(from {{module}} import valid_text

@test
fn accepts_ordinary_text() {
    assert(valid_text("buy milk"))
}

@test
fn rejects_blank_text() {
    assert(not valid_text("   "))
}
)fitz";

constexpr const char* kPgGitignore = R"fitz(# Build outputs
/target/
/src/main

# Local settings (DATABASE_URL, secrets)
.env
)fitz";

// ---- api-python: an HTTP service whose storage is SQLAlchemy through Python interop -------------

constexpr const char* kPyReadme = R"fitz(# {{name}}

A Fitz HTTP service that keeps notes in Postgres through SQLAlchemy, called in-process with
`from python import notes_store` (the module is `python/notes_store.py`). It needs Python 3 with
SQLAlchemy and psycopg2 (Debian: `apt install python3-sqlalchemy python3-psycopg2`); a
virtualenv named by `VIRTUAL_ENV` is used when set. Point `DATABASE_URL` at a database (default
`postgres://fitz:fitz@localhost:5432/fitz`); the table is created at start-up. `fitz run`
serves it on 127.0.0.1:3000:

    curl -H 'Content-Type: application/json' -d '{"text": "buy milk"}' localhost:3000/notes
    curl localhost:3000/notes/1
)fitz";

constexpr const char* kPyMain = R"fitz(// The HTTP service: routes over the notes table, stored by python/notes_store.py (SQLAlchemy).
// Python values convert to `Note` where they meet the declared type; an exception is an Err.
from python import notes_store
from lib import Note, valid_text

let BAD_REQUEST = 400
let NOT_FOUND = 404

// The body of `POST /notes`.
type NewNote {
    text: Str
}

let DB = env_or("DATABASE_URL", "postgres://fitz:fitz@localhost:5432/fitz")
match notes_store.connect(DB) {
    Ok(_) => print("notes table ready")
    Err(e) => print("cannot prepare the database: {e}")
}

@get("/health")
fn health() {
    return {"status": "ok"}
}

@get("/notes?limit={limit}")
fn list_notes(limit: Int?) -> Result<List<Note>> {
    let n = 50
    if limit != null {
        n = limit
    }
    let notes: List<Note> = notes_store.page(n)?
    return Ok(notes)
}

@get("/notes/{id}")
fn get_note(id: Int) {
    let note: Note? = notes_store.get(id)?
    if note == null {
        return NOT_FOUND {"error": "no note {id}"}
    }
    return note
}

@post("/notes")
fn create_note(body: NewNote) {
    if not valid_text(body.text) {
        return BAD_REQUEST {"error": "a note needs 1 to 500 characters"}
    }
    let note: Note = notes_store.create(body.text)?
    return 201 note
}

@server(3000, "127.0.0.1")
fn main() => 0
)fitz";

constexpr const char* kPyLib = R"fitz(// What the service checks before it stores a note, apart from the routes so tests can call it.

type Note {
    id: Int
    text: Str
}

// Text that can be stored as a note: not blank, at most 500 characters.
fn valid_text(text: Str) -> Bool {
    return text.trim().len() > 0 and text.len() <= 500
}
)fitz";

constexpr const char* kPyStore = R"fitz(# Notes stored with SQLAlchemy (its 2.0-style API: `future=True` on 1.4) over psycopg2, called
# from Fitz through `from python import notes_store`. Rows go back as dicts, which convert to
# the Fitz type they are declared as.
from sqlalchemy import create_engine, text

_engine = None


def sqlalchemy_url(url):
    """postgres://... as SQLAlchemy names the psycopg2 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg2://" + url[len(prefix):]
    return url


def connect(url):
    """Opens the connection pool and creates the table when it is missing."""
    global _engine
    _engine = create_engine(sqlalchemy_url(url), future=True, pool_size=10, pool_pre_ping=True)
    with _engine.begin() as conn:
        conn.execute(text("CREATE TABLE IF NOT EXISTS notes (id bigserial PRIMARY KEY, text text NOT NULL)"))
    return True


def create(note_text):
    with _engine.begin() as conn:
        row = conn.execute(text("INSERT INTO notes (text) VALUES (:text) RETURNING id, text"), {"text": note_text})
        return dict(row.mappings().one())


def get(note_id):
    with _engine.connect() as conn:
        row = conn.execute(text("SELECT id, text FROM notes WHERE id = :id"), {"id": note_id}).mappings().first()
        return dict(row) if row else None


def page(limit):
    with _engine.connect() as conn:
        rows = conn.execute(text("SELECT id, text FROM notes ORDER BY id LIMIT :n"), {"n": limit})
        return [dict(r) for r in rows.mappings()]
)fitz";

constexpr const char* kPyTest = R"fitz(from {{module}} import valid_text
from python import notes_store

@test
fn accepts_ordinary_text() {
    assert(valid_text("buy milk"))
}

@test
fn rejects_blank_text() {
    assert(not valid_text("   "))
}

@test
fn names_the_psycopg2_driver() {
    match notes_store.sqlalchemy_url("postgres://u@db:5432/app") {
        Ok(v) => {
            let url: Str = v
            assert_eq(url, "postgresql+psycopg2://u@db:5432/app")
        }
        Err(e) => assert_eq(e, "no exception")
    }
}
)fitz";

// ---- cli: a command-line tool ------------------------------------------------------------------

constexpr const char* kCliReadme = R"fitz(# {{name}}

A Fitz command-line tool. The `@command` function's parameters are its arguments: those
without a default are positional, the others are `--flags`.

    fitz run -- hello --times 3 --sep ", "
    fitz run -- --help
)fitz";

constexpr const char* kCliMain = R"fitz(// The command line: `fitz run -- hello --times 3`.
from lib import repeat_words

// Prints TEXT several times.
@command
fn main(text: Str, times: Int = 2, sep: Str = " ") -> Int {
    print(repeat_words(text, times, sep))
    return 0
}
)fitz";

constexpr const char* kCliLib = R"fitz(// What the command does, apart from argument parsing so that tests can call it.

// `text` repeated `times` times, separated by `sep`.
fn repeat_words(text: Str, times: Int, sep: Str) -> Str {
    let out = ""
    for i in 0..times {
        if i > 0 {
            out += sep
        }
        out += text
    }
    return out
}
)fitz";

constexpr const char* kCliTest = R"fitz(from {{module}} import repeat_words

@test
fn repeats_with_a_separator() {
    assert_eq(repeat_words("hi", 3, "-"), "hi-hi-hi")
}

@test
fn zero_times_is_empty() {
    assert_eq(repeat_words("hi", 0, " "), "")
}
)fitz";

constexpr const char* kLiveReadme = R"fitz(# {{name}}

A Fitz web app with a live view. `fitz run` serves it on 127.0.0.1:3000: open it in a browser
and the counter updates over a WebSocket, rendered on the server (no JavaScript to write).

- `src/Counter.fitzv`: the component: its state, its events and its template.
- `src/main.fitz`: the `@live("/")` page that mounts it.

Set `FITZ_SECRET_KEY` in production: it keys the pages' join tokens.
)fitz";

constexpr const char* kLiveMain = R"fitz(// The page: `@live` mounts the Counter component on `/`; the function returns its props.
from Counter import Counter
from lib import first_count

@live("/", title="{{name}}")
fn home() -> Counter {
    return Counter { start: first_count() }
}
)fitz";

constexpr const char* kLiveCounter = R"fitz(// A live view: rendered on the server, kept live over one WebSocket per page.
component Counter {
  props { start: Int = 0 }
  state { count: Int = 0, step: Int = 1 }
  derived { label: Str = if (count == 1) { "1 click" } else { "{count} clicks" } }

  on mount { count = start }

  event add(n: Int) { count = count + n }
  event reset() { count = 0 }

  <template>
    <main class="counter">
      <h1>{label}</h1>
      <button id="add" @click="add(n: step)">+{step}</button>
      <button id="reset" @click="reset" disabled={count == 0}>reset</button>
      <label>step <input type="number" bind:value={step} /></label>
    </main>
  </template>

  <style scoped>
    .counter { font-family: sans-serif; display: grid; gap: 0.5rem; max-width: 20rem; }
    button { font-size: 1.25rem; }
  </style>
}
)fitz";

constexpr const char* kLiveLib = R"fitz(// The package's code: what the views and the tests share.

// Where the counter starts.
fn first_count() -> Int {
    return 0
}
)fitz";

constexpr const char* kLiveTest = R"fitz(from {{module}} import first_count

@test
fn counts_from_zero() {
    assert_eq(first_count(), 0)
}
)fitz";

struct Template {
  const char* name;
  const char* readme;
  const char* gitignore;
  std::vector<TemplateFile> files;  // besides fitz.toml, .gitignore and README.md
};

const std::vector<Template>& templates() {
  static const std::vector<Template> all = {
      {"default", kProgramReadme, kGitignore,
       {{"src/main.fitz", kProgramMain}, {"src/lib.fitz", kProgramLib}, {"tests/lib_test.fitz", kProgramTest}}},
      {"api", kApiReadme, kGitignore,
       {{"src/main.fitz", kApiMain}, {"src/lib.fitz", kApiLib}, {"tests/notes_test.fitz", kApiTest}}},
      {"api-postgres", kPgReadme, kPgGitignore,
       {{"src/main.fitz", kPgMain}, {"src/lib.fitz", kPgLib}, {"tests/notes_test.fitz", kPgTest}}},
      {"api-python", kPyReadme, kPgGitignore,
       {{"src/main.fitz", kPyMain},
        {"src/lib.fitz", kPyLib},
        {"python/notes_store.py", kPyStore},
        {"tests/notes_test.fitz", kPyTest}}},
      {"cli", kCliReadme, kGitignore,
       {{"src/main.fitz", kCliMain}, {"src/lib.fitz", kCliLib}, {"tests/words_test.fitz", kCliTest}}},
      {"liveviews", kLiveReadme, kGitignore,
       {{"src/main.fitz", kLiveMain},
        {"src/Counter.fitzv", kLiveCounter},
        {"src/lib.fitz", kLiveLib},
        {"tests/lib_test.fitz", kLiveTest}}},
  };
  return all;
}

std::string substitute(std::string_view text, const std::string& name, const std::string& module) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (text.substr(i).starts_with("{{name}}")) {
      out += name;
      i += 8;
    } else if (text.substr(i).starts_with("{{module}}")) {
      out += module;
      i += 10;
    } else {
      out += text[i++];
    }
  }
  return out;
}

// Runs `git init -q DIR` when git is on PATH; false when it is missing or fails.
bool git_init(const fs::path& dir) {
  pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    execlp("git", "git", "init", "-q", dir.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

int cmd_new(const std::vector<std::string>& args, Io io) {
  std::string target, template_name = "default";
  bool git = false;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    if (a == "-h" || a == "--help") {
      io.out << kNewUsage;
      return kOk;
    }
    if (a == "--template" && i + 1 < args.size()) {
      template_name = args[++i];
    } else if (a.starts_with("--template=")) {
      template_name = std::string(a.substr(11));
    } else if (a == "--git") {
      git = true;
    } else if (a.starts_with("-")) {
      io.err << "error: unknown option `" << a << "` for `fitz new`\n\n" << kNewUsage;
      return kUsageError;
    } else if (target.empty()) {
      target = std::string(a);
    } else {
      io.err << "error: `fitz new` takes one NAME\n";
      return kUsageError;
    }
  }
  if (target.empty()) {
    io.err << "error: `fitz new` needs a NAME\n\n" << kNewUsage;
    return kUsageError;
  }
  const Template* chosen = nullptr;
  for (const Template& t : templates())
    if (t.name == template_name) chosen = &t;
  if (!chosen) {
    io.err << "error: unknown template `" << template_name << "` (expected api, api-postgres, api-python, cli or liveviews)\n";
    return kUsageError;
  }

  fs::path dir = fs::path(target).lexically_normal();
  std::string name = dir.filename().string();
  if (name.empty()) name = dir.parent_path().filename().string();
  if (!frontend::is_valid_package_name(name)) {
    io.err << "error: `" << name << "` is not a valid package name: use a lower-case letter, then "
           << "lower-case letters, digits, `_` or `-` (at most 64 characters), e.g. `my_app`\n";
    return kUsageError;
  }
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    io.err << "error: `" << target << "` already exists; choose another name or remove it\n";
    return kUsageError;
  }
  std::string module = name;
  for (char& c : module)
    if (c == '-') c = '_';

  std::vector<TemplateFile> files = {{"fitz.toml", kManifest}, {".gitignore", chosen->gitignore}};
  files.insert(files.end(), chosen->files.begin(), chosen->files.end());
  std::string readme = std::string(chosen->readme) + kReadmeCommands;
  files.push_back({"README.md", readme.c_str()});

  for (const TemplateFile& f : files) {
    fs::path path = dir / f.path;
    fs::create_directories(path.parent_path(), ec);
    std::ofstream out(path, std::ios::binary);
    if (ec || !out || !(out << substitute(f.text, name, module))) {
      io.err << "error: cannot write `" << path.string() << "`\n";
      return kUsageError;
    }
  }
  if (git && !git_init(dir)) io.err << "warning: `git init` failed or git is not installed; skipped\n";

  io.out << "created `" << dir.string() << "` (template " << chosen->name << ")\n";
  io.out << "next: cd " << dir.string() << " && fitz run\n";
  return kOk;
}

}  // namespace fitz::cli
