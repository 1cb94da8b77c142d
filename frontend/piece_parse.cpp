#include "frontend/piece_parse.h"

#include <algorithm>
#include <cctype>

#include <llvm/Support/Threading.h>

#include "frontend/lower_internal.h"
#include "frontend/parallel.h"
#include "frontend/syntax_tree.h"

namespace fitz::frontend {

namespace {

bool blank(std::string_view line) {
  return std::all_of(line.begin(), line.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

bool may_begin_item(std::string_view line) {
  if (line.empty()) return false;
  char c = line[0];
  bool word = c == '_' || c == '@' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  // `else` on its own line continues the `if` above it (the scanner ends no statement there).
  bool is_else = line.substr(0, 4) == "else" && (line.size() == 4 || !(std::isalnum(uint8_t(line[4])) || line[4] == '_'));
  return word && !is_else;
}

// The first line start at or after the line following `from` that may begin an item after a
// blank line; npos when none is left.
size_t next_cut(std::string_view text, size_t from) {
  size_t start = text.find('\n', from);
  bool previous_blank = false;
  while (start != std::string_view::npos && ++start < text.size()) {
    size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? text.npos : end - start);
    if (previous_blank && may_begin_item(line)) return start;
    previous_blank = blank(line);
    start = end;
  }
  return std::string_view::npos;
}

unsigned cores() { return llvm::hardware_concurrency().compute_thread_count(); }

}  // namespace

std::vector<uint32_t> piece_cuts(std::string_view text, const PieceLimits& limits) {
  std::vector<uint32_t> cuts;
  size_t min_bytes = std::max<size_t>(limits.min_bytes, 1);
  size_t most = limits.max_pieces ? limits.max_pieces : 4 * size_t(std::max(1u, cores()));
  size_t pieces = std::min(most, text.size() / min_bytes);
  if (pieces < 2 || text.size() > UINT32_MAX) return cuts;
  size_t size = text.size() / pieces;
  size_t at = 0;
  for (size_t k = 1; k < pieces; ++k) {
    size_t cut = next_cut(text, std::max(at + min_bytes, k * size));
    if (cut == std::string_view::npos || text.size() - cut < min_bytes) break;
    cuts.push_back(uint32_t(cut));
    at = cut;
  }
  return cuts;
}

std::optional<Ast> parse_in_pieces(const SourceFile& source, FileId file, DiagnosticBag& diags,
                                   const PieceLimits& limits) {
  unsigned threads = limits.threads ? limits.threads : cores();
  if (threads < 2) return std::nullopt;
  std::string_view text = source.text();
  std::vector<uint32_t> cuts = piece_cuts(text, limits);
  if (cuts.empty()) return std::nullopt;

  struct Piece {
    uint32_t begin, end;
    TSPoint begin_point, end_point;
    SyntaxTree tree;
  };
  std::vector<Piece> pieces(cuts.size() + 1);
  uint32_t row = 0, from = 0;
  for (size_t i = 0; i < pieces.size(); ++i) {
    Piece& p = pieces[i];
    p.begin = from;
    p.begin_point = TSPoint{row, 0};
    if (i < cuts.size()) {
      p.end = cuts[i];
      row += uint32_t(std::count(text.begin() + from, text.begin() + p.end, '\n'));
      p.end_point = TSPoint{row, 0};  // cuts are line starts
      from = p.end;
    } else {
      // The last piece runs to the end, as a whole-file parse does.
      p.end = UINT32_MAX;
      p.end_point = TSPoint{UINT32_MAX, UINT32_MAX};
    }
  }
  auto parse = [&](size_t i) {
    Piece& p = pieces[i];
    p.tree = parse_text_range(text, p.begin, p.end, p.begin_point, p.end_point);
  };

  // Diagnostics of lowering go to a bag of their own until every piece proved to stand alone.
  DiagnosticBag local;
  lowering::Lowerer lowerer(source, file, local);
  lowerer.reserve_tables();
  auto stands_alone = [&](const SyntaxTree& t) {
    return t.valid() && !t.has_error() && ts_node_is_null(lowering::open_block_comment_at_end(t.root(), text));
  };
  // This thread parses the first piece while the others start on the next ones; then it lowers
  // the pieces in order, and while the next one is still being parsed it parses a later one.
  auto work = [&](size_t i) { parse(i + 1); };
  WorkAhead ahead(pieces.size() - 1, work, threads - 1);
  parse(0);
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (i > 0) ahead.wait(i - 1);
    if (!stands_alone(pieces[i].tree)) return std::nullopt;
    lowerer.lower_top_level(pieces[i].tree.root());
  }
  for (const Diagnostic& d : local) diags.report(d);
  return lowerer.take();
}

}  // namespace fitz::frontend
