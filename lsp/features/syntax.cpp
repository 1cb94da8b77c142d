// Features that need only the syntax: document symbols (from the AST), folding and selection
// ranges (from the tree-sitter tree), and semantic tokens (tree first, refined by the index).
#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "lsp/features/features.h"
#include "lsp/features/index.h"

namespace fitz::lsp {

using namespace frontend;

namespace {

std::string type_text(const Analysis& a, ModuleId m, TypeExprId t) {
  if (!t.valid()) return "";
  return std::string(a.file(m).slice(a.module(m).ast.get(t).span));
}

std::string fn_detail(const Analysis& a, ModuleId m, const FnDecl& fn) {
  std::string s = "(";
  for (size_t i = 0; i < fn.params.size(); ++i) {
    if (i) s += ", ";
    s += a.file(m).slice(fn.params[i].span);
  }
  s += ")";
  if (fn.return_type.valid()) s += " -> " + type_text(a, m, fn.return_type);
  return s;
}

Span name_or(const Span& whole, const Ident* name) { return name ? name->span : whole; }

}  // namespace

std::vector<DocumentSymbol> document_symbols(const Analysis& a, ModuleId m) {
  std::vector<DocumentSymbol> out;
  if (!m.valid()) return out;
  const Ast& ast = a.module(m).ast;
  std::unordered_map<std::string_view, bool> seen_globals;
  for (StmtId sid : ast.top_level) {
    const Stmt& st = ast.get(sid);
    if (auto* f = std::get_if<FnStmt>(&st.data)) {
      const FnDecl& fn = ast.get(f->fn);
      if (!fn.name) continue;
      out.push_back({std::string(fn.name->text), fn_detail(a, m, fn), SymbolKind::Function, st.span, fn.name->span, {}});
    } else if (auto* t = std::get_if<TypeStmt>(&st.data)) {
      const TypeDecl& td = ast.get(t->type);
      DocumentSymbol ds{std::string(td.name.text), "type", SymbolKind::Type, st.span, td.name.span, {}};
      for (const auto& fd : td.fields)
        ds.children.push_back({std::string(fd.name.text), type_text(a, m, fd.type), SymbolKind::Field, fd.span, fd.name.span, {}});
      for (FnId mid : td.methods) {
        const FnDecl& fn = ast.get(mid);
        ds.children.push_back({fn.name ? std::string(fn.name->text) : "fn", fn_detail(a, m, fn), SymbolKind::Method,
                               fn.span, name_or(fn.span, fn.name ? &*fn.name : nullptr), {}});
      }
      std::sort(ds.children.begin(), ds.children.end(),
                [](const DocumentSymbol& x, const DocumentSymbol& y) { return x.span.begin < y.span.begin; });
      out.push_back(std::move(ds));
    } else if (auto* as = std::get_if<AssignStmt>(&st.data)) {
      if (as->compound || !as->target.valid()) continue;
      auto* n = std::get_if<NameRef>(&ast.get(as->target).data);
      if (!n || seen_globals[n->name.text]) continue;
      seen_globals[n->name.text] = true;
      bool constant = std::all_of(n->name.text.begin(), n->name.text.end(),
                                  [](char c) { return (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9'); });
      out.push_back({std::string(n->name.text), "", constant ? SymbolKind::Constant : SymbolKind::Variable, st.span,
                     n->name.span, {}});
    } else if (auto* an = std::get_if<AnnotatedAssignStmt>(&st.data)) {
      if (seen_globals[an->name.text]) continue;
      seen_globals[an->name.text] = true;
      out.push_back({std::string(an->name.text), type_text(a, m, an->type), SymbolKind::Variable, st.span, an->name.span, {}});
    } else if (auto* im = std::get_if<ImportStmt>(&st.data)) {
      if (im->path.empty()) continue;
      const Ident& local = im->alias ? *im->alias : im->path.back();
      out.push_back({std::string(local.text), "import", SymbolKind::Module, st.span, local.span, {}});
    }
  }
  return out;
}

// ---- folding ----

std::vector<FoldingRange> folding_ranges(const SyntaxTree& tree, std::string_view text) {
  std::vector<FoldingRange> out;
  if (!tree.valid()) return out;
  static const char* kBracketed[] = {"block", "type_body", "match_body", "list", "map", "tuple",
                                     "list_comprehension", "map_comprehension", "struct_literal", "arguments",
                                     "parameters", "decorator_arguments"};
  TSNode root = tree.root();
  // Depth-first over named nodes.
  std::vector<TSNode> stack{root};
  int last_comment_start = -1, last_comment_end = -2;
  auto flush_comments = [&] {
    if (last_comment_start >= 0 && last_comment_end > last_comment_start)
      out.push_back({uint32_t(last_comment_start), uint32_t(last_comment_end), FoldingRange::Kind::Comment});
    last_comment_start = -1;
    last_comment_end = -2;
  };
  std::vector<TSNode> comments;
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    const char* type = ts_node_type(n);
    uint32_t r0 = ts_node_start_point(n).row, r1 = ts_node_end_point(n).row;
    if (std::strcmp(type, "comment") == 0) {
      comments.push_back(n);
      continue;
    }
    if (r1 > r0) {
      bool bracketed = false;
      for (const char* b : kBracketed) bracketed |= std::strcmp(type, b) == 0;
      if (bracketed) {
        // Keep the closing bracket's line visible.
        if (r1 - 1 > r0) out.push_back({r0, r1 - 1, FoldingRange::Kind::Region});
      } else if (std::strcmp(type, "string") == 0) {
        out.push_back({r0, r1, FoldingRange::Kind::Region});
      }
    }
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = count; i-- > 0;) stack.push_back(ts_node_named_child(n, i));
  }
  // Runs of line comments and multi-line block comments.
  std::sort(comments.begin(), comments.end(),
            [](TSNode x, TSNode y) { return ts_node_start_byte(x) < ts_node_start_byte(y); });
  for (TSNode c : comments) {
    int r0 = int(ts_node_start_point(c).row), r1 = int(ts_node_end_point(c).row);
    if (r1 > r0) {
      flush_comments();
      out.push_back({uint32_t(r0), uint32_t(r1), FoldingRange::Kind::Comment});
      continue;
    }
    // Only comments that start their line join a run.
    uint32_t b = ts_node_start_byte(c);
    bool own_line = true;
    for (uint32_t i = b; i > 0 && text[i - 1] != '\n'; --i)
      if (text[i - 1] != ' ' && text[i - 1] != '\t') own_line = false;
    if (own_line && r0 == last_comment_end + 1) {
      last_comment_end = r0;
    } else {
      flush_comments();
      if (own_line) last_comment_start = last_comment_end = r0;
    }
  }
  flush_comments();
  // Groups of consecutive import statements at top level.
  uint32_t count = ts_node_named_child_count(root);
  int group_start = -1, group_end = -1;
  for (uint32_t i = 0; i <= count; ++i) {
    bool is_import = false;
    TSNode n{};
    if (i < count) {
      n = ts_node_named_child(root, i);
      const char* t = ts_node_type(n);
      is_import = std::strcmp(t, "import_statement") == 0 || std::strcmp(t, "from_import_statement") == 0;
      if (std::strcmp(t, "comment") == 0) continue;
    }
    if (is_import) {
      if (group_start < 0) group_start = int(ts_node_start_point(n).row);
      group_end = int(ts_node_end_point(n).row);
    } else {
      if (group_start >= 0 && group_end > group_start)
        out.push_back({uint32_t(group_start), uint32_t(group_end), FoldingRange::Kind::Imports});
      group_start = -1;
    }
  }
  std::sort(out.begin(), out.end(), [](const FoldingRange& x, const FoldingRange& y) {
    return std::tie(x.start_line, x.end_line) < std::tie(y.start_line, y.end_line);
  });
  out.erase(std::unique(out.begin(), out.end(),
                        [](const FoldingRange& x, const FoldingRange& y) {
                          return x.start_line == y.start_line && x.end_line == y.end_line;
                        }),
            out.end());
  return out;
}

// ---- selection ranges ----

std::vector<std::vector<std::pair<uint32_t, uint32_t>>> selection_ranges(const SyntaxTree& tree,
                                                                         const std::vector<uint32_t>& offsets) {
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> out;
  for (uint32_t off : offsets) {
    std::vector<std::pair<uint32_t, uint32_t>> chain;
    if (tree.valid()) {
      TSNode n = ts_node_descendant_for_byte_range(tree.root(), off, off);
      while (!ts_node_is_null(n)) {
        std::pair<uint32_t, uint32_t> r{ts_node_start_byte(n), ts_node_end_byte(n)};
        // Only ranges that grow, and that contain the cursor.
        if (r.first <= off && off <= r.second && (chain.empty() || (r != chain.back() && r.first <= chain.back().first &&
                                                                   r.second >= chain.back().second)))
          chain.push_back(r);
        n = ts_node_parent(n);
      }
    }
    if (chain.empty()) chain.push_back({off, off});
    out.push_back(std::move(chain));
  }
  return out;
}

// ---- semantic tokens ----

std::vector<std::string_view> semantic_token_type_names() {
  return {"namespace", "type", "struct", "parameter", "variable", "property", "function", "method",
          "keyword", "comment", "string", "number", "operator", "decorator"};
}

std::vector<std::string_view> semantic_token_modifier_names() { return {"declaration", "readonly", "defaultLibrary"}; }

namespace {

bool is_word(const char* s) {
  if (!*s) return false;
  for (const char* p = s; *p; ++p)
    if (!((*p >= 'a' && *p <= 'z') || *p == '_')) return false;
  return true;
}

struct TokenWalker {
  std::string_view text;
  std::vector<SemanticToken>& out;

  void leaf(TSNode n, TSNode parent, const char* field) {
    const char* type = ts_node_type(n);
    const char* ptype = ts_node_is_null(parent) ? "" : ts_node_type(parent);
    uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (b >= e) return;
    auto add = [&](TokenType t, uint8_t mods = 0) { out.push_back({b, e, t, mods}); };
    if (!std::strcmp(type, "comment")) return add(TokenType::Comment);
    if (!std::strcmp(type, "string_content") || !std::strcmp(type, "escape_sequence")) return add(TokenType::String);
    if ((!std::strcmp(ptype, "string") || !std::strcmp(ptype, "bytes")) && !ts_node_is_named(n)) return add(TokenType::String);
    if (!std::strcmp(type, "integer") || !std::strcmp(type, "float")) return add(TokenType::Number);
    if (!std::strcmp(type, "true") || !std::strcmp(type, "false") || !std::strcmp(type, "null"))
      return add(TokenType::Keyword);
    if (!ts_node_is_named(n)) {
      if (is_word(type) && std::strcmp(type, "_")) return add(TokenType::Keyword);
      if (!std::strcmp(type, "@") && !std::strcmp(ptype, "decorator")) return add(TokenType::Decorator);
      return;
    }
    if (!std::strcmp(type, "identifier")) {
      std::string_view f = field ? field : "";
      if (!std::strcmp(ptype, "decorator")) return add(TokenType::Decorator);
      if (!std::strcmp(ptype, "function_definition") && f == "name") return add(TokenType::Function, kDeclaration);
      if (!std::strcmp(ptype, "type_definition") && f == "name") return add(TokenType::Struct, kDeclaration);
      if (!std::strcmp(ptype, "parameter")) return add(TokenType::Parameter, kDeclaration);
      if (!std::strcmp(ptype, "field_declaration") && f == "name") return add(TokenType::Property, kDeclaration);
      if (!std::strcmp(ptype, "named_type") || !std::strcmp(ptype, "generic_type")) return add(TokenType::Type);
      if (!std::strcmp(ptype, "struct_literal") && f == "name") return add(TokenType::Struct);
      if (!std::strcmp(ptype, "field_initializer") && f == "name") return add(TokenType::Property);
      if (!std::strcmp(ptype, "field_expression") && f == "field") return add(TokenType::Property);
      if (!std::strcmp(ptype, "call_expression")) return add(TokenType::Function);
      if (!std::strcmp(ptype, "module_path")) return add(TokenType::Namespace);
      return add(TokenType::Variable);
    }
  }

  void walk(TSTreeCursor* c, TSNode parent, const char* field) {
    TSNode n = ts_tree_cursor_current_node(c);
    const char* type = ts_node_type(n);
    bool atom = !std::strcmp(type, "comment") || ts_node_child_count(n) == 0;
    if (atom) {
      leaf(n, parent, field);
      return;
    }
    if (ts_tree_cursor_goto_first_child(c)) {
      do walk(c, n, ts_tree_cursor_current_field_name(c));
      while (ts_tree_cursor_goto_next_sibling(c));
      ts_tree_cursor_goto_parent(c);
    }
  }
};

TokenType token_for(const Analysis& a, const SymbolKey& key, uint8_t& mods) {
  switch (key.kind) {
    case SymbolKey::Kind::Struct: return TokenType::Struct;
    case SymbolKey::Kind::Field: return TokenType::Property;
    case SymbolKey::Kind::Method: return TokenType::Method;
    case SymbolKey::Kind::Builtin: mods |= kDefaultLibrary; return TokenType::Function;
    case SymbolKey::Kind::Symbol: {
      const auto& s = a.program.symbols[key.a];
      switch (s.kind) {
        case checker::SymbolKind::Param: return TokenType::Parameter;
        case checker::SymbolKind::Function: return TokenType::Function;
        case checker::SymbolKind::Type: return TokenType::Struct;
        case checker::SymbolKind::Module: return TokenType::Namespace;
        case checker::SymbolKind::Builtin: mods |= kDefaultLibrary; return TokenType::Function;
        case checker::SymbolKind::BuiltinValue: mods |= kDefaultLibrary | kReadonly; return TokenType::Variable;
        default:
          if (s.type.valid() && a.program.types->kind(s.type) == checker::TypeKind::Fn) return TokenType::Function;
          return TokenType::Variable;
      }
    }
    default: return TokenType::Variable;
  }
}

}  // namespace

std::vector<SemanticToken> semantic_tokens(const SyntaxTree& tree, std::string_view text, const Analysis* a,
                                           ModuleId m) {
  std::vector<SemanticToken> out;
  if (!tree.valid()) return out;
  TokenWalker w{text, out};
  TSTreeCursor c = ts_tree_cursor_new(tree.root());
  w.walk(&c, TSNode{}, nullptr);
  ts_tree_cursor_delete(&c);
  if (a && m.valid() && a->tir(m) && a->file(m).text() == text) {
    const auto& occ = module_index(*a, m).occurrences;
    size_t j = 0;
    for (auto& t : out) {
      if (t.type == TokenType::Keyword || t.type == TokenType::String || t.type == TokenType::Comment ||
          t.type == TokenType::Number || t.type == TokenType::Decorator)
        continue;
      while (j < occ.size() && occ[j].span.begin < t.begin) ++j;
      for (size_t k = j; k < occ.size() && occ[k].span.begin == t.begin; ++k) {
        if (occ[k].span.end != t.end) continue;
        uint8_t mods = occ[k].is_decl ? kDeclaration : 0;
        t.type = token_for(*a, occ[k].key, mods);
        t.modifiers = mods;
        break;
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const SemanticToken& x, const SemanticToken& y) { return x.begin < y.begin; });
  return out;
}

}  // namespace fitz::lsp
