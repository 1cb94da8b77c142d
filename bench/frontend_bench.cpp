// Frontend throughput on a generated 100,000-line program: tree-sitter parse (and its freeing),
// parse+lower (in pieces on every core, and on one thread), lowering alone and a bare cursor walk over the tree; and the latency of an
// incremental reparse after a one-character edit in a 5,000-line file.
// Usage: fitz_bench_frontend [lines]   (prints one line per measurement)
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "frontend/lower.h"
#include "frontend/piece_parse.h"
#include "frontend/syntax_tree.h"

using namespace fitz::frontend;

namespace {

// One unit of typical code: a type with methods, a function with loops, a match, string
// interpolation, comprehensions, calls, and some top-level statements. Names carry `i` so
// that units do not collide.
std::string unit(int i) {
  std::string n = std::to_string(i);
  return std::string("// unit ") + n + ": a type, a function and some top-level code\n"
         "type Point" + n + " {\n"
         "    x: Int\n"
         "    y: Int = 0\n"
         "    label: Str?\n"
         "\n"
         "    fn dist(other: Point" + n + ") -> Int => (x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)\n"
         "\n"
         "    static fn origin() -> Point" + n + " {\n"
         "        return Point" + n + " { x: 0, y: 0, label: \"origin\" }\n"
         "    }\n"
         "}\n"
         "\n"
         "fn compute_" + n + "(n: Int, scale: Float = 1.5) -> Int {\n"
         "    let total = 0\n"
         "    for k in 0..n {\n"
         "        if k % 3 == 0 {\n"
         "            total += k * 2\n"
         "        } else if k % 5 == 0 {\n"
         "            total -= 1\n"
         "        } else {\n"
         "            continue\n"
         "        }\n"
         "    }\n"
         "    let words = [\"alpha\", \"beta\", \"gamma\"]\n"
         "    let lengths = [w.len() for w in words if w != \"beta\"]\n"
         "    let label = match total {\n"
         "        0 => \"zero\"\n"
         "        1..=9 => \"small\"\n"
         "        m if m > 1000 => \"huge {m}\"\n"
         "        _ => \"other\"\n"
         "    }\n"
         "    print(\"total {total} for {n} is {label} ({scale:.2f}) {lengths}\")\n"
         "    return total\n"
         "}\n"
         "\n"
         "async fn fetch_" + n + "(id: Int) -> Result<Str> {\n"
         "    sleep(1).await\n"
         "    if id < 0 {\n"
         "        return Err(\"negative id {id}\")\n"
         "    }\n"
         "    return Ok(\"item-{id}\")\n"
         "}\n"
         "\n"
         "let p" + n + " = Point" + n + " { x: 1, y: " + n + ", label: null }\n"
         "let r" + n + " = compute_" + n + "(10 + " + n + " % 7)\n"
         "while r" + n + " > 100 {\n"
         "    r" + n + " = r" + n + " / 2\n"
         "}\n"
         "let m" + n + " = {\"a\": 1, \"b\": r" + n + ", \"c\": p" + n + ".dist(Point" + n + ".origin())}\n"
         "print(m" + n + ", [x * x for x in 1..=4], fn(a: Int) => a + 1)\n"
         "\n";
}

std::string program(int lines) {
  std::string out;
  int count = 0;
  for (int i = 0; count < lines; ++i) {
    std::string u = unit(i);
    out += u;
    count += int(std::count(u.begin(), u.end(), '\n'));
  }
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// Best of `runs`, wall clock and CPU time (CPU time is what to compare on a busy machine).
struct Timing {
  double wall = 1e9, cpu = 1e9;
};

template <class F>
Timing best_of(int runs, F&& f) {
  Timing best;
  for (int r = 0; r < runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    double c0 = cpu_seconds();
    f();
    best.cpu = std::min(best.cpu, cpu_seconds() - c0);
    best.wall = std::min(best.wall, seconds_since(t0));
  }
  return best;
}

void report(const char* what, const Timing& t, int lines) {
  std::printf("%-20s wall %.3f s %9.0f lines/s   cpu %.3f s %9.0f lines/s\n", what, t.wall, lines / t.wall, t.cpu,
              lines / t.cpu);
}

TSPoint point_at(const std::string& text, uint32_t offset) {
  TSPoint p{0, 0};
  for (uint32_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++p.row;
      p.column = 0;
    } else {
      ++p.column;
    }
  }
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  int lines = argc > 1 ? std::atoi(argv[1]) : 100000;
  std::string text = program(lines);
  int actual_lines = int(std::count(text.begin(), text.end(), '\n'));
  std::printf("program: %d lines, %.1f MB\n", actual_lines, text.size() / 1e6);

  Timing parse = best_of(3, [&] { SyntaxTree t = parse_text(text); });
  report("tree-sitter parse:", parse, actual_lines);
  // The parse above includes freeing the tree (a walk over every node and a free per node).
  Timing release;
  for (int r = 0; r < 3; ++r) {
    SyntaxTree t = parse_text(text);
    Timing one = best_of(1, [&] { t = SyntaxTree(); });
    if (one.cpu < release.cpu) release = one;
  }
  report("  of which free:", release, actual_lines);

  size_t diagnostics = 0, statements = 0;
  // What `fitz check` does with a file: parse_module, which parses a large file in pieces on
  // every core (frontend/piece_parse.h).
  Timing full = best_of(3, [&] {
    SourceFile source(FileId{0}, "bench.fitz", text);
    DiagnosticBag diags;
    Ast ast = parse_module(source, FileId{0}, diags);
    diagnostics = diags.size();
    statements = ast.stmts.size();
  });
  report("parse + lower:", full, actual_lines);
  std::printf("  (%zu statements, %zu diagnostics; %zu pieces)\n", statements, diagnostics,
              piece_cuts(text).size() + 1);
  // The same on one thread: the whole file as one tree.
  Timing whole = best_of(3, [&] {
    SourceFile source(FileId{0}, "bench.fitz", text);
    DiagnosticBag diags;
    SyntaxTree t = parse_text(text);
    Ast ast = lower_module(source, FileId{0}, t, diags);
  });
  report("  on one thread:", whole, actual_lines);

  SyntaxTree tree = parse_text(text);
  SourceFile source(FileId{0}, "bench.fitz", text);
  Timing lower_only = best_of(3, [&] {
    DiagnosticBag diags;
    Ast ast = lower_module(source, FileId{0}, tree, diags);
  });
  report("lower only:", lower_only, actual_lines);

  // What any lowering over tree-sitter 0.20 pays at least: one cursor walk visiting every node
  // once (what flattening the tree into an array would cost before lowering from it).
  size_t nodes = 0;
  Timing walk = best_of(3, [&] {
    TSTreeCursor c = ts_tree_cursor_new(tree.root());
    nodes = 0;
    for (bool more = true; more;) {
      ++nodes;
      if (ts_tree_cursor_goto_first_child(&c)) continue;
      while (!ts_tree_cursor_goto_next_sibling(&c)) {
        if (!ts_tree_cursor_goto_parent(&c)) {
          more = false;
          break;
        }
      }
    }
    ts_tree_cursor_delete(&c);
  });
  report("cursor walk:", walk, actual_lines);
  std::printf("  (%zu nodes)\n", nodes);

  // Incremental: a 5,000-line file, one character changed in the middle (a digit of a literal).
  std::string small = program(5000);
  SyntaxTree base = parse_text(small);
  uint32_t at = uint32_t(small.find("10 + ", small.size() / 2));
  std::vector<double> times;
  for (int r = 0; r < 20; ++r) {
    std::string edited = small;
    edited[at] = r % 2 ? '1' : '2';  // `10` -> `20` / `10`
    SyntaxTree old = base.clone();
    TSPoint p = point_at(small, at);
    TSPoint p1{p.row, p.column + 1};
    old.apply_edit(TextEdit{at, at + 1, at + 1, p, p1, p1});
    auto t0 = std::chrono::steady_clock::now();
    SyntaxTree fresh = parse_text(edited, &old);
    times.push_back(seconds_since(t0));
    if (fresh.has_error()) std::printf("unexpected syntax error after the edit\n");
  }
  std::sort(times.begin(), times.end());
  double full_small = best_of(3, [&] { SyntaxTree t = parse_text(small); }).wall;
  std::printf("incremental reparse (5,000 lines, 1-char edit): median %.3f ms, min %.3f ms (full parse %.1f ms)\n",
              times[times.size() / 2] * 1e3, times[0] * 1e3, full_small * 1e3);
  return 0;
}
