// The view IR as indented text: what goldens compare and `fitz check --dump=view` prints.
#include <fmt/format.h>

#include "checker/view_model.h"

namespace fitz::checker {

namespace {

class ViewDumper {
 public:
  ViewDumper(const TypedProgram& program) : types_(*program.types) {}

  std::string run(const CheckedViews& views) {
    for (const ViewFile& f : views.files) {
      line(0, fmt::format("view {}", f.path.filename().string()));
      for (const std::string& i : f.imports) line(1, i);
      for (const ViewComponent& c : f.components) component(c);
    }
    return std::move(out_);
  }

 private:
  std::string type(TypeId t) const { return t.valid() ? types_.display(t) : "?"; }
  std::string expr(const ViewExpr& e) const { return fmt::format("{{{}}}: {}", e.text, type(e.type)); }
  void line(int depth, const std::string& s) { out_ += std::string(size_t(depth) * 2, ' ') + s + "\n"; }

  void component(const ViewComponent& c) {
    line(1, fmt::format("component {}{}{}", c.name, c.hydrate ? " hydrate(ignored)" : "",
                        c.has_props_block ? "" : " (no props block)"));
    auto fields = [&](const char* what, const std::vector<ViewField>& fs) {
      for (const ViewField& f : fs)
        line(2, fmt::format("{} {}: {}{}{}", what, f.name, type(f.type), f.default_value ? " = " + expr(*f.default_value) : "",
                            std::string_view(what) == "prop" && f.required() ? " (required)" : ""));
    };
    fields("prop", c.props);
    fields("state", c.state);
    fields("derived", c.derived);
    auto handler = [&](const ViewHandler& h, bool event) {
      std::string params;
      for (const ViewParam& p : h.params) params += (params.empty() ? "" : ", ") + p.name + ": " + type(p.type);
      std::string head = event ? fmt::format("{}event {}({})", h.is_async ? "async " : "", h.name, params)
                               : fmt::format("{}on {}{}{}", h.is_async ? "async " : "", h.name, h.argument.empty() ? "" : " " + h.argument,
                                             h.params.empty() ? "" : "(" + params + ")");
      line(2, head + (h.fn.valid() ? "" : " [unchecked]"));
    };
    for (const ViewHandler& h : c.events) handler(h, true);
    for (const ViewHandler& h : c.hooks) handler(h, false);
    for (const ViewEmit& e : c.emits) {
      std::string args;
      for (size_t i = 0; i < e.arg_names.size(); ++i)
        args += fmt::format("{}{}: {}", i ? ", " : "", e.arg_names[i], i < e.args.size() ? type(e.args[i].type) : "?");
      line(2, fmt::format("emit {}({})", e.name, args));
    }
    if (!c.slots.empty()) {
      std::string s;
      for (const std::string& n : c.slots) s += (s.empty() ? "" : ", ") + (n.empty() ? std::string("default") : n);
      line(2, "slots " + s);
    }
    if (!c.scoped_style.empty()) line(2, fmt::format("style scoped ({} bytes)", c.scoped_style.size()));
    if (!c.global_style.empty()) line(2, fmt::format("style global ({} bytes)", c.global_style.size()));
    line(2, "template");
    nodes(3, c.template_nodes);
  }

  void nodes(int depth, const ViewNodes& ns) {
    for (const ViewNode& n : ns) node(depth, n);
  }

  std::string attr(const ViewAttr& a) const {
    switch (a.kind) {
      case ViewAttr::Kind::Static: return fmt::format("{}=\"{}\"", a.name, a.value);
      case ViewAttr::Kind::Interpolated: {
        std::string s = a.name + "=\"";
        for (size_t i = 0; i < a.parts.size(); ++i) {
          s += a.parts[i];
          if (i < a.exprs.size()) s += expr(a.exprs[i]);
        }
        return s + "\"";
      }
      case ViewAttr::Kind::Boolean: return fmt::format("{}?={}", a.name, a.exprs.empty() ? "" : expr(a.exprs[0]));
      case ViewAttr::Kind::Class: return fmt::format("class:{}={}", a.name, a.exprs.empty() ? "" : expr(a.exprs[0]));
      case ViewAttr::Kind::Bind: return fmt::format("bind:{}={}", a.name, a.exprs.empty() ? a.value : expr(a.exprs[0]));
      case ViewAttr::Kind::Other: return a.exprs.empty() ? a.name + "=" + a.value : a.name + "=" + expr(a.exprs[0]);
      case ViewAttr::Kind::Event: {
        std::string s = fmt::format("@{}->{}", a.name, a.value);
        if (!a.exprs.empty()) {
          s += "(";
          for (size_t i = 0; i < a.exprs.size(); ++i) s += (i ? ", " : "") + a.arg_names[i] + ": " + expr(a.exprs[i]);
          s += ")";
        }
        return s;
      }
    }
    return "";
  }

  void node(int depth, const ViewNode& n) {
    switch (n.kind) {
      case ViewNode::Kind::Text: {
        std::string s;
        for (size_t i = 0; i < n.parts.size(); ++i) {
          s += n.parts[i];
          if (i < n.exprs.size()) s += expr(n.exprs[i]);
        }
        line(depth, "text \"" + s + "\"");
        break;
      }
      case ViewNode::Kind::Element:
      case ViewNode::Kind::Component:
      case ViewNode::Kind::Slot: {
        std::string s = n.kind == ViewNode::Kind::Component ? "component <" + n.tag
                        : n.kind == ViewNode::Kind::Slot    ? "slot <" + n.tag
                                                            : "<" + n.tag;
        for (const ViewAttr& a : n.attrs) s += " " + attr(a);
        s += ">";
        if (n.is_static) s += " static";
        line(depth, s);
        nodes(depth + 1, n.children);
        break;
      }
      case ViewNode::Kind::If:
        for (size_t i = 0; i < n.branches.size(); ++i) {
          line(depth, i == 0 ? "if " + expr(n.exprs[0]) : i < n.exprs.size() ? "else if " + expr(n.exprs[i]) : "else");
          nodes(depth + 1, n.branches[i]);
        }
        break;
      case ViewNode::Kind::For: {
        std::string vars;
        for (const std::string& v : n.loop_vars) vars += (vars.empty() ? "" : ", ") + v;
        if (n.loop_vars.size() > 1) vars = "(" + vars + ")";
        if (!n.index_var.empty()) vars += ", " + n.index_var;
        line(depth, fmt::format("for {} in {}{}", vars, expr(n.exprs[0]), n.keyed && n.exprs.size() > 1 ? " key=" + expr(n.exprs[1]) : ""));
        nodes(depth + 1, n.children);
        if (!n.empty.empty()) {
          line(depth, "empty");
          nodes(depth + 1, n.empty);
        }
        break;
      }
    }
  }

  const TypeStore& types_;
  std::string out_;
};

}  // namespace

std::string dump_views(const CheckedViews& views, const TypedProgram& program) { return ViewDumper(program).run(views); }

}  // namespace fitz::checker
