// Reading a `.fitzv` tree into the IR skeleton (names, spans, code text; no types yet) and the
// checks that need no types: forbidden markup, keyed loop roots, state defaults, reserved names,
// duplicate blocks and duplicate constant keys.
#include <fmt/format.h>

#include <cctype>
#include <cstring>
#include <set>

#include "checker/view_internal.h"

namespace fitz::checker {

using frontend::DiagKind;

std::string_view trim_code(std::string_view s, uint32_t& offset) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1), ++offset;
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

namespace {

constexpr const char* kHookNames[] = {"mount", "unmount", "every", "message", "presence"};

bool is_hook_name(std::string_view n) {
  for (const char* h : kHookNames)
    if (n == h) return true;
  return false;
}

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

class ViewReader {
 public:
  ViewReader(ViewUnit& unit, frontend::DiagnosticBag& diags)
      : unit_(unit), text_(unit.text), file_(unit.view.file), diags_(diags) {}

  void run() {
    TSNode root = unit_.tree.root();
    for (uint32_t i = 0; i < ts_node_named_child_count(root); ++i) {
      TSNode n = ts_node_named_child(root, i);
      std::string_view t = ts_node_type(n);
      if (t == "import_statement") read_import(n);
      if (t == "component") read_component(n);
    }
  }

 private:
  std::string_view text(TSNode n) const {
    return std::string_view(text_).substr(ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
  }
  Span span(TSNode n) const { return Span{file_, ts_node_start_byte(n), ts_node_end_byte(n)}; }
  TSNode field(TSNode n, const char* name) const {
    return ts_node_child_by_field_name(n, name, static_cast<uint32_t>(std::strlen(name)));
  }

  ViewExpr expr_of(TSNode n) {
    ViewExpr e;
    uint32_t at = ts_node_start_byte(n);
    e.text = std::string(trim_code(text(n), at));
    e.span = Span{file_, at, at + static_cast<uint32_t>(e.text.size())};
    return e;
  }

  void set_type(TSNode t, std::string& out, Span& at) {
    uint32_t b = ts_node_start_byte(t);
    out = std::string(trim_code(text(t), b));
    at = Span{file_, b, b + static_cast<uint32_t>(out.size())};
  }

  void read_import(TSNode n) {
    unit_.view.imports.emplace_back(text(n));
    unit_.import_lines.emplace_back(ts_node_start_byte(n), std::string(text(n)));
    std::string module(text(field(n, "path")));
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (std::string_view(ts_node_type(c)) != "import_name") continue;
      std::string name(text(field(c, "name")));
      TSNode alias = field(c, "alias");
      std::string local = ts_node_is_null(alias) ? name : std::string(text(alias));
      unit_.imported[local] = {module, name};
    }
  }

  // `name: Type = default` lists of props, state and derived.
  void read_fields(TSNode block, std::vector<ViewField>& out, bool need_default, const char* what) {
    TSNode list = field(block, "fields");
    for (uint32_t i = 0; i < ts_node_named_child_count(list); ++i) {
      TSNode f = ts_node_named_child(list, i);
      if (std::string_view(ts_node_type(f)) != "field_declaration") continue;
      ViewField vf;
      vf.name = std::string(text(field(f, "name")));
      vf.span = span(field(f, "name"));
      set_type(field(f, "type"), vf.type_text, vf.type_span);
      TSNode def = field(f, "default");
      if (!ts_node_is_null(def)) vf.default_value = expr_of(def);
      if (need_default && !vf.default_value)
        diags_.error(DiagKind::ViewStateDefault, vf.span, fmt::format("{} field `{}` has no default", what, vf.name))
            .with_hint(fmt::format("give it a starting value: `{}: {} = ...`", vf.name, vf.type_text));
      out.push_back(std::move(vf));
    }
  }

  std::vector<ViewParam> read_params(TSNode params) {
    std::vector<ViewParam> out;
    if (ts_node_is_null(params)) return out;
    for (uint32_t i = 0; i < ts_node_named_child_count(params); ++i) {
      TSNode p = ts_node_named_child(params, i);
      if (std::string_view(ts_node_type(p)) != "parameter") continue;
      ViewParam vp;
      vp.name = std::string(text(field(p, "name")));
      vp.span = span(field(p, "name"));
      set_type(field(p, "type"), vp.type_text, vp.type_span);
      vp.has_default = !ts_node_is_null(field(p, "default"));
      out.push_back(std::move(vp));
    }
    return out;
  }

  void read_body(TSNode block, ViewHandler& h) {
    TSNode code = field(block, "code");
    if (ts_node_is_null(code)) {
      h.body_span = Span{file_, ts_node_end_byte(block) - 1, ts_node_end_byte(block) - 1};
      return;
    }
    h.body = std::string(text(code));
    h.body_span = span(code);
  }

  void read_component(TSNode n) {
    ViewComponent c;
    TSNode name = field(n, "name");
    c.name = std::string(text(name));
    c.span = span(name);
    TSNode hyd = field(n, "hydrate");
    if (!ts_node_is_null(hyd)) {
      c.hydrate = true;
      diags_.warning(DiagKind::ViewHydrateIgnored, span(hyd), "`hydrate` is ignored: views render on the server")
          .with_hint("the component still works: it renders on the server and updates over the live socket");
    }
    std::unordered_map<std::string, Span> seen;  // blocks that may appear once
    auto once = [&](const std::string& key, TSNode at) {
      auto [it, fresh] = seen.emplace(key, span(at));
      if (!fresh)
        diags_.error(DiagKind::ViewComponentDecl, span(at), fmt::format("`{}` appears twice in component `{}`", key, c.name))
            .with_label(it->second, "first here");
      return fresh;
    };
    std::vector<ViewHandler> events;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
      TSNode m = ts_node_named_child(n, i);
      std::string_view t = ts_node_type(m);
      TSNode head = ts_node_child(m, 0);
      if (t == "props_block") {
        if (once("props", head)) read_fields(m, c.props, false, "prop"), c.has_props_block = true;
      } else if (t == "state_block") {
        if (once("state", head)) read_fields(m, c.state, true, "state");
      } else if (t == "derived_block") {
        if (once("derived", head)) read_fields(m, c.derived, true, "derived");
      } else if (t == "event_definition") {
        ViewHandler h;
        h.kind = ViewHandler::Kind::Event;
        h.name = std::string(text(field(m, "name")));
        h.span = span(field(m, "name"));
        h.is_async = !ts_node_is_null(field(m, "async"));
        h.params = read_params(field(m, "parameters"));
        read_body(field(m, "body"), h);
        if (is_hook_name(h.name))
          diags_.error(DiagKind::ViewReservedEvent, h.span, fmt::format("`{}` is a hook name and cannot name an event", h.name))
              .with_hint(fmt::format("write `on {} {{ ... }}` for the hook, or rename the event", h.name));
        for (const ViewHandler& e : c.events)
          if (e.name == h.name)
            diags_.error(DiagKind::ViewComponentDecl, h.span, fmt::format("event `{}` is declared twice", h.name))
                .with_label(e.span, "first here");
        c.events.push_back(std::move(h));
      } else if (t == "hook") {
        ViewHandler h;
        h.name = std::string(text(field(m, "name")));
        h.span = span(field(m, "name"));
        h.is_async = !ts_node_is_null(field(m, "async"));
        h.params = read_params(field(m, "parameters"));
        TSNode arg = field(m, "argument");
        if (!ts_node_is_null(arg)) h.argument = std::string(text(arg));
        read_body(field(m, "body"), h);
        using K = ViewHandler::Kind;
        if (h.name == "mount") h.kind = K::Mount;
        else if (h.name == "unmount") h.kind = K::Unmount;
        else if (h.name == "every") h.kind = K::Every;
        else if (h.name == "message") h.kind = K::Message;
        else if (h.name == "presence") h.kind = K::Presence;
        else {
          diags_.error(DiagKind::ViewReservedEvent, h.span, fmt::format("unknown hook `on {}`", h.name))
              .with_hint("hooks are `mount`, `unmount`, `every`, `message` and `presence`; handlers the page calls are `event`s");
          continue;
        }
        bool wants_arg = h.kind == K::Every || h.kind == K::Message || h.kind == K::Presence;
        if (wants_arg && h.argument.empty())
          diags_.error(DiagKind::ViewReservedEvent, h.span,
                       fmt::format("`on {}` needs {}", h.name, h.kind == K::Every ? "an interval (`on every 1s`)" : "a topic string"));
        c.hooks.push_back(std::move(h));
      } else if (t == "template") {
        if (once("<template>", head)) {
          component_ = &c;
          c.template_nodes = read_nodes(m);
          component_ = nullptr;
        }
      } else if (t == "style_block") {
        TSNode mode = field(m, "mode");
        std::string key = ts_node_is_null(mode) ? "scoped" : std::string(text(mode));
        if (once("<style " + key + ">", head)) {
          TSNode content = field(m, "content");
          (key == "global" ? c.global_style : c.scoped_style) = ts_node_is_null(content) ? "" : std::string(text(content));
        }
      }
    }
    if (!seen.count("<template>"))
      diags_.error(DiagKind::ViewComponentDecl, c.span, fmt::format("component `{}` has no `<template>`", c.name))
          .with_hint("every component renders a `<template> ... </template>`");
    for (const ViewComponent& o : unit_.view.components)
      if (o.name == c.name)
        diags_.error(DiagKind::ViewComponentDecl, c.span, fmt::format("component `{}` is declared twice", c.name))
            .with_label(o.span, "first here");
    unit_.view.components.push_back(std::move(c));
  }

  // ---- template ----

  bool space_at(uint32_t byte) const {
    return byte < text_.size() && std::isspace(static_cast<unsigned char>(text_[byte]));
  }

  // The template nodes among `parent`'s children (skipping its own punctuation and clauses).
  // The scanner trims text tokens. Inside an element the trimmed edges stay trimmed (the
  // indentation around `<p>\n  Count: {n}\n</p>`), but whitespace between text and a sibling
  // element, or at the edges of a `{#if}`/`{#for}` body, is one space: `<b>{who}</b>: {text}` and
  // `{n}{#if live} (live){/if}` keep their words apart, as in the browser's DOM.
  ViewNodes read_nodes(TSNode parent, bool block = false) {
    ViewNodes out;
    ViewNode* text_run = nullptr;  // adjacent text and interpolations merge into one node
    uint32_t count = ts_node_named_child_count(parent);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode n = ts_node_named_child(parent, i);
      std::string_view t = ts_node_type(n);
      if (t == "text" || t == "interpolation") {
        if (!text_run) {
          out.push_back(ViewNode{});
          text_run = &out.back();
          text_run->kind = ViewNode::Kind::Text;
          text_run->span = span(n);
          text_run->parts.emplace_back();
          uint32_t start = ts_node_start_byte(n);
          if ((block || out.size() > 1) && start > 0 && space_at(start - 1)) text_run->parts.back() += ' ';
        }
        bool last_of_run = true;
        for (uint32_t j = i + 1; j < count && last_of_run; ++j) {
          std::string_view next = ts_node_type(ts_node_named_child(parent, j));
          if (next == "html_comment" || next == "comment") continue;
          last_of_run = next != "text" && next != "interpolation";
        }
        // The scanner trims text tokens: whitespace between two pieces of one run is a space.
        if (ts_node_start_byte(n) > text_run->span.end) text_run->parts.back() += ' ';
        text_run->span.end = ts_node_end_byte(n);
        if (t == "text") {
          text_run->parts.back() += text(n);
        } else {
          TSNode e = field(n, "expression");
          if (ts_node_is_null(e)) continue;
          text_run->exprs.push_back(expr_of(e));
          text_run->parts.emplace_back();
        }
        if (last_of_run && space_at(ts_node_end_byte(n)) && (block || has_sibling_after(parent, i)))
          text_run->parts.back() += ' ';
        continue;
      }
      if (t == "html_comment" || t == "comment") continue;
      text_run = nullptr;
      if (t == "element") out.push_back(read_element(n));
      else if (t == "if_block") out.push_back(read_if(n));
      else if (t == "for_block") out.push_back(read_for(n));
      else if (t == "script_element")
        diags_.error(DiagKind::ViewForbiddenMarkup, span(ts_node_child(n, 0)), "`<script>` is not allowed in a view template")
            .with_hint("behaviour goes in `event` handlers bound with `@click=` and friends; the live client script is added by the layout");
      else if (t == "style_element")
        diags_.error(DiagKind::ViewForbiddenMarkup, span(ts_node_child(n, 0)), "`<style>` is not allowed inside `<template>`")
            .with_hint("move it to a `<style scoped>` or `<style global>` block of the component");
    }
    check_sibling_keys(out);
    return out;
  }

  // Whether an element or block follows child `i` of `parent` (comments do not count).
  bool has_sibling_after(TSNode parent, uint32_t i) const {
    for (uint32_t j = i + 1; j < ts_node_named_child_count(parent); ++j) {
      std::string_view t = ts_node_type(ts_node_named_child(parent, j));
      if (t == "element" || t == "if_block" || t == "for_block") return true;
    }
    return false;
  }

  ViewNode read_element(TSNode n) {
    ViewNode v;
    v.span = span(n);
    TSNode start = field(n, "start");
    TSNode tag = field(start, "tag");
    std::string tag_text(text(tag));
    bool component = !tag_text.empty() && std::isupper(static_cast<unsigned char>(tag_text[0]));
    v.kind = component ? ViewNode::Kind::Component : ViewNode::Kind::Element;
    v.tag = component ? tag_text : lower(tag_text);
    if (!component && v.tag == "slot") v.kind = ViewNode::Kind::Slot;
    v.span = span(tag);
    for (uint32_t i = 0; i < ts_node_named_child_count(start); ++i) {
      TSNode a = ts_node_named_child(start, i);
      std::string_view t = ts_node_type(a);
      if (t == "attribute") read_attribute(a, v);
      else if (t == "event_binding") read_event_binding(a, v);
      else if (t == "directive_attribute") read_directive(a, v);
    }
    v.children = read_nodes(n);
    if (v.kind == ViewNode::Kind::Slot) {
      for (const ViewAttr& a : v.attrs)
        if (a.name == "name" && a.kind == ViewAttr::Kind::Static) v.slot_name = a.value;
      for (const std::string& s : component_->slots)
        if (s == v.slot_name)
          diags_.error(DiagKind::ViewSlot, v.span,
                       v.slot_name.empty() ? std::string("the default `<slot/>` appears twice")
                                           : fmt::format("slot `{}` appears twice", v.slot_name));
      component_->slots.push_back(v.slot_name);
    }
    v.is_static = v.kind == ViewNode::Kind::Element;
    for (const ViewAttr& a : v.attrs)
      if (a.kind != ViewAttr::Kind::Static) v.is_static = false;
    for (const ViewNode& c : v.children)
      if (!(c.is_static || (c.kind == ViewNode::Kind::Text && c.exprs.empty()))) v.is_static = false;
    return v;
  }

  void read_attribute(TSNode a, ViewNode& v) {
    ViewAttr attr;
    attr.span = span(a);
    attr.name = std::string(text(field(a, "name")));
    std::string lname = lower(attr.name);
    if (lname.size() > 2 && lname.starts_with("on") && v.kind != ViewNode::Kind::Component) {
      diags_.error(DiagKind::ViewForbiddenMarkup, span(field(a, "name")),
                   fmt::format("`{}=` attributes are not allowed: inline scripts never run in a live view", attr.name))
          .with_hint(fmt::format("bind a handler instead: `@{}=\"handler\"`", lname.substr(2)));
      return;
    }
    if (v.kind != ViewNode::Kind::Component) attr.name = lname;
    TSNode value = field(a, "value");
    if (ts_node_is_null(value)) {
      v.attrs.push_back(std::move(attr));
      return;
    }
    std::string_view vt = ts_node_type(value);
    if (vt == "unquoted_attribute_value") {
      attr.value = std::string(text(value));
    } else if (vt == "interpolation") {
      TSNode e = field(value, "expression");
      attr.kind = ViewAttr::Kind::Interpolated;  // Boolean once its type is known to be Bool
      attr.parts = {"", ""};
      if (!ts_node_is_null(e)) attr.exprs.push_back(expr_of(e));
      else attr.parts = {""};
    } else {  // quoted: text and interpolations
      attr.parts.emplace_back();
      for (uint32_t i = 0; i < ts_node_named_child_count(value); ++i) {
        TSNode p = ts_node_named_child(value, i);
        if (std::string_view(ts_node_type(p)) == "interpolation") {
          TSNode e = field(p, "expression");
          if (ts_node_is_null(e)) continue;
          attr.exprs.push_back(expr_of(e));
          attr.parts.emplace_back();
        } else {
          attr.parts.back() += text(p);
        }
      }
      if (attr.exprs.empty()) {
        attr.value = attr.parts.front();
        attr.parts.clear();
      } else {
        attr.kind = ViewAttr::Kind::Interpolated;
      }
    }
    v.attrs.push_back(std::move(attr));
  }

  // `@click="remove(id: t.id)"`: a handler name and named arguments.
  void read_event_binding(TSNode a, ViewNode& v) {
    ViewAttr attr;
    attr.kind = ViewAttr::Kind::Event;
    attr.span = span(a);
    attr.name = std::string(text(field(a, "event")));
    TSNode h = field(a, "handler");
    if (ts_node_is_null(h)) {
      diags_.error(DiagKind::ViewEventBinding, attr.span, fmt::format("`@{}` names no handler", attr.name))
          .with_hint(fmt::format("write `@{}=\"handler\"`", attr.name));
      return;
    }
    if (std::string_view(ts_node_type(h)) == "interpolation") h = field(h, "expression");
    if (ts_node_is_null(h)) return;
    uint32_t at = ts_node_start_byte(h);
    std::string_view code = trim_code(text(h), at);
    size_t open = code.find('(');
    std::string_view name = code.substr(0, open);
    uint32_t name_at = at;
    name = trim_code(name, name_at);
    attr.value = std::string(name);
    attr.span = Span{file_, name_at, name_at + static_cast<uint32_t>(name.size())};
    if (open != std::string_view::npos) {
      size_t close = code.rfind(')');
      if (close == std::string_view::npos || close < open) close = code.size();
      split_arguments(code.substr(open + 1, close - open - 1), at + static_cast<uint32_t>(open + 1), attr);
    }
    v.attrs.push_back(std::move(attr));
  }

  // Splits `id: t.id, n: 2` at top-level commas (outside brackets and strings).
  void split_arguments(std::string_view args, uint32_t at, ViewAttr& attr) {
    size_t start = 0;
    int depth = 0;
    char quote = 0;
    for (size_t i = 0; i <= args.size(); ++i) {
      char ch = i < args.size() ? args[i] : ',';
      if (quote) {
        if (ch == '\\') ++i;
        else if (ch == quote) quote = 0;
        continue;
      }
      if (ch == '"' || ch == '\'') quote = ch;
      else if (ch == '(' || ch == '[' || ch == '{') ++depth;
      else if (ch == ')' || ch == ']' || ch == '}') --depth;
      else if (ch == ',' && depth == 0) {
        uint32_t piece_at = at + static_cast<uint32_t>(start);
        std::string_view piece = trim_code(args.substr(start, i - start), piece_at);
        start = i + 1;
        if (piece.empty()) continue;
        size_t colon = piece.find(':');
        bool named = colon != std::string_view::npos;
        for (size_t k = 0; named && k < colon; ++k)
          if (!(std::isalnum(static_cast<unsigned char>(piece[k])) || piece[k] == '_' || piece[k] == ' ')) named = false;
        if (!named) {
          diags_.error(DiagKind::ViewEventBinding, Span{file_, piece_at, piece_at + static_cast<uint32_t>(piece.size())},
                       "event arguments are named: `handler(name: value)`")
              .with_hint("the name is the handler parameter (and the payload key) the value goes to");
          continue;
        }
        uint32_t name_at = piece_at;
        std::string_view pname = trim_code(piece.substr(0, colon), name_at);
        uint32_t value_at = piece_at + static_cast<uint32_t>(colon + 1);
        std::string_view value = trim_code(piece.substr(colon + 1), value_at);
        ViewExpr e;
        e.text = std::string(value);
        e.span = Span{file_, value_at, value_at + static_cast<uint32_t>(value.size())};
        attr.arg_names.emplace_back(pname);
        attr.exprs.push_back(std::move(e));
      }
    }
  }

  void read_directive(TSNode a, ViewNode& v) {
    ViewAttr attr;
    attr.span = span(a);
    std::string kind(text(field(a, "kind")));
    attr.name = std::string(text(field(a, "name")));
    attr.kind = kind == "class" ? ViewAttr::Kind::Class : kind == "bind" ? ViewAttr::Kind::Bind : ViewAttr::Kind::Other;
    if (attr.kind == ViewAttr::Kind::Other) attr.name = kind + ":" + attr.name;
    TSNode value = field(a, "value");
    if (!ts_node_is_null(value)) {
      TSNode e = std::string_view(ts_node_type(value)) == "interpolation" ? field(value, "expression") : TSNode{};
      if (!ts_node_is_null(e) && e.id) {
        attr.exprs.push_back(expr_of(e));
        if (attr.kind == ViewAttr::Kind::Bind) attr.value = attr.exprs.back().text;
      } else {
        attr.value = std::string(text(value));
      }
    }
    v.attrs.push_back(std::move(attr));
  }

  ViewNode read_if(TSNode n) {
    ViewNode v;
    v.kind = ViewNode::Kind::If;
    v.span = span(ts_node_child(n, 0));
    v.exprs.push_back(expr_of(field(n, "condition")));
    v.branches.push_back(read_nodes(n, true));
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
      TSNode c = ts_node_named_child(n, i);
      std::string_view t = ts_node_type(c);
      if (t == "else_if_clause") {
        v.exprs.push_back(expr_of(field(c, "condition")));
        v.branches.push_back(read_nodes(c, true));
      } else if (t == "else_clause") {
        v.branches.push_back(read_nodes(c, true));
      }
    }
    return v;
  }

  ViewNode read_for(TSNode n) {
    ViewNode v;
    v.kind = ViewNode::Kind::For;
    v.span = span(ts_node_child(n, 0));
    TSNode item = field(n, "item");
    if (std::string_view(ts_node_type(item)) == "tuple_pattern") {
      for (uint32_t i = 0; i < ts_node_named_child_count(item); ++i) v.loop_vars.emplace_back(text(ts_node_named_child(item, i)));
    } else {
      v.loop_vars.emplace_back(text(item));
    }
    TSNode index = field(n, "index");
    if (!ts_node_is_null(index)) v.index_var = std::string(text(index));
    v.exprs.push_back(expr_of(field(n, "iterable")));
    TSNode key = field(n, "key");
    v.keyed = !ts_node_is_null(key);
    if (v.keyed) v.exprs.push_back(expr_of(key));
    v.children = read_nodes(n, true);
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (std::string_view(ts_node_type(c)) == "empty_clause") v.empty = read_nodes(c, true);
    }
    if (v.keyed) {
      size_t roots = 0;
      for (const ViewNode& c : v.children)
        roots += (c.kind == ViewNode::Kind::Text && c.exprs.empty() && is_blank(c.parts.front())) ? 0 : 1;
      const ViewNode* root = nullptr;
      for (const ViewNode& c : v.children)
        if (!(c.kind == ViewNode::Kind::Text && c.exprs.empty() && is_blank(c.parts.front()))) root = &c;
      bool element = roots == 1 && root && (root->kind == ViewNode::Kind::Element || root->kind == ViewNode::Kind::Component);
      if (!element)
        diags_.error(DiagKind::ViewKeyedLoopRoot, v.exprs[1].span,
                     roots == 0 ? std::string("a keyed loop needs exactly one root element, this one has none")
                                : fmt::format("a keyed loop needs exactly one root element, this one has {}",
                                              roots == 1 ? std::string("text or a block") : std::to_string(roots) + " roots"))
            .with_label(v.span, "in this loop")
            .with_hint("wrap the body in one element (`<li>...</li>`): the key identifies it when the list changes");
      const ViewExpr& k = v.exprs[1];
      if (!k.text.empty() && (k.text.front() == '"' || std::isdigit(static_cast<unsigned char>(k.text.front()))) &&
          k.text.find('{') == std::string::npos)
        diags_.error(DiagKind::ViewDuplicateKey, k.span, fmt::format("every item of this loop gets the same key `{}`", k.text))
            .with_hint("keys must be unique within the loop: use a field of the item, such as `key=item.id`");
    }
    return v;
  }

  static bool is_blank(std::string_view s) {
    for (char c : s)
      if (!std::isspace(static_cast<unsigned char>(c))) return false;
    return true;
  }

  // Sibling elements with the same static `key`/`data-flv-key` attribute.
  void check_sibling_keys(const ViewNodes& nodes) {
    std::unordered_map<std::string, Span> seen;
    for (const ViewNode& n : nodes)
      for (const ViewAttr& a : n.attrs) {
        if (a.kind != ViewAttr::Kind::Static || (a.name != "key" && a.name != "data-flv-key")) continue;
        auto [it, fresh] = seen.emplace(a.value, a.span);
        if (!fresh)
          diags_.error(DiagKind::ViewDuplicateKey, a.span, fmt::format("duplicate key `{}` among sibling elements", a.value))
              .with_label(it->second, "first used here");
      }
  }

  ViewUnit& unit_;
  const std::string& text_;
  FileId file_;
  frontend::DiagnosticBag& diags_;
  ViewComponent* component_ = nullptr;
};

}  // namespace

void read_view(ViewUnit& unit, frontend::DiagnosticBag& diags) {
  ViewReader(unit, diags).run();
}

}  // namespace fitz::checker
