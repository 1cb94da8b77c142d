// Types, patterns, parameters, type definitions, decorators and imports.
#include "format/formatter.h"

namespace fitz::format {

Doc Formatter::type_expr(TSNode n) {
  std::string_view t = type_of(n);
  if (t == "named_type" || t == "module_path") {
    std::vector<Doc> parts;
    for (TSNode c : children(n)) {
      if (is(c, "comment")) continue;
      parts.push_back(ts_node_is_named(c) ? node(c) : tok(c));
    }
    return concat(std::move(parts));
  }
  if (t == "generic_type") return concat({node(field(n, "name")), node(field(n, "arguments"))});
  if (t == "type_arguments" || t == "function_type_parameters") {
    ListStyle style;
    style.shielded = true;
    if (t == "type_arguments") return delimited_children(n, "<", ">", style);
    return delimited_children(n, "(", ")", style);
  }
  if (t == "nullable_type") return concat({node(field(n, "type")), tok(n, "?")});
  if (t == "tuple_type") {
    ListStyle style;
    style.shielded = true;
    style.single_comma = true;
    return delimited_children(n, "(", ")", style);
  }
  if (t == "parenthesized_type") return concat({tok(n, "("), node(field(n, "type")), tok(n, ")")});
  if (t == "function_type") {
    return concat({tok(n, "Fn"), node(field(n, "parameters")), text(" "), tok(n, "->"), text(" "),
                   node(field(n, "return_type"))});
  }
  if (t == "parameters") {
    ListStyle style;
    style.shielded = true;
    return delimited_children(n, "(", ")", style);
  }
  if (t == "parameter") return parameter(n);
  if (t == "type_body") return braced(n, false);
  if (t == "field_declaration") return field_declaration(n);
  if (t == "decorator") return decorator(n);
  if (t == "decorator_arguments") {
    ListStyle style;
    style.shielded = true;
    style.hug_last = true;
    return delimited_children(n, "(", ")", style);
  }
  if (t == "keyword_argument")
    return concat({node(field(n, "name")), tok(n, "="), node(field(n, "value"))});
  if (t == "dotted_name") {
    std::vector<Doc> parts;
    for (uint32_t i = 0; i < ts_node_child_count(n); ++i) {
      TSNode part = ts_node_child(n, i);
      if (is(part, "comment")) continue;  // printed by the tokens they are attached to
      parts.push_back(tok(part));         // the other parts are leaves: identifiers and dots
    }
    return concat(std::move(parts));
  }
  if (t == "import_name") {
    TSNode alias = field(n, "alias");
    if (ts_node_is_null(alias)) return node(field(n, "name"));
    return concat({node(field(n, "name")), text(" "), tok(n, "as"), text(" "), node(alias)});
  }
  return pattern(n);
}

Doc Formatter::pattern(TSNode n) {
  std::string_view t = type_of(n);
  if (t == "or_pattern") {
    std::vector<Doc> parts;
    std::vector<TSNode> alts = fields(n, "alternative");
    for (size_t i = 0; i < alts.size(); ++i) {
      if (i > 0) {
        parts.push_back(text(" "));
        // The `|` before this alternative.
        TSNode bar = ts_node_prev_sibling(alts[i]);
        while (!ts_node_is_null(bar) && is(bar, "comment")) bar = ts_node_prev_sibling(bar);
        parts.push_back(is(bar, "|") ? tok(bar) : text("|"));
        parts.push_back(text(" "));
      }
      parts.push_back(node(alts[i]));
    }
    return concat(std::move(parts));
  }
  if (t == "negative_literal") {
    std::vector<TSNode> kids = named_children(n);
    return concat({tok(n, "-"), kids.empty() ? nullptr : node(kids.front())});
  }
  if (t == "range_pattern")
    return concat({node(field(n, "start")), tok(field(n, "operator")), node(field(n, "end"))});
  if (t == "result_pattern")
    return concat({tok(field(n, "kind")), tok(n, "("), node(field(n, "pattern")), tok(n, ")")});
  if (t == "tuple_pattern") {
    ListStyle style;
    style.shielded = true;
    style.single_comma = true;
    return delimited_children(n, "(", ")", style);
  }
  // identifier, literals, label, `_`, strings: as written.
  return raw(n);
}

Doc Formatter::parameter(TSNode n) {
  std::vector<Doc> parts;
  // Parameter decorators (`@flag(short="w") width: Int = 640`) stay on the parameter's line.
  for (TSNode d : fields(n, "decorator")) {
    parts.push_back(node(d));
    parts.push_back(text(" "));
  }
  TSNode variadic = field(n, "variadic");
  if (!ts_node_is_null(variadic)) parts.push_back(tok(variadic));
  parts.push_back(node(field(n, "name")));
  TSNode type = field(n, "type");
  if (!ts_node_is_null(type)) {
    parts.push_back(tok(n, ":"));
    parts.push_back(text(" "));
    parts.push_back(node(type));
  }
  TSNode def = field(n, "default");
  if (!ts_node_is_null(def)) {
    parts.push_back(text(" "));
    parts.push_back(tok(n, "="));
    parts.push_back(text(" "));
    parts.push_back(node(def));
  }
  return concat(std::move(parts));
}

Doc Formatter::type_definition(TSNode n) {
  return concat({decorators(n, true), tok(n, "type"), text(" "), node(field(n, "name")), text(" "),
                 node(field(n, "body"))});
}

Doc Formatter::field_declaration(TSNode n) {
  std::vector<Doc> parts = {decorators(n, false), node(field(n, "name")), tok(n, ":"), text(" "),
                            node(field(n, "type"))};
  TSNode def = field(n, "default");
  if (!ts_node_is_null(def)) {
    parts.push_back(text(" "));
    parts.push_back(tok(n, "="));
    parts.push_back(text(" "));
    parts.push_back(node(def));
  }
  return concat(std::move(parts));
}

Doc Formatter::decorator(TSNode n) {
  TSNode args = field(n, "arguments");
  return concat({tok(n, "@"), node(field(n, "name")), ts_node_is_null(args) ? nullptr : node(args)});
}

Doc Formatter::import_statement(TSNode n) {
  TSNode alias = field(n, "alias");
  std::vector<Doc> parts = {tok(n, "import"), text(" "), node(field(n, "path"))};
  if (!ts_node_is_null(alias)) {
    parts.push_back(text(" "));
    parts.push_back(tok(n, "as"));
    parts.push_back(text(" "));
    parts.push_back(node(alias));
  }
  return concat(std::move(parts));
}

// `from m import a, b`; wrapped as `from m import (` one name per line `)` when too long.
Doc Formatter::from_import(TSNode n) {
  std::vector<TSNode> names = fields(n, "name");
  TSNode open = token_child(n, "(");
  TSNode close = last_token_child(n, ")");
  std::vector<Doc> head = {tok(n, "from"), text(" "), node(field(n, "path")), text(" "), tok(n, "import"),
                           text(" ")};
  bool commented = !names.empty() && has_comment_between(start_of(names.front()), end_of(n));
  if (!ts_node_is_null(open)) commented = commented || has_comment_between(start_of(open), end_of(n));
  Doc open_doc = ts_node_is_null(open) ? text("(") : tok(open);
  std::vector<Doc> inner;
  for (size_t i = 0; i < names.size(); ++i) {
    std::vector<Comment*> trail = take_trailing(end_of(names[i]));
    inner.push_back(node(names[i]));
    TSNode sep = ts_node_next_sibling(names[i]);
    while (!ts_node_is_null(sep) && is(sep, "comment")) sep = ts_node_next_sibling(sep);
    std::vector<Comment*> sep_trail;
    if (is(sep, ",")) {
      inner.push_back(sweep(start_of(sep)));
      sep_trail = take_trailing(end_of(sep));
    }
    trail.insert(trail.end(), sep_trail.begin(), sep_trail.end());
    bool last = i + 1 == names.size();
    inner.push_back(last ? if_break(text(",")) : text(","));
    inner.push_back(trailing_doc(trail));
    if (!last) inner.push_back(line());
  }
  if (!ts_node_is_null(close)) inner.push_back(leading_doc(take_leading(start_of(close)), true));
  Doc close_doc = ts_node_is_null(close) ? text(")") : tok(close);
  return concat({concat(std::move(head)),
                 group(concat({if_break(open_doc), indent(concat({softline(), concat(std::move(inner))})), softline(),
                               if_break(close_doc)}),
                       commented)});
}

}  // namespace fitz::format
