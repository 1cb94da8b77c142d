// The Fitz module generated for a view, so that the real parser, lowering and checker type its
// code instead of a second implementation. Each component becomes:
//   - `type Name { props }`: the props as a struct, which importers and `@live` fns construct;
//   - one function per event and hook, and one for its state defaults and derived values, each
//     opening with locals for the props, state, derived values, `ctx` and `payload`;
//   - a render function that walks the template with real `if`/`for` statements, so loop
//     variables and null narrowing scope the way §1.4 says, and binds every interpolation.
// Code copied from the view is recorded as segments, so diagnostics and lowered expressions map
// back to the .fitzv text byte for byte. A name written twice (a type in several preludes) may
// be diagnosed twice at the same view span; the diagnostic bag keeps one.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "checker/view_internal.h"

namespace fitz::checker {

namespace {

// `ctx` of §1.3 as ordinary Fitz types, so its members check like any other.
constexpr const char* kPrelude = R"(
fn __fz_any() -> Any { return null }
type FitzViewPresence {
  fn track(topic: Str, key: Str, meta: Any) { }
}
type FitzViewCtx {
  user: Any = null
  session: Str = ""
  params: Map<Str, Str> = {}
  query: Map<Str, Str> = {}
  connected: Bool = false
  presence: FitzViewPresence = FitzViewPresence {}
  fn publish(topic: Str, value: Any) { }
  fn redirect(url: Str, external: Bool = false) { }
}
)";

// An `emit name(args)` statement of a body (§1.3): where `emit` starts, where the event name
// starts, the argument names (a positional argument is named by its position) and where each
// argument's value is in the body (begin, end), so the checker can type it.
struct EmitStmt {
  size_t at = 0, name_at = 0;
  std::string name;
  std::vector<std::string> args;
  std::vector<std::pair<size_t, size_t>> values;
};

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The argument names of the call arguments in `args` (the text between its parentheses, which
// starts at `base` in the body) into `st`, with where each value is in the body.
void emit_args(std::string_view args, size_t base, EmitStmt& st) {
  std::vector<std::string>& out = st.args;
  int depth = 0;
  size_t start = 0;
  auto piece = [&](std::string_view p) {
    size_t b = p.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return;
    size_t last = p.find_last_not_of(" \t\r\n") + 1;
    size_t e = b;
    while (e < p.size() && ident_char(p[e])) ++e;
    size_t colon = e;
    while (colon < p.size() && (p[colon] == ' ' || p[colon] == '\t')) ++colon;
    bool named = e > b && !std::isdigit(static_cast<unsigned char>(p[b])) && colon < p.size() && p[colon] == ':' &&
                 (colon + 1 >= p.size() || p[colon + 1] != ':');
    out.push_back(named ? std::string(p.substr(b, e - b)) : fmt::format("arg{}", out.size()));
    size_t v = named ? colon + 1 : b;
    while (v < last && std::isspace(static_cast<unsigned char>(p[v]))) ++v;
    size_t at = base + static_cast<size_t>(p.data() - args.data());
    st.values.emplace_back(at + v, at + std::max(v, last));
  };
  for (size_t i = 0; i < args.size(); ++i) {
    char c = args[i];
    if (c == '"') {
      for (++i; i < args.size() && args[i] != '"'; ++i)
        if (args[i] == '\\') ++i;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (c == ',' && depth == 0) {
      piece(args.substr(start, i - start));
      start = i + 1;
    }
  }
  piece(args.substr(start));
}

// The `emit` statements of a body: the keyword at the start of a statement, then an event name
// and a parenthesised argument list. Strings and comments are skipped.
std::vector<EmitStmt> find_emits(std::string_view body) {
  std::vector<EmitStmt> out;
  size_t i = 0;
  while (i < body.size()) {
    char c = body[i];
    if (c == '/' && i + 1 < body.size() && body[i + 1] == '/') {
      while (i < body.size() && body[i] != '\n') ++i;
      continue;
    }
    if (c == '"') {
      for (++i; i < body.size() && body[i] != '"'; ++i)
        if (body[i] == '\\') ++i;
      ++i;
      continue;
    }
    if (!ident_char(c) || (i > 0 && (ident_char(body[i - 1]) || body[i - 1] == '.'))) {
      ++i;
      continue;
    }
    size_t e = i;
    while (e < body.size() && ident_char(body[e])) ++e;
    if (body.substr(i, e - i) != "emit") {
      i = e;
      continue;
    }
    size_t before = i;
    while (before > 0 && (body[before - 1] == ' ' || body[before - 1] == '\t')) --before;
    bool statement = before == 0 || std::string_view("\n{};").find(body[before - 1]) != std::string_view::npos;
    size_t n = e;
    while (n < body.size() && (body[n] == ' ' || body[n] == '\t')) ++n;
    size_t ne = n;
    while (ne < body.size() && ident_char(body[ne])) ++ne;
    size_t open = ne;
    while (open < body.size() && (body[open] == ' ' || body[open] == '\t')) ++open;
    if (!statement || n == e || ne == n || open >= body.size() || body[open] != '(') {
      i = e;
      continue;
    }
    int depth = 0;
    size_t close = open;
    for (; close < body.size(); ++close) {
      if (body[close] == '"') {
        for (++close; close < body.size() && body[close] != '"'; ++close)
          if (body[close] == '\\') ++close;
      } else if (body[close] == '(') {
        ++depth;
      } else if (body[close] == ')' && --depth == 0) {
        break;
      }
    }
    EmitStmt st;
    st.at = i;
    st.name_at = n;
    st.name = std::string(body.substr(n, ne - n));
    if (close < body.size()) emit_args(body.substr(open + 1, close - open - 1), open + 1, st);
    out.push_back(std::move(st));
    i = ne;
  }
  return out;
}

class CodeWriter {
 public:
  explicit CodeWriter(ViewUnit& unit) : u_(unit) {}

  void run() {
    out_ = "// generated from a .fitzv view; not a source file\n";
    for (auto& [at, line] : u_.import_lines) {
      copy(at, line);
      out_ += "\n";
    }
    out_ += kPrelude;
    for (ViewComponent& c : u_.view.components) {
      uint32_t begin = size();
      // A second component of one name is diagnosed by the reader; generating it again would
      // only add clashes in generated code.
      bool again = false;
      for (ViewComponent& o : u_.view.components) {
        if (&o == &c) break;
        again |= o.name == c.name;
      }
      if (!again) component(c);
      u_.component_code.emplace_back(begin, size());
    }
    u_.code = std::move(out_);
  }

 private:
  uint32_t size() const { return static_cast<uint32_t>(out_.size()); }

  CodeRef copy(uint32_t view_at, std::string_view text, bool condition = false) {
    CodeRef r{size(), 0};
    out_ += text;
    r.end = size();
    u_.segments.push_back({r.begin, r.end, view_at, condition, in_template_});
    return r;
  }
  void expr(ViewExpr& e, bool condition = false) {
    if (e.text.empty()) return;
    u_.exprs.push_back({&e, copy(e.span.begin, e.text, condition)});
  }
  void type(const std::string& text, Span at, TypeId* into) {
    CodeRef r = copy(at.begin, text);
    if (into) u_.types.push_back({into, r});
  }
  // `name: T = value` with the value as a temporary statement of its own.
  void bind(ViewExpr& e) {
    if (e.text.empty()) return;
    out_ += fmt::format("{}__fz_v{} = (", indent_, next_++);
    expr(e);
    out_ += ")\n";
  }

  // The locals every body of `c` opens with, except names its parameters take.
  void prelude(ViewComponent& c, const std::vector<ViewParam>& params) {
    auto taken = [&](const std::string& n) {
      for (const ViewParam& p : params)
        if (p.name == n) return true;
      return false;
    };
    auto decl = [&](ViewField& f, int read_only) {
      if (taken(f.name)) return;
      uint32_t at = size();
      out_ += fmt::format("  {}: ", f.name);
      type(f.type_text, f.type_span, nullptr);
      out_ += " = __fz_any()\n";
      if (read_only >= 0) u_.read_only.push_back({at, read_only == 1});
    };
    for (ViewField& f : c.props) decl(f, 0);
    for (ViewField& f : c.state) decl(f, -1);
    for (ViewField& f : c.derived) decl(f, 1);
    if (!taken("ctx")) out_ += "  ctx: FitzViewCtx = __fz_any()\n";
    if (!taken("payload")) out_ += "  payload: Map<Str, Str> = __fz_any()\n";
  }

  void params(std::vector<ViewParam>& ps) {
    out_ += "(";
    for (size_t i = 0; i < ps.size(); ++i) {
      if (i) out_ += ", ";
      out_ += ps[i].name + ": ";
      type(ps[i].type_text, ps[i].type_span, &ps[i].type);
    }
    out_ += ")";
  }

  void component(ViewComponent& c) {
    // The props struct: field defaults are checked once, here.
    out_ += fmt::format("\ntype {} {{\n", c.name);
    for (ViewField& p : c.props) {
      out_ += fmt::format("  {}: ", p.name);
      type(p.type_text, p.type_span, &p.type);
      if (p.default_value) {
        out_ += " = ";
        expr(*p.default_value);
      }
      out_ += "\n";
    }
    out_ += "}\n";

    // State defaults and derived values, in order: a derived value sees the ones before it.
    out_ += fmt::format("\nfn __fz_{}_init() {{\n", c.name);
    for (ViewField& p : c.props) {
      out_ += fmt::format("  {}: ", p.name);
      type(p.type_text, p.type_span, nullptr);
      out_ += " = __fz_any()\n";
    }
    out_ += "  ctx: FitzViewCtx = __fz_any()\n";
    for (auto* list : {&c.state, &c.derived})
      for (ViewField& f : *list) {
        out_ += fmt::format("  {}: ", f.name);
        type(f.type_text, f.type_span, &f.type);
        out_ += " = ";
        if (f.default_value) {
          out_ += "(";
          expr(*f.default_value);
          out_ += ")\n";
        } else {
          out_ += "__fz_any()\n";
        }
      }
    out_ += "}\n";

    // `emit name(args)` becomes a call of a method of a per-component type: its arguments
    // check as a call's, and the method's body (codegen) hands them to the parent.
    std::vector<std::pair<std::string, std::vector<std::string>>> emits;
    for (auto* list : {&c.events, &c.hooks})
      for (const ViewHandler& h : *list)
        for (EmitStmt& e : find_emits(h.body)) {
          auto it = std::find_if(emits.begin(), emits.end(), [&](const auto& x) { return x.first == e.name; });
          if (it == emits.end()) it = emits.insert(emits.end(), {e.name, {}});
          for (std::string& a : e.args)
            if (std::find(it->second.begin(), it->second.end(), a) == it->second.end()) it->second.push_back(a);
        }
    emits_type_.clear();
    if (!emits.empty()) {
      emits_type_ = "FitzViewEmits_" + c.name;
      out_ += fmt::format("\ntype {} {{\n", emits_type_);
      for (auto& [name, args] : emits) {
        out_ += fmt::format("  fn {}(", name);
        for (size_t i = 0; i < args.size(); ++i) out_ += fmt::format("{}{}: Any = null", i ? ", " : "", args[i]);
        out_ += ") { }\n";
      }
      out_ += "}\n";
    }

    for (ViewHandler& h : c.events) handler(c, h, fmt::format("ev_{}", h.name));
    for (size_t i = 0; i < c.hooks.size(); ++i) handler(c, c.hooks[i], fmt::format("on_{}_{}", c.hooks[i].name, i));
    emit_values(c);

    out_ += fmt::format("\nfn __fz_{}_render() {{\n", c.name);
    prelude(c, {});
    in_template_ = true;
    indent_ = "  ";
    nodes(c.template_nodes);
    in_template_ = false;
    out_ += "}\n";
  }

  void handler(ViewComponent& c, ViewHandler& h, const std::string& suffix) {
    out_ += fmt::format("\n{}fn __fz_{}_{}", h.is_async ? "async " : "", c.name, suffix);
    params(h.params);
    out_ += " {\n";
    prelude(c, h.params);
    if (!emits_type_.empty()) out_ += fmt::format("  __fz_emit: {} = __fz_any()\n", emits_type_);
    if (h.kind == ViewHandler::Kind::Message || h.kind == ViewHandler::Kind::Presence) {
      // The topic may interpolate props: check it as the string it is.
      out_ += "  __fz_topic: Str = ";
      copy(view_offset_of_argument(h), h.argument);
      out_ += "\n";
    }
    if (!h.body.empty()) {
      // `emit picked(id: x)` is checked as `__fz_emit.picked(id: x)`; the rest maps byte for byte.
      size_t from = 0;
      for (const EmitStmt& e : find_emits(h.body)) {
        copy(h.body_span.begin + static_cast<uint32_t>(from), std::string_view(h.body).substr(from, e.at - from));
        out_ += "__fz_emit.";
        from = e.name_at;
      }
      copy(h.body_span.begin + static_cast<uint32_t>(from), std::string_view(h.body).substr(from));
      out_ += "\n";
    }
    out_ += "}\n";
  }

  // The `emit`s of `c` for the IR, their argument values typed where the bodies copied them, so
  // a parent's `@name=` binding can be checked against them (view_check.cpp).
  void emit_values(ViewComponent& c) {
    c.emits.clear();
    for (auto* list : {&c.events, &c.hooks})
      for (const ViewHandler& h : *list)
        for (const EmitStmt& st : find_emits(h.body)) {
          ViewEmit e;
          e.name = st.name;
          uint32_t base = h.body_span.begin;
          e.span = Span{u_.view.file, base + uint32_t(st.name_at), base + uint32_t(st.name_at + st.name.size())};
          e.arg_names = st.args;
          for (auto [b, end] : st.values) {
            ViewExpr x;
            x.text = h.body.substr(b, end - b);
            x.span = Span{u_.view.file, base + uint32_t(b), base + uint32_t(end)};
            e.args.push_back(std::move(x));
          }
          c.emits.push_back(std::move(e));
        }
    // The bodies were copied byte for byte: an argument's code sits in its body's segment.
    for (ViewEmit& e : c.emits)
      for (ViewExpr& x : e.args)
        for (const CodeSegment& seg : u_.segments)
          if (!seg.template_code && x.span.begin >= seg.view_begin && x.span.end <= seg.view_begin + (seg.code_end - seg.code_begin)) {
            u_.exprs.push_back({&x, CodeRef{seg.code_begin + (x.span.begin - seg.view_begin), seg.code_begin + (x.span.end - seg.view_begin)}});
            break;
          }
  }

  // The hook argument's offset: it sits between the hook name and the body.
  uint32_t view_offset_of_argument(const ViewHandler& h) const {
    size_t at = u_.text.find(h.argument, h.span.end);
    return at == std::string::npos ? h.span.end : static_cast<uint32_t>(at);
  }

  bool known_component(const std::string& tag) const {
    if (u_.imported.count(tag)) return true;
    for (const ViewComponent& c : u_.view.components)
      if (c.name == tag) return true;
    return false;
  }

  void nodes(ViewNodes& ns) {
    for (ViewNode& n : ns) node(n);
  }

  void node(ViewNode& n) {
    switch (n.kind) {
      case ViewNode::Kind::Text:
        for (ViewExpr& e : n.exprs) bind(e);
        break;
      case ViewNode::Kind::Component:
        // Names the component's props type, so its import counts as used (an unknown component
        // is the view checker's to report).
        if (known_component(n.tag)) {
          out_ += fmt::format("{}__fz_v{}: ", indent_, next_++);
          copy(n.span.begin, n.tag);
          out_ += "? = null\n";
        }
        [[fallthrough]];
      case ViewNode::Kind::Element:
      case ViewNode::Kind::Slot:
        for (ViewAttr& a : n.attrs)
          for (ViewExpr& e : a.exprs) bind(e);
        nodes(n.children);
        break;
      case ViewNode::Kind::If: {
        for (size_t i = 0; i < n.branches.size(); ++i) {
          if (i == 0) out_ += indent_ + "if (";
          else if (i < n.exprs.size()) out_ += indent_ + "} else if (";
          else out_ += indent_ + "} else {\n";
          if (i < n.exprs.size()) {
            expr(n.exprs[i], true);
            out_ += ") {\n";
          }
          std::string saved = indent_;
          indent_ += "  ";
          nodes(n.branches[i]);
          indent_ = saved;
        }
        out_ += indent_ + "}\n";
        break;
      }
      case ViewNode::Kind::For: {
        out_ += indent_ + "for ";
        if (n.loop_vars.size() == 1) {
          out_ += n.loop_vars[0];
        } else {
          out_ += "(";
          for (size_t i = 0; i < n.loop_vars.size(); ++i) out_ += (i ? ", " : "") + n.loop_vars[i];
          out_ += ")";
        }
        out_ += " in (";
        expr(n.exprs[0]);
        out_ += ") {\n";
        std::string saved = indent_;
        indent_ += "  ";
        if (!n.index_var.empty()) out_ += fmt::format("{}{}: Int = 0\n", indent_, n.index_var);
        if (n.keyed) bind(n.exprs[1]);
        nodes(n.children);
        indent_ = saved;
        out_ += indent_ + "}\n";
        nodes(n.empty);
        break;
      }
    }
  }

  ViewUnit& u_;
  std::string out_;
  std::string emits_type_;  // the current component's `emit` type, "" when it emits nothing
  std::string indent_ = "  ";
  bool in_template_ = false;
  uint32_t next_ = 0;
};

}  // namespace

void generate_view_code(ViewUnit& unit) { CodeWriter(unit).run(); }

}  // namespace fitz::checker
