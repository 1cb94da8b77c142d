// Statements, blocks and function definitions. Every node the formatter prints goes through
// statement(), which hands what is not a statement to expression().
#include "format/formatter.h"

namespace fitz::format {

Doc Formatter::statement(TSNode n) {
  std::string_view t = type_of(n);
  if (t == "expression_statement") {
    std::vector<TSNode> kids = named_children(n);
    return kids.empty() ? raw(n) : node(kids.front());
  }
  if (t == "let_statement") {
    TSNode target = field(n, "name");
    if (ts_node_is_null(target)) target = field(n, "pattern");
    TSNode type = field(n, "type");
    std::vector<Doc> parts = {tok(n, "let"), text(" "), node(target)};
    if (!ts_node_is_null(type)) {
      parts.push_back(tok(n, ":"));
      parts.push_back(text(" "));
      parts.push_back(node(type));
    }
    parts.push_back(text(" "));
    parts.push_back(tok(n, "="));
    parts.push_back(text(" "));
    parts.push_back(node(field(n, "value")));
    return concat(std::move(parts));
  }
  if (t == "annotated_assignment") {
    return concat({node(field(n, "name")), tok(n, ":"), text(" "), node(field(n, "type")), text(" "), tok(n, "="),
                   text(" "), node(field(n, "value"))});
  }
  if (t == "assignment") {
    return concat({node(field(n, "left")), text(" "), tok(n, "="), text(" "), node(field(n, "right"))});
  }
  if (t == "compound_assignment") {
    return concat({node(field(n, "left")), text(" "), tok(field(n, "operator")), text(" "), node(field(n, "right"))});
  }
  if (t == "return_statement") {
    TSNode value = field(n, "value");
    if (ts_node_is_null(value)) return tok(n, "return");
    return concat({tok(n, "return"), text(" "), node(value)});
  }
  if (t == "status_return") {
    return concat({tok(n, "return"), text(" "), node(field(n, "status")), text(" "), node(field(n, "body"))});
  }
  if (t == "break_statement" || t == "continue_statement") {
    std::vector<Doc> parts = {tok(n, t == "break_statement" ? "break" : "continue")};
    for (const char* f : {"label", "value"}) {
      TSNode c = field(n, f);
      if (!ts_node_is_null(c)) {
        parts.push_back(text(" "));
        parts.push_back(node(c));
      }
    }
    return concat(std::move(parts));
  }
  if (t == "while_statement" || t == "for_statement" || t == "loop_expression") {
    std::vector<Doc> parts;
    TSNode label = field(n, "label");
    if (!ts_node_is_null(label)) {
      parts.push_back(node(label));
      parts.push_back(tok(n, ":"));
      parts.push_back(text(" "));
    }
    if (t == "while_statement") {
      parts.push_back(tok(n, "while"));
      parts.push_back(text(" "));
      parts.push_back(node(field(n, "condition")));
    } else if (t == "for_statement") {
      parts.push_back(tok(n, "for"));
      parts.push_back(text(" "));
      parts.push_back(node(field(n, "pattern")));
      parts.push_back(text(" "));
      parts.push_back(tok(n, "in"));
      parts.push_back(text(" "));
      parts.push_back(node(field(n, "iterable")));
    } else {
      parts.push_back(tok(n, "loop"));
    }
    parts.push_back(text(" "));
    parts.push_back(node(field(n, "body")));
    return concat(std::move(parts));
  }
  if (t == "block") return block(n);
  if (t == "function_definition") return function_definition(n);
  if (t == "type_definition") return type_definition(n);
  if (t == "import_statement") return import_statement(n);
  if (t == "from_import_statement") return from_import(n);
  return expression(n);
}

Doc Formatter::block(TSNode n) { return braced(n, true); }

// Decorators of a function or type, each on its own line; of a field, as the source had them.
Doc Formatter::decorators(TSNode n, bool own_lines) {
  std::vector<Doc> parts;
  for (TSNode d : fields(n, "decorator")) {
    parts.push_back(node(d));
    if (own_lines) {
      parts.push_back(hardline());
    } else {
      TSNode next = ts_node_next_sibling(d);
      uint32_t next_start = ts_node_is_null(next) ? end_of(d) : start_of(next);
      parts.push_back(newlines_between(source_, end_of(d), next_start) > 0 ? hardline() : text(" "));
    }
  }
  return concat(std::move(parts));
}

Doc Formatter::function_definition(TSNode n) {
  std::vector<Doc> parts = {decorators(n, true)};
  for (const char* modifier : {"static", "async"}) {
    TSNode m = field(n, modifier);
    if (!ts_node_is_null(m)) {
      parts.push_back(tok(m));
      parts.push_back(text(" "));
    }
  }
  parts.push_back(tok(n, "fn"));
  parts.push_back(text(" "));
  parts.push_back(node(field(n, "name")));
  parts.push_back(node(field(n, "parameters")));
  TSNode ret = field(n, "return_type");
  if (!ts_node_is_null(ret)) {
    parts.push_back(text(" "));
    parts.push_back(tok(n, "->"));
    parts.push_back(text(" "));
    parts.push_back(node(ret));
  }
  TSNode body = field(n, "body");
  parts.push_back(text(" "));
  if (!is(body, "block")) {
    parts.push_back(tok(n, "=>"));
    parts.push_back(text(" "));
  }
  parts.push_back(node(body));
  return concat(std::move(parts));
}

}  // namespace fitz::format
