// The public entry points of the formatter: parse, refuse syntax errors, lay out, and check the
// result means what the input meant before handing it out.
#include "format/format.h"

#include <pthread.h>

#include <exception>

#include "format/comments.h"
#include "format/formatter.h"
#include "frontend/lower.h"
#include "frontend/syntax_tree.h"

namespace fitz::format {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Drops the ` @LINE:COL` marks of an AST dump.
std::string strip_positions(const std::string& dump) {
  std::string out;
  out.reserve(dump.size());
  for (size_t i = 0; i < dump.size();) {
    if (dump[i] == ' ' && i + 2 < dump.size() && dump[i + 1] == '@' && is_digit(dump[i + 2])) {
      size_t j = i + 2;
      while (j < dump.size() && (is_digit(dump[j]) || dump[j] == ':' || dump[j] == '-')) ++j;
      i = j;
      continue;
    }
    out += dump[i++];
  }
  return out;
}

// The comments of a parsed text, as the formatter prints them.
std::string comment_list(const frontend::SyntaxTree& tree, std::string_view text) {
  std::string out;
  for (const Comment& c : collect_comments(tree.root(), text)) {
    out += c.text;
    out += '\n';
  }
  return out;
}

// What the check compares of a text: its AST dump without positions (with a mark when the text
// has syntax errors) and its comments, both from one parse.
struct Meaning {
  std::string ast;
  std::string comments;
};

Meaning meaning_of(std::string_view text) {
  frontend::SourceFile file(frontend::FileId{0}, "<fmt>", std::string(text));
  frontend::DiagnosticBag diags;
  frontend::SyntaxTree tree;
  frontend::Ast ast = frontend::parse_module(file, file.id(), diags, &tree);
  Meaning m{strip_positions(frontend::dump_ast(ast, file)), comment_list(tree, file.text())};
  if (diags.has_errors()) m.ast += "\n<syntax errors>";
  return m;
}

// Layout recurses a few frames per level of nesting, and the parser accepts up to 1000 levels:
// deeper than a default 8 MB stack holds in sanitizer builds. It runs on a thread of its own
// with room for that (reserved address space; only the pages used are touched).
template <class F> void on_big_stack(F& f) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t{256} << 20);
  struct Ctx {
    F* f;
    std::exception_ptr error;
  } ctx{&f, nullptr};
  void* (*entry)(void*) = [](void* p) -> void* {
    auto* c = static_cast<Ctx*>(p);
    try {
      (*c->f)();
    } catch (...) {
      c->error = std::current_exception();
    }
    return nullptr;
  };
  pthread_t thread;
  bool started = pthread_create(&thread, &attr, entry, &ctx) == 0;
  pthread_attr_destroy(&attr);
  if (!started) return f();  // no thread to be had: the caller's stack it is
  pthread_join(thread, nullptr);
  if (ctx.error) std::rethrow_exception(ctx.error);
}

std::string lay_out(std::string_view text, const frontend::SyntaxTree& tree, const FormatOptions& options) {
  std::string out;
  auto work = [&] {
    Formatter formatter(text, tree.root());
    out = print_doc(formatter.run(), options.width, options.indent);
  };
  on_big_stack(work);
  if (out == "\n") out.clear();  // an empty file stays empty
  return out;
}

}  // namespace

std::string ast_fingerprint(std::string_view text) { return meaning_of(text).ast; }

std::optional<std::string> format_source(const frontend::SourceFile& file, frontend::DiagnosticBag& diags,
                                         const FormatOptions& options, std::string* internal_error) {
  frontend::DiagnosticBag local;
  frontend::SyntaxTree tree;
  frontend::Ast ast = frontend::parse_module(file, file.id(), local, &tree);
  if (local.has_errors()) {
    diags.append(local);
    return std::nullopt;
  }
  std::string out = lay_out(file.text(), tree, options);

  auto fail = [&](std::string what) -> std::optional<std::string> {
    if (internal_error) *internal_error = std::move(what);
    return std::nullopt;
  };
  // One parse of the output serves both comparisons: on deeply nested input the output is
  // quadratic in the nesting (every level indents), and parsing it is most of the cost.
  Meaning after = meaning_of(out);
  if (after.ast.ends_with("<syntax errors>")) return fail("the formatted text does not parse");
  if (strip_positions(frontend::dump_ast(ast, file)) != after.ast)
    return fail("the formatted text has a different syntax tree");
  if (comment_list(tree, file.text()) != after.comments) return fail("the formatted text lost or changed a comment");
  return out;
}

std::string format_unchecked(std::string_view text, const FormatOptions& options) {
  frontend::SyntaxTree tree = frontend::parse_text(text);
  return lay_out(text, tree, options);
}

std::optional<std::string> format_text(std::string_view text, const FormatOptions& options) {
  frontend::SourceFile file(frontend::FileId{0}, "<fmt>", std::string(text));
  frontend::DiagnosticBag diags;
  return format_source(file, diags, options);
}

}  // namespace fitz::format
