// Expressions: operators with breaks after the operator, method chains broken before each `.`,
// argument lists, literals, lambdas, `if`, `match` and comprehensions.
#include <algorithm>

#include "format/formatter.h"

namespace fitz::format {

namespace {

int precedence(std::string_view op) {
  if (op == "or" || op == "xor") return 1;
  if (op == "and") return 2;
  if (op == "==" || op == "!=") return 3;
  if (op == "<" || op == "<=" || op == ">" || op == ">=") return 4;
  if (op == "|") return 5;
  if (op == "^") return 6;
  if (op == "&") return 7;
  if (op == "<<" || op == ">>") return 8;
  if (op == "+" || op == "-") return 10;
  return 11;
}

bool is_postfix(TSNode n) {
  std::string_view t = type_of(n);
  return t == "call_expression" || t == "field_expression" || t == "index_expression" ||
         t == "slice_expression" || t == "try_expression" || t == "await_expression" ||
         t == "tuple_index_expression";
}

TSNode postfix_object(TSNode n) {
  std::string_view t = type_of(n);
  if (t == "call_expression") return field(n, "function");
  if (t == "try_expression") return field(n, "operand");
  return field(n, "object");
}

}  // namespace

Doc Formatter::expression(TSNode n) {
  std::string_view t = type_of(n);
  if (t == "binary_expression") return binary(n);
  if (is_postfix(n)) return chain(n);
  if (t == "range_expression")
    return concat({node(field(n, "start")), tok(field(n, "operator")), node(field(n, "end"))});
  if (t == "unary_expression") {
    TSNode op = field(n, "operator");
    return concat({tok(op), type_of(op) == "not" ? text(" ") : nullptr, node(field(n, "operand"))});
  }
  if (t == "parenthesized_expression")
    return concat({tok(n, "("), node(field(n, "expression")), tok(n, ")")});
  if (t == "tuple") {
    ListStyle style;
    style.shielded = true;
    style.single_comma = true;
    return delimited_children(n, "(", ")", style);
  }
  if (t == "list") {
    ListStyle style;
    style.keep_multiline = true;
    return delimited_children(n, "[", "]", style);
  }
  if (t == "map") {
    ListStyle style;
    style.keep_multiline = true;
    return delimited_children(n, "{", "}", style);
  }
  if (t == "map_entry" || t == "field_initializer" || t == "named_argument") {
    const char* key = t == "map_entry" ? "key" : "name";
    return concat({node(field(n, key)), tok(n, ":"), text(" "), node(field(n, "value"))});
  }
  if (t == "struct_literal") {
    ListStyle style;
    style.spaces = true;
    style.keep_multiline = true;
    std::vector<TSNode> fields_;
    for (TSNode c : named_children(n))
      if (is(c, "field_initializer")) fields_.push_back(c);
    Doc name = node(field(n, "name"));
    return concat({name, text(" "), delimited(token_child(n, "{"), fields_, last_token_child(n, "}"), style)});
  }
  if (t == "list_comprehension" || t == "map_comprehension") return comprehension(n);
  if (t == "for_clause") {
    return concat({tok(n, "for"), text(" "), node(field(n, "pattern")), text(" "), tok(n, "in"), text(" "),
                   node(field(n, "iterable"))});
  }
  if (t == "if_clause") return concat({tok(n, "if"), text(" "), node(field(n, "condition"))});
  if (t == "if_expression") return if_expression(n);
  if (t == "match_expression")
    return concat({tok(n, "match"), text(" "), node(field(n, "value")), text(" "), node(field(n, "body"))});
  if (t == "match_body") return braced(n, false);
  if (t == "match_arm") {
    std::vector<Doc> parts = {node(field(n, "pattern"))};
    TSNode guard = field(n, "guard");
    if (!ts_node_is_null(guard)) {
      parts.push_back(text(" "));
      parts.push_back(tok(n, "if"));
      parts.push_back(text(" "));
      parts.push_back(node(guard));
    }
    parts.push_back(text(" "));
    parts.push_back(tok(n, "=>"));
    parts.push_back(text(" "));
    parts.push_back(node(field(n, "value")));
    return concat(std::move(parts));
  }
  if (t == "lambda") return lambda(n);
  if (t == "arguments") return arguments(n);
  return type_expr(n);
}

// `a + b + c`: one group per run of operators of one precedence, broken after the operators.
Doc Formatter::binary(TSNode n) {
  std::vector<TSNode> operands;
  std::vector<TSNode> ops;
  int prec = precedence(type_of(field(n, "operator")));
  TSNode cur = n;
  while (is(cur, "binary_expression") && precedence(type_of(field(cur, "operator"))) == prec) {
    operands.push_back(field(cur, "right"));
    ops.push_back(field(cur, "operator"));
    TSNode left = field(cur, "left");
    // The left operand may carry comments at its edges; only flatten plain nesting.
    if (!is(left, "binary_expression")) {
      cur = left;
      break;
    }
    cur = left;
  }
  operands.push_back(cur);
  std::reverse(operands.begin(), operands.end());
  std::reverse(ops.begin(), ops.end());
  std::vector<Doc> rest;
  Doc first;
  // Build in source order: the innermost left operand first. Nested binary nodes skipped by the
  // flattening print their comments through the operands and operators around them.
  first = node(operands[0]);
  for (size_t i = 0; i < ops.size(); ++i) {
    rest.push_back(text(" "));
    rest.push_back(tok(ops[i]));
    rest.push_back(line());
    rest.push_back(node(operands[i + 1]));
  }
  return shielded_group(concat({first, indent(concat(std::move(rest)))}));
}

// `a.b(x).c(y)`: links start at each `.name`; with two or more calls the chain may break
// before each link.
Doc Formatter::chain(TSNode n) {
  std::vector<TSNode> ops;  // outermost first
  TSNode cur = n;
  while (is_postfix(cur)) {
    ops.push_back(cur);
    cur = postfix_object(cur);
  }
  std::reverse(ops.begin(), ops.end());
  Doc head = node(cur);
  // `0. 2` (index 2 of the literal 0) printed as `0.2` would read back as a float: a space
  // before the dot keeps the integer and the index apart.
  bool integer_head = is(cur, "integer") || (is(cur, "negative_literal") &&
                                             is(ts_node_child(cur, ts_node_child_count(cur) - 1), "integer"));
  if (integer_head && !ops.empty() && is(ops.front(), "tuple_index_expression")) head = concat({head, text(" ")});
  // Group the operations into links.
  std::vector<std::vector<TSNode>> links;
  std::vector<TSNode> head_ops;
  for (TSNode op : ops) {
    if (is(op, "field_expression"))
      links.push_back({op});
    else if (links.empty())
      head_ops.push_back(op);
    else
      links.back().push_back(op);
  }
  auto has_call = [](const std::vector<TSNode>& link) {
    return std::any_of(link.begin(), link.end(), [](TSNode op) { return is(op, "call_expression"); });
  };
  // Leading plain fields stay with the head: `self.items` in `self.items.map(f).len()`.
  size_t merged = 0;
  if (head_ops.empty())
    while (merged < links.size() && !has_call(links[merged])) ++merged;
  size_t calls = std::count_if(links.begin() + merged, links.end(), has_call);
  std::vector<Doc> head_parts = {head};
  for (TSNode op : head_ops) head_parts.push_back(postfix_op(op));
  for (size_t i = 0; i < merged; ++i)
    for (TSNode op : links[i]) head_parts.push_back(postfix_op(op));
  std::vector<Doc> link_docs;
  for (size_t i = merged; i < links.size(); ++i) {
    std::vector<Doc> parts;
    for (TSNode op : links[i]) parts.push_back(postfix_op(op));
    link_docs.push_back(concat(std::move(parts)));
  }
  if (calls < 2) {
    for (auto& d : link_docs) head_parts.push_back(d);
    return concat(std::move(head_parts));
  }
  std::vector<Doc> broken;
  for (auto& d : link_docs) {
    broken.push_back(softline());
    broken.push_back(d);
  }
  return shielded_group(concat({concat(std::move(head_parts)), indent(concat(std::move(broken)))}));
}

Doc Formatter::postfix_op(TSNode n) {
  std::string_view t = type_of(n);
  if (t == "call_expression") return node(field(n, "arguments"));
  if (t == "field_expression") return concat({tok(n, "."), node(field(n, "field"))});
  if (t == "tuple_index_expression") return concat({tok(n, "."), node(field(n, "index"))});
  if (t == "await_expression") return concat({tok(n, "."), tok(n, "await")});
  if (t == "try_expression") return tok(n, "?");
  if (t == "index_expression") return concat({tok(n, "["), node(field(n, "index")), tok(n, "]")});
  // slice_expression
  TSNode start = field(n, "start"), end = field(n, "end");
  return concat({tok(n, "["), ts_node_is_null(start) ? nullptr : node(start), tok(field(n, "operator")),
                 ts_node_is_null(end) ? nullptr : node(end), tok(n, "]")});
}

Doc Formatter::arguments(TSNode n) {
  ListStyle style;
  style.shielded = true;
  style.hug_last = true;
  return delimited_children(n, "(", ")", style);
}

Doc Formatter::lambda(TSNode n) {
  std::vector<Doc> parts;
  TSNode async = field(n, "async");
  if (!ts_node_is_null(async)) {
    parts.push_back(tok(async));
    parts.push_back(text(" "));
  }
  parts.push_back(tok(n, "fn"));
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

Doc Formatter::if_expression(TSNode n) {
  std::vector<Doc> parts = {tok(n, "if"), text(" "), node(field(n, "condition")), text(" "),
                            node(field(n, "consequence"))};
  TSNode alt = field(n, "alternative");
  if (!ts_node_is_null(alt)) {
    parts.push_back(text(" "));
    parts.push_back(tok(n, "else"));
    parts.push_back(text(" "));
    parts.push_back(node(alt));
  }
  return concat(std::move(parts));
}

// `[body for p in xs if c]`, broken before each clause when too long.
Doc Formatter::comprehension(TSNode n) {
  bool is_map = is(n, "map_comprehension");
  TSNode open = token_child(n, is_map ? "{" : "[");
  TSNode close = last_token_child(n, is_map ? "}" : "]");
  Doc open_doc = tok(open);  // first: documents are built in source order
  std::vector<Doc> head;
  if (is_map)
    head = {node(field(n, "key")), tok(n, ":"), text(" "), node(field(n, "value"))};
  else
    head = {node(field(n, "body"))};
  std::vector<Doc> clauses;
  for (TSNode c : named_children(n)) {
    if (!is(c, "for_clause") && !is(c, "if_clause")) continue;
    clauses.push_back(line());
    clauses.push_back(node(c));
  }
  std::vector<Comment*> before_close = take_leading(start_of(close));
  Doc close_comments = leading_doc(before_close, true);
  return group(concat({open_doc, indent(concat({softline(), concat(std::move(head)), concat(std::move(clauses)),
                                                 close_comments})),
                       softline(), tok(close)}));
}

}  // namespace fitz::format
