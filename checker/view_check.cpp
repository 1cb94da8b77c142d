// The view checker's driver: reads views, serves their generated modules to the module loader,
// and once the program is checked fills in the IR's types, runs the checks that need them
// (conditions, keys, event bindings, child props, slots, read-only assignments) and maps the
// diagnostics of generated modules back into the .fitzv files.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <sstream>

#include "checker/view_internal.h"
#include "frontend/view_syntax.h"

namespace fitz::checker {

namespace fs = std::filesystem;
using frontend::DiagKind;
using frontend::Diagnostic;

const ViewComponent* CheckedViews::find(std::string_view name) const {
  for (const ViewFile& f : files)
    for (const ViewComponent& c : f.components)
      if (c.name == name) return &c;
  return nullptr;
}

ViewChecker::ViewChecker(frontend::SourceManager& sources) : sources_(sources) {}
ViewChecker::~ViewChecker() = default;

namespace {

// The generated module of `X.fitzv` is `X.fitz` beside it, unless a real `X.fitz` exists.
fs::path code_path_for(const fs::path& view) {
  fs::path p = view;
  p.replace_extension(".fitz");
  if (fs::exists(p)) p.replace_filename(view.stem().string() + "_view.fitz");
  return p;
}

}  // namespace

ViewUnit* ViewChecker::unit_for_code_path(const fs::path& code_path) {
  for (auto& u : units_)
    if (u->view.code_path == code_path) return u.get();
  return nullptr;
}

ViewUnit* ViewChecker::load_unit(const fs::path& view_path, std::string& error, frontend::DiagnosticBag* diags) {
  fs::path abs = fs::weakly_canonical(fs::absolute(view_path));
  for (auto& u : units_)
    if (u->view.path == abs) return u.get();
  std::optional<FileId> id;
  if (view_reader_) {
    std::optional<std::string> text = view_reader_(view_path, error);
    if (text) id = sources_.add(view_path.string(), std::move(*text));
  } else if (llvm::Expected<FileId> read = sources_.read_file(view_path)) {
    id = *read;
  } else {
    error = llvm::toString(read.takeError());
  }
  if (!id) return nullptr;
  auto unit = std::make_unique<ViewUnit>();
  unit->view.path = abs;
  unit->view.file = *id;
  unit->view.code_path = code_path_for(abs);
  unit->text = std::string(sources_.file(*id).text());
  unit->tree = frontend::parse_view_text(unit->text);
  frontend::DiagnosticBag& bag = diags ? *diags : read_diags_;
  size_t before = bag.error_count();
  frontend::report_view_syntax_errors(unit->tree, sources_.file(*id), bag);
  unit->syntax_ok = bag.error_count() == before;
  if (unit->syntax_ok) {
    read_view(*unit, read_diags_);
    generate_view_code(*unit);
  } else {
    unit->code = "// a view with syntax errors\n";
  }
  units_.push_back(std::move(unit));
  return units_.back().get();
}

frontend::FileReader ViewChecker::reader(frontend::FileReader base) {
  return [this, base](const fs::path& path, std::string& error) -> std::optional<std::string> {
    if (ViewUnit* u = unit_for_code_path(fs::weakly_canonical(fs::absolute(path)))) return u->code;
    std::optional<std::string> text = base(path, error);
    if (text || path.extension() != ".fitz") return text;
    fs::path view = path;
    view.replace_extension(".fitzv");
    if (!view_reader_ && !fs::exists(view)) return text;
    std::string view_error;
    ViewUnit* u = load_unit(view, view_error, nullptr);
    if (!u) return text;
    error.clear();
    return u->code;
  };
}

std::vector<ViewCodeSpan> ViewChecker::code_map(const fs::path& view) const {
  std::vector<ViewCodeSpan> out;
  for (const auto& u : units_)
    if (u->view.path == view)
      for (const CodeSegment& s : u->segments) out.push_back({s.code_begin, s.code_end, s.view_begin});
  return out;
}

std::vector<FileId> ViewChecker::view_files() const {
  std::vector<FileId> out;
  for (const auto& u : units_) out.push_back(u->view.file);
  return out;
}

void ViewChecker::serve(frontend::LoadRequest& req, frontend::FileReader base, frontend::DiagnosticBag* root_diags) {
  req.reader = reader(std::move(base));
  if (root_diags) req.view_root = [this, root_diags](const fs::path& view) { return add_view(view, *root_diags); };
}

std::optional<fs::path> ViewChecker::add_view(const fs::path& path, frontend::DiagnosticBag& diags) {
  std::string error;
  ViewUnit* u = load_unit(path, error, &diags);
  if (!u) {
    diags.error(DiagKind::CannotReadFile, Span{}, fmt::format("cannot read `{}`: {}", path.string(), error));
    return std::nullopt;
  }
  return u->view.code_path;
}

namespace {

bool is_state(const ViewComponent& c, std::string_view name) {
  for (const ViewField& f : c.state)
    if (f.name == name) return true;
  return false;
}
const ViewField* find_field(const std::vector<ViewField>& fs, std::string_view name) {
  for (const ViewField& f : fs)
    if (f.name == name) return &f;
  return nullptr;
}

// Maps a span of a generated module into its view; nullopt when it lies in generated glue.
std::optional<std::pair<Span, const CodeSegment*>> to_view(const ViewUnit& u, Span s) {
  for (const CodeSegment& seg : u.segments)
    if (s.begin >= seg.code_begin && s.begin <= seg.code_end && !(s.begin == seg.code_end && s.end > s.begin)) {
      uint32_t end = std::min(std::max(s.end, s.begin), seg.code_end);
      return std::pair{Span{u.view.file, seg.view_begin + (s.begin - seg.code_begin), seg.view_begin + (end - seg.code_begin)}, &seg};
    }
  return std::nullopt;
}

// Checks one view file's components once types are known.
class ViewTypes {
 public:
  ViewTypes(ViewUnit& u, const frontend::Module& m, const ModuleTir& tir, const TypedProgram& program,
            frontend::DiagnosticBag& diags)
      : u_(u), m_(m), tir_(tir), program_(program), diags_(diags) {}

  void fill_types() {
    std::map<std::pair<uint32_t, uint32_t>, ExprId> exprs;
    for (uint32_t i = 0; i < m_.ast.exprs.size(); ++i) {
      const Span& s = m_.ast.exprs[i].span;
      exprs[{s.begin, s.end}] = ExprId(i);  // the last one is the outermost
    }
    for (PendingExpr& p : u_.exprs) {
      auto it = exprs.find({p.at.begin, p.at.end});
      if (it == exprs.end() || it->second.index >= tir_.expr_types.size()) continue;
      p.expr->code = it->second;
      p.expr->type = tir_.type_of(it->second);
    }
    std::map<std::pair<uint32_t, uint32_t>, TypeExprId> types;
    for (uint32_t i = 0; i < m_.ast.types.size(); ++i) {
      const Span& s = m_.ast.types[i].span;
      types[{s.begin, s.end}] = TypeExprId(i);
    }
    for (PendingType& p : u_.types) {
      auto it = types.find({p.at.begin, p.at.end});
      if (it == types.end() || it->second.index >= tir_.type_exprs.size()) continue;
      *p.type = tir_.type_exprs[it->second.index];
    }
    for (const SymbolId& s : tir_.top_level) {
      const Symbol& sym = program_.symbol(s);
      if (sym.kind != SymbolKind::Type) continue;
      for (ViewComponent& c : u_.view.components)
        if (c.name == sym.name) c.props_type = sym.type;
    }
    for (const SymbolId& s : tir_.top_level) {
      const Symbol& sym = program_.symbol(s);
      if (sym.kind != SymbolKind::Function || !sym.name.starts_with("__fz_")) continue;
      for (ViewComponent& c : u_.view.components) {
        for (ViewHandler& h : c.events)
          if (sym.name == fmt::format("__fz_{}_ev_{}", c.name, h.name)) h.fn = s;
        for (size_t i = 0; i < c.hooks.size(); ++i)
          if (sym.name == fmt::format("__fz_{}_on_{}_{}", c.name, c.hooks[i].name, i)) c.hooks[i].fn = s;
      }
    }
  }

  void check(const std::function<const ViewComponent*(const ViewUnit&, const std::string&)>& resolve) {
    resolve_ = &resolve;
    for (ViewComponent& c : u_.view.components) {
      component_ = &c;
      nodes(c.template_nodes);
    }
    check_read_only();
  }

 private:
  const TypeStore& types() const { return *program_.types; }
  std::string show(TypeId t) const { return types().display(t); }
  bool known(TypeId t) const { return t.valid() && !types().is_error(t); }

  void nodes(ViewNodes& ns) {
    for (ViewNode& n : ns) node(n);
  }

  void node(ViewNode& n) {
    switch (n.kind) {
      case ViewNode::Kind::For:
        if (n.keyed && n.exprs.size() > 1) {
          const ViewExpr& k = n.exprs[1];
          TypeId t = k.type;
          if (known(t) && t != types().str() && t != types().int_() && t != types().any())
            diags_.error(DiagKind::ViewKeyType, k.span, fmt::format("a loop key must be a `Str` or an `Int`, this one is `{}`", show(t)))
                .with_hint("key on a field that identifies the item, such as its id");
        }
        nodes(n.children);
        nodes(n.empty);
        break;
      case ViewNode::Kind::If:
        for (ViewNodes& b : n.branches) nodes(b);
        break;
      case ViewNode::Kind::Element:
      case ViewNode::Kind::Slot:
        attributes(n);
        nodes(n.children);
        break;
      case ViewNode::Kind::Component:
        attributes(n);
        child(n);
        nodes(n.children);
        break;
      case ViewNode::Kind::Text:
        break;
    }
  }

  void attributes(ViewNode& n) {
    for (ViewAttr& a : n.attrs) {
      if (a.kind == ViewAttr::Kind::Interpolated && a.exprs.size() == 1 && a.parts.size() == 2 && a.parts[0].empty() &&
          a.parts[1].empty() && n.kind != ViewNode::Kind::Component) {
        TypeId t = a.exprs[0].type;
        if (known(t) && types().non_null(t) == types().bool_()) a.kind = ViewAttr::Kind::Boolean;
      }
      if (a.kind == ViewAttr::Kind::Event) event_binding(a);
      if (a.kind == ViewAttr::Kind::Bind) bind(a);
    }
  }

  void event_binding(const ViewAttr& a) {
    const ViewComponent& c = *component_;
    const ViewHandler* h = nullptr;
    for (const ViewHandler& e : c.events)
      if (e.name == a.value) h = &e;
    if (!h) {
      std::string names;
      for (const ViewHandler& e : c.events) names += (names.empty() ? "`" : ", `") + e.name + "`";
      Diagnostic& d = diags_.error(DiagKind::ViewEventBinding, a.span,
                                   fmt::format("`@{}` names `{}`, which is no event of `{}`", a.name, a.value, c.name));
      for (const ViewHandler& k : c.hooks)
        if (k.name == a.value) d.with_hint("hooks run on their own and can never be bound to the page");
      if (d.hint.empty())
        d.with_hint(names.empty() ? fmt::format("declare it: `event {}() {{ ... }}`", a.value)
                                  : fmt::format("the component's events are {}", names));
      return;
    }
    for (size_t i = 0; i < a.exprs.size(); ++i) {
      const ViewParam* p = nullptr;
      for (const ViewParam& q : h->params)
        if (q.name == a.arg_names[i]) p = &q;
      if (!p) {
        diags_.error(DiagKind::ViewEventBinding, a.exprs[i].span,
                     fmt::format("event `{}` has no parameter `{}`", h->name, a.arg_names[i]))
            .with_label(h->span, "declared here");
        continue;
      }
      TypeId t = a.exprs[i].type;
      if (known(t) && known(p->type) && !types().compatible(t, p->type))
        diags_.error(DiagKind::ViewEventBinding, a.exprs[i].span,
                     fmt::format("argument `{}` of `{}` expects `{}`, found `{}`", p->name, h->name, show(p->type), show(t)))
            .with_label(p->span, "parameter declared here");
    }
  }

  void bind(const ViewAttr& a) {
    const ViewComponent& c = *component_;
    if (a.exprs.empty()) return;
    const ViewExpr& e = a.exprs[0];
    if (const ViewField* f = find_field(c.state, e.text)) {
      // The browser sends a control's value as text; only these convert back from it.
      TypeId t = known(f->type) ? types().non_null(f->type) : TypeId();
      if (t.valid() && t != types().str() && t != types().int_() && t != types().float_() && t != types().bool_())
        diags_.error(DiagKind::ViewEventBinding, e.span,
                     fmt::format("`bind:{}` needs a state field of type Str, Int, Float or Bool; `{}` is `{}`", a.name, e.text, show(f->type)))
            .with_label(f->span, "declared here")
            .with_hint("bind a scalar field and build the value in an `event` handler");
      return;
    }
    if (const ViewField* f = find_field(c.props, e.text))
      diags_.error(DiagKind::ViewReadOnlyAssign, e.span, fmt::format("`bind:{}` assigns `{}`, a prop, which is read-only", a.name, e.text))
          .with_label(f->span, "declared as a prop here")
          .with_hint("props come from the parent; bind a state field instead");
    else if (const ViewField* d = find_field(c.derived, e.text))
      diags_.error(DiagKind::ViewReadOnlyAssign, e.span, fmt::format("`bind:{}` assigns `{}`, a derived value, which is read-only", a.name, e.text))
          .with_label(d->span, "derived here");
    else
      diags_.error(DiagKind::ViewEventBinding, e.span, fmt::format("`bind:{}` needs a state field of `{}`, `{}` is not one", a.name, c.name, e.text));
  }

  // A child component use: its props and slot content.
  void child(ViewNode& n) {
    const ViewComponent* target = (*resolve_)(u_, n.tag);
    if (!target) {
      if (!u_.imported.count(n.tag))
        diags_.error(DiagKind::ViewUnknownName, n.span, fmt::format("unknown component `{}`", n.tag))
            .with_hint(fmt::format("import it from its view: `from {} import {}`", n.tag, n.tag));
      return;
    }
    const std::vector<ViewField>& fields = target->has_props_block ? target->props : target->state;
    // `@evt=` bindings set nothing on the child, so they alone are no upstream form.
    bool sets_fields = std::any_of(n.attrs.begin(), n.attrs.end(), [](const ViewAttr& a) { return a.kind != ViewAttr::Kind::Event; });
    if (!target->has_props_block && sets_fields)
      diags_.warning(DiagKind::ViewPropsLessForm, n.span,
                     fmt::format("`{}` has no `props` block: setting its state fields from the parent is upstream's form", target->name))
          .with_label(target->span, "declared here")
          .with_hint("declare the fields the parent sets in a `props { ... }` block");
    std::vector<std::string> given;
    for (const ViewAttr& a : n.attrs) {
      if (a.kind == ViewAttr::Kind::Event) continue;  // `@saved=` names a handler of this component
      if (a.kind != ViewAttr::Kind::Static && a.kind != ViewAttr::Kind::Interpolated && a.kind != ViewAttr::Kind::Boolean) continue;
      given.push_back(a.name);
      const ViewField* f = find_field(fields, a.name);
      if (!f) {
        std::string names;
        for (const ViewField& p : fields) names += (names.empty() ? "`" : ", `") + p.name + "`";
        diags_.error(DiagKind::ViewChildProps, a.span, fmt::format("`{}` has no prop `{}`", target->name, a.name))
            .with_hint(names.empty() ? std::string("it takes no props") : "its props are " + names);
        continue;
      }
      TypeId t = types().str();
      Span at = a.span;
      if (a.exprs.size() == 1 && a.parts.size() == 2 && a.parts[0].empty() && a.parts[1].empty()) {
        t = a.exprs[0].type;
        at = a.exprs[0].span;
      }
      if (known(t) && known(f->type) && !types().compatible(t, f->type))
        diags_.error(DiagKind::ViewChildProps, at,
                     fmt::format("prop `{}` of `{}` expects `{}`, found `{}`", f->name, target->name, show(f->type), show(t)))
            .with_label(f->span, "declared here");
    }
    if (target->has_props_block) {
      std::string missing;
      for (const ViewField& p : target->props)
        if (p.required() && std::find(given.begin(), given.end(), p.name) == given.end())
          missing += (missing.empty() ? "`" : ", `") + p.name + "`";
      if (!missing.empty())
        diags_.error(DiagKind::ViewChildProps, n.span, fmt::format("`{}` is missing required prop{} {}", target->name,
                                                                   missing.find(',') != std::string::npos ? "s" : "", missing))
            .with_label(target->span, "declared here");
    }
    for (const ViewAttr& a : n.attrs)
      if (a.kind == ViewAttr::Kind::Event) emit_binding(a, *target);
    // Slot content: direct children with `slot="x"` fill named slots, the rest the default one.
    auto declares = [&](const std::string& s) {
      return std::find(target->slots.begin(), target->slots.end(), s) != target->slots.end();
    };
    for (const ViewNode& c : n.children) {
      std::string slot;
      Span at = c.span;
      for (const ViewAttr& a : c.attrs)
        if (a.name == "slot" && a.kind == ViewAttr::Kind::Static) slot = a.value, at = a.span;
      bool blank = c.kind == ViewNode::Kind::Text && c.exprs.empty() &&
                   std::all_of(c.parts.front().begin(), c.parts.front().end(), [](char ch) { return std::isspace(static_cast<unsigned char>(ch)); });
      if (blank || declares(slot)) continue;
      diags_.error(DiagKind::ViewSlot, at,
                   slot.empty() ? fmt::format("`{}` has no default `<slot/>`, so this content is never rendered", target->name)
                                : fmt::format("`{}` has no slot named `{}`", target->name, slot))
          .with_label(target->span, "declared here");
    }
  }

  // `@picked="h(extra: e)"` on a child's tag: each `emit picked(...)` of the child must give
  // `h` what it takes. The emitted arguments and the binding's own (which win, as on the
  // client) are the payload `h`'s parameters are read from by name (§1.3).
  void emit_binding(const ViewAttr& a, const ViewComponent& target) {
    const ViewHandler* h = nullptr;
    for (const ViewHandler& e : component_->events)
      if (e.name == a.value) h = &e;
    std::vector<const ViewEmit*> emits;
    for (const ViewEmit& e : target.emits)
      if (e.name == a.name) emits.push_back(&e);
    if (emits.empty()) {
      std::string names;
      for (const ViewEmit& e : target.emits)
        if (names.find("`" + e.name + "`") == std::string::npos) names += (names.empty() ? "`" : ", `") + e.name + "`";
      diags_.warning(DiagKind::ViewEmitNever, a.span,
                     fmt::format("`{}` never emits `{}`, so `@{}=` never runs", target.name, a.name, a.name))
          .with_label(target.span, "declared here")
          .with_hint(names.empty() ? fmt::format("`{}` emits no events; a child emits with `emit {}(...)` in an event", target.name, a.name)
                                   : fmt::format("`{}` emits {}", target.name, names));
      return;
    }
    if (!h) return;  // event_binding reported the handler
    auto bound = [&](const std::string& name) {
      return std::find(a.arg_names.begin(), a.arg_names.end(), name) != a.arg_names.end();
    };
    for (const ViewEmit* e : emits) {
      for (size_t i = 0; i < e->arg_names.size(); ++i) {
        const std::string& name = e->arg_names[i];
        if (bound(name)) continue;  // the binding's argument replaces it
        const ViewParam* p = nullptr;
        for (const ViewParam& q : h->params)
          if (q.name == name) p = &q;
        if (!p) {
          Diagnostic& d = diags_.error(DiagKind::ViewEmitBinding, a.span,
                                       fmt::format("`{}` emits `{}` with `{}`, which `{}` has no parameter for", target.name,
                                                   a.name, name, h->name));
          d.with_label(e->span, "emitted here").with_label(h->span, "handler declared here");
          d.with_hint(name.starts_with("arg") && std::isdigit(static_cast<unsigned char>(name.back()))
                          ? fmt::format("name the argument after a parameter of `{}`: `emit {}({}: ...)`", h->name, a.name,
                                        h->params.empty() ? std::string("id") : h->params[0].name)
                          : fmt::format("add a parameter `{}` to `{}`, or stop emitting it", name, h->name));
          continue;
        }
        TypeId t = i < e->args.size() ? e->args[i].type : TypeId();
        if (known(t) && known(p->type) && !types().compatible(t, p->type))
          diags_.error(DiagKind::ViewEmitBinding, a.span,
                       fmt::format("`{}` emits `{}` of `{}` as `{}`, but `{}` takes `{}`", target.name, name, a.name, show(t),
                                   h->name, show(p->type)))
              .with_label(e->args[i].span, "emitted here")
              .with_label(p->span, "parameter declared here");
      }
      for (const ViewParam& p : h->params) {
        if (p.has_default || bound(p.name)) continue;
        if (known(p.type) && types().non_null(p.type) != p.type) continue;  // a missing key reads as null
        if (std::find(e->arg_names.begin(), e->arg_names.end(), p.name) != e->arg_names.end()) continue;
        diags_.error(DiagKind::ViewEmitBinding, a.span,
                     fmt::format("`{}` takes `{}`, but `{}` emits `{}` without it", h->name, p.name, target.name, a.name))
            .with_label(e->span, "emitted here")
            .with_label(p.span, "parameter declared here")
            .with_hint(fmt::format("emit it (`emit {}({}: ...)`), pass it in the binding (`@{}=\"{}({}: ...)\"`), or give it a default",
                                   a.name, p.name, a.name, h->name, p.name));
      }
    }
  }

  // `x = e` in a body where `x` is a prop or derived value: the generated local it assigns is
  // one of the read-only declarations.
  void check_read_only() {
    std::map<uint32_t, bool> read_only;
    for (const ReadOnlyDecl& d : u_.read_only) read_only[d.code_begin] = d.derived;
    for (const frontend::Stmt& s : m_.ast.stmts) {
      const auto* assign = std::get_if<frontend::AssignStmt>(&s.data);
      if (!assign) continue;
      const frontend::Expr& target = m_.ast.get(assign->target);
      if (!std::holds_alternative<frontend::NameRef>(target.data)) continue;
      if (assign->target.index >= tir_.refs.size()) continue;
      const Ref& ref = tir_.ref_of(assign->target);
      if (ref.kind != RefKind::Symbol) continue;
      const Symbol& sym = program_.symbol(SymbolId(ref.id));
      // The prelude writes `  name: T = ...`: the declaration starts two bytes in.
      auto it = read_only.find(sym.span.begin - 2);
      if (sym.span.begin < 2 || it == read_only.end()) continue;
      std::string name(std::get<frontend::NameRef>(target.data).name.text);
      auto at = to_view(u_, target.span);
      if (!at) continue;
      diags_.error(DiagKind::ViewReadOnlyAssign, at->first,
                   fmt::format("cannot assign to `{}`: it is a {}, which is read-only", name, it->second ? "derived value" : "prop"))
          .with_hint(it->second ? "derived values are recomputed before each render; change the state they come from"
                                : "props are set by the parent or the route; copy it into a state field to change it");
    }
  }

  ViewUnit& u_;
  const frontend::Module& m_;
  const ModuleTir& tir_;
  const TypedProgram& program_;
  frontend::DiagnosticBag& diags_;
  const ViewComponent* component_ = nullptr;
  const std::function<const ViewComponent*(const ViewUnit&, const std::string&)>* resolve_ = nullptr;
};

}  // namespace

CheckedViews ViewChecker::finish(const frontend::ModuleGraph& graph, const TypedProgram& program,
                                 const frontend::DiagnosticBag& raw, frontend::DiagnosticBag& out) {
  CheckedViews result;
  frontend::DiagnosticBag view_diags;
  for (auto& u : units_) {
    if (!u->syntax_ok) continue;
    ModuleId id = graph.find(u->view.code_path);
    if (!id.valid() || id.index >= program.modules.size()) continue;
    u->view.code_module = id;
    u->code_file = graph.get(id).file;
  }
  auto resolve = [&](const ViewUnit& from, const std::string& tag) -> const ViewComponent* {
    std::string name = tag;
    if (auto it = from.imported.find(tag); it != from.imported.end()) {
      name = it->second.second;
      // The module path of the import names the view file: `from web.layout import Card`.
      fs::path p = from.view.path.parent_path();
      std::string seg;
      std::istringstream parts(it->second.first);
      while (std::getline(parts, seg, '.')) p /= seg;
      p += ".fitzv";
      for (auto& u : units_)
        if (u->view.path == fs::weakly_canonical(p))
          for (const ViewComponent& c : u->view.components)
            if (c.name == name) return &c;
      return nullptr;
    }
    for (const ViewComponent& c : from.view.components)
      if (c.name == name) return &c;
    return nullptr;
  };
  for (auto& u : units_) {
    if (!u->view.code_module.valid()) continue;
    const frontend::Module& m = graph.get(u->view.code_module);
    ViewTypes(*u, m, program.modules[u->view.code_module.index], program, view_diags).fill_types();
  }
  for (auto& u : units_) {
    if (!u->view.code_module.valid()) continue;
    const frontend::Module& m = graph.get(u->view.code_module);
    ViewTypes(*u, m, program.modules[u->view.code_module.index], program, view_diags).check(resolve);
  }

  // Diagnostics: those of generated modules move into their views.
  auto move_one = [&](const Diagnostic& d) {
    const ViewUnit* unit = nullptr;
    for (auto& u : units_)
      if (u->view.code_module.valid() && d.span.file == u->code_file) unit = u.get();
    if (!unit) {
      out.report(d);
      return;
    }
    auto mapped = to_view(*unit, d.span);
    if (!mapped) {
      if (d.severity != frontend::Severity::Error) return;  // unused generated locals and the like
      Diagnostic copy = d;
      copy.span = Span{unit->view.file, 0, 0};
      copy.message += " (in code generated for this view)";
      copy.labels.clear();
      out.report(std::move(copy));
      return;
    }
    Diagnostic copy = d;
    copy.span = mapped->first;
    if (mapped->second->template_code && d.kind == DiagKind::ConditionNotBool) {
      copy.kind = DiagKind::ViewConditionNotBool;
      copy.hint = "templates have no truthiness: compare explicitly, as in `{#if n > 0}` or `{#if x != null}`";
    }
    if (!mapped->second->template_code && d.kind == DiagKind::AwaitOutsideAsync) {
      // Events and hooks are the generated functions here: name what the view writes.
      copy.message = "`.await` is only valid inside an `async event` or an `async on` hook";
      copy.hint = "declare the handler `async event name(...) { ... }`, or the hook `async on every 1s { ... }`";
    }
    if (mapped->second->template_code && d.kind == DiagKind::UnknownVariable) {
      copy.kind = DiagKind::ViewUnknownName;
      copy.hint = "a template sees loop variables, derived values, state, props and imports";
    }
    copy.labels.clear();
    for (const frontend::Label& l : d.labels) {
      if (l.span.file != unit->code_file) {
        copy.labels.push_back(l);
      } else if (auto lm = to_view(*unit, l.span)) {
        copy.labels.push_back({lm->first, l.message});
      }
    }
    copy.fixes.clear();
    out.report(std::move(copy));
  };
  for (const Diagnostic& d : read_diags_.sorted()) out.report(d);
  for (const Diagnostic& d : raw.sorted()) move_one(d);
  for (const Diagnostic& d : view_diags.sorted()) out.report(d);

  for (auto& u : units_) result.files.push_back(u->view);
  check_live_pages(program, result, out);
  return result;
}

CheckedViews ViewChecker::finish_without_views(const TypedProgram& program, frontend::DiagnosticBag& raw) {
  CheckedViews result;
  check_live_pages(program, result, raw);
  return result;
}

// `@live` pages (§1.7): the function returns a component's props, and `layout=` names a
// function `(head: Html, body: Html) -> Html`. Checked here because only the views know which
// structs are props.
void ViewChecker::check_live_pages(const TypedProgram& program, const CheckedViews& views, frontend::DiagnosticBag& out) {
  const TypeStore& types = *program.types;
  auto is_html = [&](TypeId t) {
    if (!t.valid() || types.kind(t) != TypeKind::Struct) return false;
    const StructInfo& info = types.struct_info(types.struct_of(t));
    return info.builtin && info.name == "Html";
  };
  auto is_props = [&](TypeId t) {
    for (const ViewFile& f : views.files)
      for (const ViewComponent& c : f.components)
        if (c.props_type.valid() && c.props_type == t) return true;
    return false;
  };
  for (const ModuleTir& m : program.modules)
    for (const ModuleTir::LiveTestArg& a : m.live_tests)
      if (a.type.valid() && !types.is_error(a.type) && !is_props(a.type))
        out.error(DiagKind::ArgumentType, a.span,
                  fmt::format("`live_test` takes a live view's props, not `{}`", types.display(a.type)))
            .with_hint("pass the component's props, as in `live_test(Counter { start: 1 })` with `from Counter import Counter`");
  for (const ModuleTir& m : program.modules)
    for (const ModuleTir::LiveEmbedArg& a : m.live_embeds)
      if (a.type.valid() && !types.is_error(a.type) && !is_props(a.type))
        out.error(DiagKind::ArgumentType, a.span,
                  fmt::format("`live_embed` takes a live view's props, not `{}`", types.display(a.type)))
            .with_hint("pass the component's props, as in `live_embed(Counter { start: 1 })` with `from Counter import Counter`");
  for (const LiveRoute& r : program.service.live) {
    bool props = false;
    for (const ViewFile& f : views.files)
      for (const ViewComponent& c : f.components) props |= c.props_type.valid() && c.props_type == r.props;
    if (!props && r.props.valid() && types.kind(r.props) == TypeKind::Struct)
      out.error(DiagKind::DecoratorPlacement, r.span,
                fmt::format("`@live` mounts a live view, but this function returns `{}`, which is no component's props",
                            types.display(r.props)))
          .with_hint("return the root component's props, as in `fn home() -> Counter => Counter {}` with `from Counter import Counter`");
    if (r.layout.empty()) continue;
    bool ok = false;
    if (r.layout_fn) {
      const FnInfo& lf = program.modules[r.layout_fn->module.index].fns[r.layout_fn->fn.index];
      ok = lf.params.size() == 2 && is_html(lf.params[0].type) && is_html(lf.params[1].type) && is_html(lf.return_type) &&
           !lf.is_async;
    }
    if (!ok)
      out.error(DiagKind::DecoratorArguments, r.layout_span,
                fmt::format("`layout={}` must name a function `fn {}(head: Html, body: Html) -> Html`", r.layout, r.layout))
          .with_hint("the layout gets the page's head (title, styles, the client script) and the live root, and returns the document");
  }
}

}  // namespace fitz::checker
