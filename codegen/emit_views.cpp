// Live-view components (`.fitzv`, views.md §1) as C++ classes implementing fitz::live::View.
//
// The checker typed each view as a generated Fitz module (checker/view_code.cpp): a props struct,
// an init function (state defaults, then derived values), one function per event and hook, and
// a render function. Every body opens with locals for the props, state, derived values, `ctx`
// and `payload` initialised with `__fz_any()`. Here those locals are bound to members of the
// component's class (`view_binds_`), so the bodies compile unchanged and mutate the instance;
// the template is emitted from the checked view IR as node-builder calls, reusing the render
// function's `for` statements for loop variables.
#include <fmt/format.h>

#include <map>

#include "codegen/cpp_literal.h"
#include "codegen/gen.h"

namespace fitz::codegen {

namespace {

uint32_t fnv1a(std::string_view s) {
  uint32_t h = 2166136261u;
  for (unsigned char c : s) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

// The last compound of one selector also requires the scope attribute; `:global(x)` is `x`
// unscoped (§1.6).
std::string scope_selector(std::string_view sel, const std::string& attr) {
  std::string s(sel);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t lead = 0;
  while (lead < s.size() && std::isspace(static_cast<unsigned char>(s[lead]))) ++lead;
  s = s.substr(lead);
  if (s.empty()) return s;
  if (s.starts_with(":global(") && s.back() == ')') return s.substr(8, s.size() - 9);
  // The last compound starts after the last combinator or space outside brackets.
  size_t start = 0;
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '(' || c == '[') ++depth;
    else if (c == ')' || c == ']') --depth;
    else if (depth == 0 && (c == ' ' || c == '>' || c == '+' || c == '~')) start = i + 1;
  }
  // Before its pseudo-classes and pseudo-elements: `a:hover` is `a[data-s-h]:hover`.
  size_t at = s.size();
  depth = 0;
  for (size_t i = start; i < s.size(); ++i) {
    char c = s[i];
    if (c == '(' || c == '[') ++depth;
    else if (c == ')' || c == ']') --depth;
    else if (depth == 0 && c == ':') {
      at = i;
      break;
    }
  }
  return s.substr(0, at) + "[" + attr + "]" + s.substr(at);
}

// Scoped CSS: every rule's selectors get the component's attribute; at-rules with blocks
// (`@media`, `@supports`) are scoped inside; `@keyframes` and other at-rules are kept as written.
std::string scope_css(std::string_view css, const std::string& attr) {
  std::string out;
  size_t i = 0;
  while (i < css.size()) {
    size_t brace = css.find_first_of("{}", i);
    if (brace == std::string_view::npos) {
      out += css.substr(i);
      break;
    }
    if (css[brace] == '}') {
      out += css.substr(i, brace - i + 1);
      i = brace + 1;
      continue;
    }
    std::string_view head = css.substr(i, brace - i);
    size_t first = head.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && head[first] == '@') {
      out += head;
      out += '{';
      i = brace + 1;
      std::string_view at_rule = head.substr(first);
      if (at_rule.starts_with("@media") || at_rule.starts_with("@supports")) continue;  // rules inside
      // Copy the block verbatim (with nesting).
      int depth = 1;
      size_t j = i;
      while (j < css.size() && depth > 0) {
        if (css[j] == '{') ++depth;
        else if (css[j] == '}') --depth;
        ++j;
      }
      out += css.substr(i, j - i);
      i = j;
      continue;
    }
    std::string sel;
    size_t p = 0;
    while (p <= head.size()) {
      size_t comma = head.find(',', p);
      if (comma == std::string_view::npos) comma = head.size();
      if (!sel.empty()) sel += ", ";
      sel += scope_selector(head.substr(p, comma - p), attr);
      p = comma + 1;
    }
    out += sel + " {";
    size_t close = css.find('}', brace);
    if (close == std::string_view::npos) close = css.size() - 1;
    out += css.substr(brace + 1, close - brace);
    out += '\n';
    i = close + 1;
  }
  return out;
}

bool whitespace_only(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

std::string modifier_attr(const std::string& name) {
  if (name == "debounce" || name == "data-flv-debounce") return "data-fz-debounce";
  if (name == "throttle") return "data-fz-throttle";
  if (name == "keys" || name == "data-flv-keyfilter") return "data-fz-keys";
  if (name == "clear-on-submit" || name == "data-flv-clear") return "data-fz-clear-on-submit";
  if (name == "include-form" || name == "data-flv-form") return "data-fz-include-form";
  return name;
}

}  // namespace

bool Gen::is_view_placeholder(ExprId value) const {
  if (!value.valid()) return false;
  auto* c = std::get_if<CallExpr>(&ast_->get(value).data);
  if (!c) return false;
  auto* n = std::get_if<NameRef>(&ast_->get(c->callee).data);
  return n && n->name.text == "__fz_any";
}

bool Gen::is_view_fn(ModuleId m, const FnInfo& f) const {
  return view_modules_.count(m.index) && f.symbol.valid() && prog_.symbol(f.symbol).name.starts_with("__fz_");
}

void Gen::collect_views() {
  if (!options_.views) return;  // (test builds skip the view functions too: they only run as views)
  for (const checker::ViewFile& f : options_.views->files)
    if (f.code_module.valid()) view_modules_.insert(f.code_module.index);
}

bool Gen::is_view_prelude(StructId id) const {
  const checker::StructInfo& info = types_.struct_info(id);
  return view_modules_.count(info.module.index) &&
         (info.name == "FitzViewCtx" || info.name == "FitzViewPresence" || info.name.starts_with("FitzViewEmits_"));
}

bool Gen::is_view_emits(StructId id) const {
  const checker::StructInfo& info = types_.struct_info(id);
  return view_modules_.count(info.module.index) && info.name.starts_with("FitzViewEmits_");
}

// `emit name(args)` (§1.3): the arguments as the payload of the parent's bound handler, as a
// client would send them (strings; a null argument is left out, like a missing key).
void Gen::emit_view_emit_method(FnId fn, const std::string& name) {
  const FnInfo& info = tir_->fns[fn.index];
  line("if (!this->fz_env) return {};");
  line("fitz::live::Payload p;");
  for (const auto& prm : info.params) {
    std::string n = boxed_.count(prm.symbol.index) ? "_in_" + local_name(prm.symbol) : local_name(prm.symbol);
    line(fmt::format("if (!{0}.is_null()) p.push_back({{{1}, fitz::live::gen::text_of(fitz::interp({0}))}});", n,
                     cpp_quoted(prm.name)));
  }
  line(fmt::format("this->fz_env->emitted.push_back({{{}, std::move(p)}});", cpp_quoted(name)));
  line("return {};");
}

// The bodies of `ctx`'s methods: the checker typed them as empty Fitz methods; here they reach
// the runtime through the view's LiveEffects (none during a plain GET render or a test).
void Gen::emit_view_ctx_method(FnId fn, const std::string& name) {
  const FnInfo& info = tir_->fns[fn.index];
  auto param = [&](size_t i) {
    std::string n = local_name(info.params[i].symbol);
    return boxed_.count(info.params[i].symbol.index) ? "_in_" + n : n;
  };
  line("if (!this->fz_env || !this->fz_env->effects) return {};");
  if (name == "publish" && info.params.size() == 2)
    line(fmt::format("this->fz_env->effects->publish(fitz::live::gen::text_of({}), fitz::live::gen::text_of(fitz::http::to_json({})));",
                     param(0), param(1)));
  else if (name == "redirect" && info.params.size() == 2)
    line(fmt::format("this->fz_env->effects->redirect(fitz::live::gen::text_of({}), bool({}));", param(0), param(1)));
  else if (name == "track" && info.params.size() == 3)
    line(fmt::format("this->fz_env->effects->track(fitz::live::gen::text_of({}), fitz::live::gen::text_of({}), "
                     "fitz::live::gen::text_of(fitz::http::to_json({})));",
                     param(0), param(1), param(2)));
  line("return {};");
}

std::string Gen::view_where(frontend::FileId file, uint32_t offset) const {
  const frontend::SourceFile& f = sources_.file(file);
  frontend::LineCol lc = f.line_col(offset);
  return fmt::format("{}:{}:{}", f.path(), lc.line, lc.col);
}

namespace {

// Emits one component's class. Lives here rather than in Gen because it is long and only
// views use it; it drives Gen's expression and statement emitters.
class ViewEmitter {
 public:
  ViewEmitter(Gen& g, const checker::ViewFile& file, const checker::ViewComponent& c)
      : g_(g), file_(file), c_(c), cls_("V_" + c.name) {}

  // The class declaration goes before the functions (tests call `live_test`), the
  // definitions after them (bodies call the program's functions).
  void declare() {
    Gen::ModuleContext in(g_, file_.code_module);
    if (!prepare(true)) return;
    declare_class();
  }
  void define() {
    Gen::ModuleContext in(g_, file_.code_module);
    if (!prepare(false)) return;
    define_methods();
  }

  bool prepare(bool report) {
    report_ = report;
    find_fns();
    if (!render_fn_.valid()) {
      fail(c_.span.begin, "its generated render function is missing");
      return false;
    }
    scope_ = fmt::format("{:08x}", fnv1a(c_.name));
    ctx_type_ = field_type("fz_ctx");
    emit_type_ = field_type("fz_emit");
    binds_.clear();
    find_children();
    check_template(c_.template_nodes);
    return true;
  }

  std::string css() const {
    std::string out;
    if (!c_.scoped_style.empty()) out += scope_css(c_.scoped_style, "data-s-" + scope_) + "\n";
    if (!c_.global_style.empty()) out += c_.global_style + "\n";
    return out;
  }

 private:
  void fail(uint32_t offset, const std::string& what) {
    if (!report_) return;
    g_.result_.not_compiled.push_back(
        fmt::format("{}: component `{}`: {}", g_.view_where(file_.file, offset), c_.name, what));
  }

  FnId fn_of(SymbolId s) const {
    if (!s.valid()) return FnId();
    const Symbol& sym = g_.prog_.symbol(s);
    return sym.kind == SymbolKind::Function ? sym.fn : FnId();
  }

  void find_fns() {
    const Ast& ast = *g_.ast_;
    for (StmtId s : ast.top_level) {
      auto* f = std::get_if<FnStmt>(&ast.get(s).data);
      if (!f) continue;
      const FnInfo& info = g_.tir_->fns[f->fn.index];
      if (!info.symbol.valid()) continue;
      const std::string& n = g_.prog_.symbol(info.symbol).name;
      if (n == "__fz_" + c_.name + "_init") init_fn_ = f->fn;
      if (n == "__fz_" + c_.name + "_render") render_fn_ = f->fn;
    }
  }

  // The members the prelude locals of `fn` name. `init` binds its state and derived
  // definitions too (they are real assignments there, written into the members).
  void bind(FnId fn) {
    g_.view_binds_.clear();
    const Ast& ast = *g_.ast_;
    for (StmtId sid : ast.get(ast.get(fn).body).stmts) {
      auto* a = std::get_if<AnnotatedAssignStmt>(&ast.get(sid).data);
      if (!a) continue;
      SymbolId sym = sid.index < g_.tir_->annotated_symbols.size() ? g_.tir_->annotated_symbols[sid.index] : SymbolId();
      if (!sym.valid()) continue;
      std::string name(a->name.text);
      std::string member = member_of(name);
      if (member.empty()) continue;
      if (!g_.is_view_placeholder(a->value) && fn != init_fn_) continue;  // a body's own local
      g_.view_binds_[sym.index] = "this->" + member;
    }
  }

  std::string member_of(const std::string& name) const {
    for (const auto& f : c_.props)
      if (f.name == name) return "p_" + name;
    for (const auto& f : c_.state)
      if (f.name == name) return "s_" + name;
    for (const auto& f : c_.derived)
      if (f.name == name) return "d_" + name;
    if (name == "ctx") return "fz_ctx";
    if (name == "payload") return "fz_payload";
    if (name == "__fz_emit") return "fz_emit";
    return "";
  }

  TypeId field_type(const std::string& member) const {
    // From the init function's (or render's) annotated locals: the checker's types.
    const Ast& ast = *g_.ast_;
    std::vector<FnId> fns = {init_fn_, render_fn_};
    if (member == "fz_emit")  // only handler bodies declare it
      for (const auto* list : {&c_.events, &c_.hooks})
        for (const checker::ViewHandler& h : *list) fns.push_back(fn_of(h.fn));
    for (FnId fn : fns) {
      if (!fn.valid()) continue;
      for (StmtId sid : ast.get(ast.get(fn).body).stmts) {
        auto* a = std::get_if<AnnotatedAssignStmt>(&ast.get(sid).data);
        if (!a || member_of(std::string(a->name.text)) != member) continue;
        SymbolId sym = sid.index < g_.tir_->annotated_symbols.size() ? g_.tir_->annotated_symbols[sid.index] : SymbolId();
        if (sym.valid()) return g_.prog_.symbol(sym).type;
      }
    }
    return TypeId();
  }

  void check_template(const checker::ViewNodes& nodes) {
    for (const checker::ViewNode& n : nodes) {
      if (n.kind == checker::ViewNode::Kind::Component) {
        auto it = children_.find(&n);
        if (it == children_.end()) {
          fail(n.span.begin, fmt::format("child component `<{}>`: its component was not found", n.tag));
        }
      }
      for (const checker::ViewAttr& a : n.attrs)
        if (a.kind == checker::ViewAttr::Kind::Bind) {
          TypeId t = field_type("s_" + a.value);
          TypeKind k = t.valid() ? g_.types_.kind(g_.types_.non_null(t)) : TypeKind::Error;
          if (k != TypeKind::Str && k != TypeKind::Int && k != TypeKind::Float && k != TypeKind::Bool)
            fail(a.span.begin, fmt::format("`bind:` needs a state field of type Str, Int, Float or Bool; `{}` is not one", a.value));
          else if (std::find(binds_.begin(), binds_.end(), a.value) == binds_.end())
            binds_.push_back(a.value);
        }
      check_template(n.children);
      check_template(n.empty);
      for (const auto& b : n.branches) check_template(b);
    }
  }

  // A statement that calls the method of `fn`. An async one is started and left with the
  // runtime (View::start_async), which awaits it without stalling the socket's loop (§1.8);
  // `fz_finish` recomputes the derived values when it ends, as `then` does after a sync call.
  std::string run(FnId fn, const std::string& args, const std::string& then = "") const {
    std::string call = fmt::format("{}({})", method_name(fn), args);
    if (is_async(fn)) return fmt::format("start_async(fz_finish({}));", call);
    return call + ";" + then;
  }

  bool is_async(FnId fn) const { return g_.tir_->fns[fn.index].is_async; }

  // The `on mount` (or `on unmount`) hooks in order, awaiting the async ones: one task.
  bool any_async(checker::ViewHandler::Kind k) const {
    for (const checker::ViewHandler& h : c_.hooks)
      if (h.kind == k && fn_of(h.fn).valid() && is_async(fn_of(h.fn))) return true;
    return false;
  }

  std::string method_name(FnId fn) const {
    return "fzm_" + g_.prog_.symbol(g_.tir_->fns[fn.index].symbol).name;
  }

  void declare_class() {
    std::string props_t = g_.cpp_type(c_.props_type);
    g_.line(fmt::format("namespace {} {{", g_.ns(file_.code_module)));
    g_.line(fmt::format("struct {} final : fitz::live::View {{", cls_));
    ++g_.indent_;
    for (const auto& list : {std::make_pair("p_", &c_.props), std::make_pair("s_", &c_.state), std::make_pair("d_", &c_.derived)})
      for (const checker::ViewField& f : *list.second) {
        TypeId t = field_type(list.first + f.name);
        if (!t.valid()) t = f.type;
        g_.line(fmt::format("{} {}{}{{}};", g_.cpp_type(t), list.first, f.name));
      }
    if (ctx_type_.valid()) g_.line(fmt::format("{} fz_ctx{{}};", g_.cpp_type(ctx_type_)));
    g_.line("fitz::Map<fitz::Str, fitz::Str> fz_payload{};");
    if (emit_type_.valid()) g_.line(fmt::format("{} fz_emit{{}};", g_.cpp_type(emit_type_)));
    if (!children_.empty()) {
      g_.line("fitz::live::ChildTable fz_children;");
      g_.line("fitz::live::ChildTable* children() override { return &fz_children; }");
    }
    g_.line(fmt::format("explicit {}(const {}& props);", cls_, props_t));
    g_.line("void fz_env();");
    g_.line("void fz_derive();");
    g_.line("void mount(bool connected) override;");
    g_.line("void unmount() override;");
    g_.line("fitz::live::Node render(const fitz::live::RenderContext& rc) const override;");
    g_.line("fitz::live::Node fz_render(const fitz::live::RenderContext& rc);");
    g_.line("std::optional<fitz::live::EventError> handle_event(std::string_view name, const fitz::live::Payload& p) override;");
    g_.line("std::unique_ptr<fitz::live::View> snapshot() const override;");
    g_.line("fitz::Task<fitz::Null> fz_hooks(bool mount);");
    g_.line("template <class T> fitz::Task<fitz::Null> fz_finish(fitz::Task<T> t) { co_await t; fz_derive(); co_return fitz::null; }");
    g_.line("std::vector<fitz::live::Subscription> subscriptions() const override;");
    g_.line("std::vector<fitz::live::TimerSpec> timers() const override;");
    g_.line("std::optional<fitz::live::EventError> on_hook(uint32_t hook, std::string_view json) override;");
    for (const auto* list : {&c_.events, &c_.hooks})
      for (const checker::ViewHandler& h : *list) {
        FnId fn = fn_of(h.fn);
        if (fn.valid()) g_.line(g_.fn_signature(fn, method_name(fn), true) + ";");
      }
    --g_.indent_;
    g_.line("};");
    g_.line("}");
  }

  // A method whose body is the generated function `fn`, its prelude bound to members.
  void define_body(FnId fn) {
    bind(fn);
    g_.line(g_.fn_signature(fn, fmt::format("{}::{}::{}", g_.ns(file_.code_module), cls_, method_name(fn)), true) + " {");
    ++g_.indent_;
    g_.emit_fn(fn, method_name(fn), false);
    --g_.indent_;
    g_.line("}");
    g_.view_binds_.clear();
  }

  // Statements of the init function: state defaults (when `state`) and derived values.
  void init_statements(bool state, bool derived) {
    const Ast& ast = *g_.ast_;
    const FnInfo& info = g_.tir_->fns[init_fn_.index];
    bind(init_fn_);
    Gen::FnCtx ctx;
    ctx.info = &info;
    ctx.ret = info.return_type;
    ctx.top_level = true;
    Gen::FnCtx* saved = g_.fn_;
    g_.fn_ = &ctx;
    g_.declare_fn_locals(info);
    for (StmtId sid : ast.get(ast.get(init_fn_).body).stmts) {
      auto* a = std::get_if<AnnotatedAssignStmt>(&ast.get(sid).data);
      if (!a) continue;
      std::string m = member_of(std::string(a->name.text));
      if ((m.starts_with("s_") && state) || (m.starts_with("d_") && derived)) g_.stmt(sid);
    }
    g_.fn_ = saved;
    g_.view_binds_.clear();
  }

  void define_methods() {
    std::string q = fmt::format("{}::{}", g_.ns(file_.code_module), cls_);
    std::string props_t = g_.cpp_type(c_.props_type);
    g_.line(fmt::format("{}::{}(const {}& props) {{", q, cls_, props_t));
    ++g_.indent_;
    for (const checker::ViewField& f : c_.props) g_.line(fmt::format("p_{0} = props->fld_{0};", f.name));
    if (ctx_type_.valid()) {
      StructId sid = g_.types_.struct_of(ctx_type_);
      g_.line(fmt::format("fz_ctx = fitz::make<{}>();", g_.struct_name(sid)));
      for (const auto& f : g_.types_.struct_info(sid).fields)  // `presence` and the rest
        if (f.has_default) g_.line(fmt::format("fz_ctx->fld_{0} = {1}::dflt_{0}();", f.name, g_.struct_name(sid)));
    }
    if (emit_type_.valid()) g_.line(fmt::format("fz_emit = fitz::make<{}>();", g_.struct_name(g_.types_.struct_of(emit_type_))));
    g_.line("fz_env();");
    --g_.indent_;
    if (init_fn_.valid()) init_statements(true, true);
    g_.line("}");

    // `ctx` from the runtime's ViewEnv (§1.3).
    g_.line(fmt::format("void {}::fz_env() {{", q));
    ++g_.indent_;
    if (ctx_type_.valid()) {
      g_.line("fz_ctx->fz_env = &env;");
      g_.line("fz_ctx->fld_presence->fz_env = &env;");
      g_.line("{ fitz::http::JsonReader r(env.user_json.data(), env.user_json.size()); fitz::Any u; "
              "fz_ctx->fld_user = fitz::http::from_json(r, &u) ? u : fitz::Any(); }");
      g_.line("fz_ctx->fld_connected = env.connected;");
      g_.line("fz_ctx->fld_session = fitz::Str(env.session.data(), env.session.size());");
      g_.line("fz_ctx->fld_params = {};");
      g_.line("for (auto& [k, v] : env.params) fz_ctx->fld_params.set(fitz::Str(k.data(), k.size()), fitz::Str(v.data(), v.size()));");
      g_.line("fz_ctx->fld_query = {};");
      g_.line("for (auto& [k, v] : env.query) fz_ctx->fld_query.set(fitz::Str(k.data(), k.size()), fitz::Str(v.data(), v.size()));");
    }
    if (emit_type_.valid()) g_.line("fz_emit->fz_env = &env;");
    --g_.indent_;
    g_.line("}");

    g_.line(fmt::format("void {}::fz_derive() {{", q));
    ++g_.indent_;
    if (init_fn_.valid()) init_statements(false, true);
    --g_.indent_;
    g_.line("}");

    auto hooks_of = [&](checker::ViewHandler::Kind k) {
      std::vector<std::pair<size_t, FnId>> out;
      for (size_t i = 0; i < c_.hooks.size(); ++i)
        if (c_.hooks[i].kind == k && fn_of(c_.hooks[i].fn).valid()) out.push_back({i, fn_of(c_.hooks[i].fn)});
      return out;
    };
    g_.line(fmt::format("void {}::mount(bool connected) {{", q));
    ++g_.indent_;
    g_.line("env.connected = connected;");
    g_.line("fz_env();");
    if (any_async(checker::ViewHandler::Kind::Mount)) {
      g_.line("start_async(fz_hooks(true));");
    } else {
      for (auto& [i, fn] : hooks_of(checker::ViewHandler::Kind::Mount)) g_.line(run(fn, ""));
      g_.line("fz_derive();");
    }
    --g_.indent_;
    g_.line("}");
    g_.line(fmt::format("void {}::unmount() {{", q));
    ++g_.indent_;
    if (!children_.empty()) g_.line("fz_children.unmount_all();  // deepest first");
    g_.line("fz_env();");
    if (any_async(checker::ViewHandler::Kind::Unmount)) {
      g_.line("start_async(fz_hooks(false));");
    } else {
      for (auto& [i, fn] : hooks_of(checker::ViewHandler::Kind::Unmount)) g_.line(run(fn, ""));
    }
    --g_.indent_;
    g_.line("}");
    // With an async hook among them, the mount (or unmount) hooks run in order as one task.
    g_.line(fmt::format("fitz::Task<fitz::Null> {}::fz_hooks(bool mount) {{", q));
    ++g_.indent_;
    for (auto kind : {checker::ViewHandler::Kind::Mount, checker::ViewHandler::Kind::Unmount}) {
      g_.line(fmt::format("if ({}mount) {{", kind == checker::ViewHandler::Kind::Mount ? "" : "!"));
      for (auto& [i, fn] : hooks_of(kind))
        g_.line(fmt::format("  {}{}();", is_async(fn) ? "co_await " : "", method_name(fn)));
      g_.line("}");
    }
    g_.line("fz_derive();");
    g_.line("co_return fitz::null;");
    --g_.indent_;
    g_.line("}");
    emit_snapshot(q);

    // Timers and subscriptions (§1.3): hook numbers are indexes into the component's hooks.
    g_.line(fmt::format("std::vector<fitz::live::TimerSpec> {}::timers() const {{", q));
    ++g_.indent_;
    g_.line("std::vector<fitz::live::TimerSpec> t;");
    for (auto& [i, fn] : hooks_of(checker::ViewHandler::Kind::Every)) {
      g_.line(fmt::format("t.push_back(fitz::live::TimerSpec{{fitz::live::gen::duration_ms({}), {}}});",
                          cpp_quoted(c_.hooks[i].argument), i));
      (void)fn;
    }
    g_.line("return t;");
    --g_.indent_;
    g_.line("}");
    emit_subscriptions(q);
    emit_on_hook(q, hooks_of);

    for (const auto* list : {&c_.events, &c_.hooks})
      for (const checker::ViewHandler& h : *list)
        if (FnId fn = fn_of(h.fn); fn.valid()) define_body(fn);

    emit_handle_event(q);
    emit_render(q);
  }

  // A copy for a handler to work on (§1.3): its own state lists and maps (one level deep) and
  // its own `ctx`, so nothing it changes before it ends, or while it awaits, shows in the view.
  void emit_snapshot(const std::string& q) {
    g_.line(fmt::format("std::unique_ptr<fitz::live::View> {}::snapshot() const {{", q));
    ++g_.indent_;
    g_.line(fmt::format("auto c = std::make_unique<{}>(*this);", cls_));
    for (const checker::ViewField& f : c_.state) {
      TypeId t = field_type("s_" + f.name);
      TypeKind k = t.valid() ? g_.types_.kind(t) : TypeKind::Error;
      if (k == TypeKind::List || k == TypeKind::Map) g_.line(fmt::format("c->s_{0} = s_{0}.copy();", f.name));
    }
    if (ctx_type_.valid()) {
      StructId sid = g_.types_.struct_of(ctx_type_);
      g_.line(fmt::format("c->fz_ctx = fitz::make<{}>(*fz_ctx);", g_.struct_name(sid)));
      for (const auto& f : g_.types_.struct_info(sid).fields)
        if (f.name == "presence" && g_.types_.kind(f.type) == TypeKind::Struct)
          g_.line(fmt::format("c->fz_ctx->fld_presence = fitz::make<{}>(*fz_ctx->fld_presence);",
                              g_.struct_name(g_.types_.struct_of(f.type))));
      g_.line("c->fz_env();");
    }
    g_.line("return c;");
    --g_.indent_;
    g_.line("}");
  }

  void emit_subscriptions(const std::string& q) {
    g_.line(fmt::format("std::vector<fitz::live::Subscription> {}::subscriptions() const {{", q));
    ++g_.indent_;
    g_.line("std::vector<fitz::live::Subscription> s;");
    g_.line(fmt::format("auto* self = const_cast<{}*>(this);", cls_));
    g_.line("(void)self;");
    const Ast& ast = *g_.ast_;
    for (size_t i = 0; i < c_.hooks.size(); ++i) {
      const checker::ViewHandler& h = c_.hooks[i];
      bool msg = h.kind == checker::ViewHandler::Kind::Message;
      if (!msg && h.kind != checker::ViewHandler::Kind::Presence) continue;
      FnId fn = fn_of(h.fn);
      if (!fn.valid()) continue;
      // The topic is the hook function's `__fz_topic: Str = "..."`, evaluated with the props.
      for (StmtId sid : ast.get(ast.get(fn).body).stmts) {
        auto* a = std::get_if<AnnotatedAssignStmt>(&ast.get(sid).data);
        if (!a || a->name.text != "__fz_topic") continue;
        bind(fn);
        for (auto& [sym, member] : g_.view_binds_) member = "self->" + member.substr(6);
        Gen::FnCtx ctx;
        ctx.top_level = true;
        Gen::FnCtx* saved = g_.fn_;
        g_.fn_ = &ctx;
        std::string topic = g_.expr_as(a->value, g_.types_.str());
        g_.fn_ = saved;
        g_.view_binds_.clear();
        g_.line(fmt::format("s.push_back(fitz::live::Subscription{{fitz::live::Subscription::Kind::{}, "
                            "fitz::live::gen::text_of({}), {}}});",
                            msg ? "Message" : "Presence", topic, i));
      }
    }
    g_.line("return s;");
    --g_.indent_;
    g_.line("}");
  }

  template <class HooksOf>
  void emit_on_hook(const std::string& q, HooksOf hooks_of) {
    g_.line(fmt::format("std::optional<fitz::live::EventError> {}::on_hook(uint32_t hook, std::string_view json) {{", q));
    ++g_.indent_;
    g_.line("fz_env();");
    g_.line("(void)json;");
    for (auto& [i, fn] : hooks_of(checker::ViewHandler::Kind::Every))
      g_.line(fmt::format("if (hook == {}) {{ {} return std::nullopt; }}", i, run(fn, "", " fz_derive();")));
    for (auto kind : {checker::ViewHandler::Kind::Message, checker::ViewHandler::Kind::Presence})
      for (auto& [i, fn] : hooks_of(kind)) {
        const FnInfo& info = g_.tir_->fns[fn.index];
        if (info.params.size() != 1) {
          g_.line(fmt::format("if (hook == {}) {{ {} return std::nullopt; }}", i, run(fn, "", " fz_derive();")));
          continue;
        }
        std::string t = g_.cpp_type(info.params[0].type);
        g_.line(fmt::format("if (hook == {}) {{", i));
        g_.line(fmt::format("  {} v{{}};", t));
        g_.line("  fitz::http::JsonReader r(json.data(), json.size());");
        g_.line("  if (!fitz::http::from_json(r, &v)) return fitz::live::EventError{\"args\", \"the message does not decode as the hook's parameter\"};");
        g_.line(fmt::format("  {}", run(fn, "v", " fz_derive();")));
        g_.line("  return std::nullopt;");
        g_.line("}");
        decoded_.push_back(info.params[0].type);
      }
    g_.line("return std::nullopt;");
    --g_.indent_;
    g_.line("}");
  }

  void emit_handle_event(const std::string& q) {
    g_.line(fmt::format("std::optional<fitz::live::EventError> {}::handle_event(std::string_view name, const fitz::live::Payload& p) {{", q));
    ++g_.indent_;
    g_.line("fz_env();");
    g_.line("fz_payload = {};");
    g_.line("for (auto& [k, v] : p) fz_payload.set(fitz::Str(k.data(), k.size()), fitz::Str(v.data(), v.size()));");
    for (const checker::ViewHandler& h : c_.events) {
      FnId fn = fn_of(h.fn);
      if (!fn.valid()) continue;
      const FnInfo& info = g_.tir_->fns[fn.index];
      g_.line(fmt::format("if (name == {}) {{", cpp_quoted(h.name)));
      ++g_.indent_;
      std::string args;
      for (size_t i = 0; i < info.params.size(); ++i) {
        TypeId t = info.params[i].type;
        TypeKind k = g_.types_.kind(g_.types_.non_null(t));
        if (k != TypeKind::Str && k != TypeKind::Int && k != TypeKind::Float && k != TypeKind::Bool) {
          fail(h.span.begin, fmt::format("event parameter `{}` must be Str, Int, Float or Bool (or `T?`)", info.params[i].name));
          continue;
        }
        g_.line(fmt::format("{} a{}{{}};", g_.cpp_type(t), i));
        g_.line(fmt::format("if (auto e = fitz::live::gen::arg(p, {}, &a{})) return e;", cpp_quoted(info.params[i].name), i));
        args += fmt::format("{}a{}", args.empty() ? "" : ", ", i);
      }
      g_.line(run(fn, args, " fz_derive();"));
      g_.line("return std::nullopt;");
      --g_.indent_;
      g_.line("}");
    }
    if (!binds_.empty()) {
      // `bind:value={field}`: the built-in input event assigns the state field (§1.4).
      g_.line("if (name == \"fz:bind\") {");
      ++g_.indent_;
      g_.line("const std::string* f = fitz::live::gen::payload_value(p, \"field\");");
      g_.line("if (!f) return fitz::live::EventError{\"args\", \"a bind event names no field\"};");
      for (const std::string& b : binds_) {
        TypeId t = field_type("s_" + b);
        g_.line(fmt::format("if (*f == {}) {{", cpp_quoted(b)));
        g_.line(fmt::format("  {} v{{}};", g_.cpp_type(t)));
        g_.line("  if (auto e = fitz::live::gen::arg(p, \"value\", &v)) return e;");
        g_.line(fmt::format("  s_{} = v;", b));
        g_.line("  fz_derive();");
        g_.line("  return std::nullopt;");
        g_.line("}");
      }
      g_.line("return fitz::live::EventError{\"args\", \"no bound field \" + *f};");
      --g_.indent_;
      g_.line("}");
    }
    g_.line("return fitz::live::EventError{\"event\", \"unknown event \" + std::string(name)};");
    --g_.indent_;
    g_.line("}");
  }

  // ---- the template
  void collect_fors(BlockId b) {
    const Ast& ast = *g_.ast_;
    for (StmtId sid : ast.get(b).stmts) {
      const Stmt& st = ast.get(sid);
      if (auto* f = std::get_if<ForStmt>(&st.data)) {
        fors_.push_back(f);
        collect_fors(f->body);
      } else if (auto* e = std::get_if<ExprStmt>(&st.data)) {
        collect_if(e->expr);
      }
    }
  }
  void collect_if(ExprId id) {
    const Ast& ast = *g_.ast_;
    auto* i = std::get_if<IfExpr>(&ast.get(id).data);
    if (!i) return;
    collect_fors(i->then_block);
    if (i->else_block.valid()) collect_fors(i->else_block);
  }

  void emit_render(const std::string& q) {
    g_.line(fmt::format("fitz::live::Node {}::render(const fitz::live::RenderContext& rc) const {{", q));
    g_.line(fmt::format("  return const_cast<{}*>(this)->fz_render(rc);", cls_));
    g_.line("}");
    bind(render_fn_);
    collect_fors(g_.ast_->get(render_fn_).body);
    const FnInfo& info = g_.tir_->fns[render_fn_.index];
    Gen::FnCtx ctx;
    ctx.info = &info;
    ctx.ret = info.return_type;
    ctx.top_level = true;
    Gen::FnCtx* saved = g_.fn_;
    g_.fn_ = &ctx;
    g_.line(fmt::format("fitz::live::Node {}::fz_render(const fitz::live::RenderContext& rc) {{", q));
    ++g_.indent_;
    g_.line("fz_env();");
    g_.line("fz_derive();");
    if (!children_.empty()) g_.line("fz_children.begin();");
    g_.declare_fn_locals(info);
    // One root element carries the component number; several are wrapped in a div that does.
    std::vector<const checker::ViewNode*> roots;
    for (const checker::ViewNode& n : c_.template_nodes)
      if (!(n.kind == checker::ViewNode::Kind::Text && n.exprs.empty() && whitespace_only(join(n.parts))))
        roots.push_back(&n);
    if (roots.size() == 1 && roots[0]->kind == checker::ViewNode::Kind::Element) {
      std::string v = element_open(*roots[0], true);
      g_.line(fmt::format("{}.attr(\"data-fz-c\", std::to_string(rc.component));", v));
      element_body(*roots[0], v);
      if (!children_.empty()) g_.line("fz_children.end(rc);");
      g_.line(fmt::format("return {};", v));
    } else {
      g_.line("fitz::live::Node root = fitz::live::el(\"div\");");
      g_.line("root.attr(\"data-fz-c\", std::to_string(rc.component));");
      nodes(c_.template_nodes, "root", false);
      if (!children_.empty()) g_.line("fz_children.end(rc);");
      g_.line("return root;");
    }
    --g_.indent_;
    g_.line("}");
    g_.fn_ = saved;
    g_.view_binds_.clear();
  }

  static std::string join(const std::vector<std::string>& parts) {
    std::string s;
    for (const auto& p : parts) s += p;
    return s;
  }

  std::string var() { return fmt::format("n{}", next_++); }

  bool is_html(const checker::ViewExpr& e) const {
    TypeId t = g_.tir_->type_of(e.code);
    if (g_.types_.kind(t) != TypeKind::Struct) return false;
    const checker::StructInfo& info = g_.types_.struct_info(g_.types_.struct_of(t));
    return info.builtin && info.name == "Html";
  }

  // A value shown in the page: any type, as Fitz interpolation shows it.
  std::string shown(const checker::ViewExpr& e) {
    return fmt::format("fitz::live::gen::text_of(fitz::interp({}))", g_.expr(e.code));
  }

  std::string concat(const std::vector<std::string>& parts, const std::vector<checker::ViewExpr>& exprs) {
    std::string out = "std::string()";
    for (size_t i = 0; i < parts.size(); ++i) {
      if (!parts[i].empty()) out += " + std::string(" + cpp_quoted(parts[i]) + ")";
      if (i < exprs.size() && exprs[i].code.valid()) out += " + " + shown(exprs[i]);
    }
    return out;
  }

  std::string condition(const checker::ViewExpr& e) {
    TypeId t = g_.tir_->type_of(e.code);
    std::string v = g_.expr(e.code);
    if (g_.types_.kind(t) == TypeKind::Nullable)  // null counts as false
      return fmt::format("([&] {{ auto _b = {}; return !_b.is_null() && bool(_b.value()); }}())", v);
    return "bool(" + v + ")";
  }

  // The differ's identity of the next node (views.md §2.3, fitz::live::Node::site): a new
  // template site number, and the iterations of the unkeyed loops around it.
  std::string anchor() {
    std::string a = std::to_string(++g_.view_sites_);
    if (!iter_.empty()) a += ", " + iter_;
    return a;
  }

  std::string anchor_or_zero() { return iter_.empty() ? anchor() + ", 0" : anchor(); }

  std::string element_open(const checker::ViewNode& n, bool pre) {
    std::string v = var();
    g_.line(fmt::format("fitz::live::Node {} = fitz::live::el({}, {});", v, cpp_quoted(n.tag), anchor()));
    (void)pre;
    return v;
  }

  void element_body(const checker::ViewNode& n, const std::string& v) {
    std::vector<const checker::ViewAttr*> classes;
    for (const checker::ViewAttr& a : n.attrs) {
      using K = checker::ViewAttr::Kind;
      switch (a.kind) {
        case K::Static:
          if (a.name == "key" || a.name == "data-flv-key" || a.name == "slot") break;
          g_.line(fmt::format("{}.attr({}, {});", v, cpp_quoted(modifier_attr(a.name)), cpp_quoted(a.value)));
          break;
        case K::Interpolated:
          g_.line(fmt::format("{}.attr({}, {});", v, cpp_quoted(a.name), concat(a.parts, a.exprs)));
          break;
        case K::Boolean:
          if (!a.exprs.empty() && a.exprs[0].code.valid())
            g_.line(fmt::format("{}.bool_attr({}, {});", v, cpp_quoted(a.name), condition(a.exprs[0])));
          break;
        case K::Class:
          classes.push_back(&a);
          break;
        case K::Event: {
          g_.line(fmt::format("{}.attr({}, {});", v, cpp_quoted("data-fz-on-" + a.name), cpp_quoted(a.value)));
          if (!a.exprs.empty()) {
            std::string args;
            for (size_t i = 0; i < a.exprs.size() && i < a.arg_names.size(); ++i) {
              if (!a.exprs[i].code.valid()) continue;
              args += fmt::format("{}{{{}, {}}}", args.empty() ? "" : ", ", cpp_quoted(a.arg_names[i]), shown(a.exprs[i]));
            }
            g_.line(fmt::format("{}.attr(\"data-fz-args\", fitz::live::gen::args_json({{{}}}));", v, args));
          }
          break;
        }
        case K::Bind: {
          if (a.exprs.empty() || !a.exprs[0].code.valid()) break;
          if (a.name == "checked")
            g_.line(fmt::format("{}.bool_attr(\"checked\", {});", v, condition(a.exprs[0])));
          else
            g_.line(fmt::format("{}.attr({}, {});", v, cpp_quoted(a.name), shown(a.exprs[0])));
          g_.line(fmt::format("{}.attr(\"data-fz-bind\", {});", v, cpp_quoted(a.name + ":" + a.value)));
          break;
        }
        case K::Other:
          break;
      }
    }
    if (!classes.empty()) {
      g_.line("{");
      g_.line(fmt::format("  std::string c = {0}.find_attr(\"class\") ? {0}.find_attr(\"class\")->value : std::string();", v));
      for (const checker::ViewAttr* a : classes) {
        if (a->exprs.empty() || !a->exprs[0].code.valid()) continue;
        g_.line(fmt::format("  if ({}) {{ if (!c.empty()) c += ' '; c += {}; }}", condition(a->exprs[0]), cpp_quoted(a->name)));
      }
      g_.line(fmt::format("  {}.attr(\"class\", c);", v));
      g_.line("}");
    }
    if (!c_.scoped_style.empty()) g_.line(fmt::format("{}.scope_attr({});", v, cpp_quoted(scope_)));
    bool pre = n.tag == "pre" || n.tag == "textarea";
    nodes(n.children, v, pre);
    if (n.is_static) g_.line(fmt::format("{}.mark_static();", v));
  }

  void nodes(const checker::ViewNodes& ns, const std::string& parent, bool pre) {
    for (const checker::ViewNode& n : ns) node(n, parent, pre);
  }

  void node(const checker::ViewNode& n, const std::string& parent, bool pre) {
    using K = checker::ViewNode::Kind;
    switch (n.kind) {
      case K::Text: {
        if (n.exprs.empty() && !pre && whitespace_only(join(n.parts))) return;  // §1.4 normalisation
        bool raw = false;
        for (const checker::ViewExpr& e : n.exprs) raw |= e.code.valid() && is_html(e);
        if (!raw) {
          g_.line(fmt::format("{}.child(fitz::live::text({}, {}));", parent, concat(n.parts, n.exprs), anchor()));
          return;
        }
        // An `Html` value goes in as markup (§1.4: `{html_raw(s)}`); the text around it escaped.
        for (size_t i = 0; i < n.parts.size(); ++i) {
          if (!n.parts[i].empty())
            g_.line(fmt::format("{}.child(fitz::live::text({}, {}));", parent, cpp_quoted(n.parts[i]), anchor()));
          if (i >= n.exprs.size() || !n.exprs[i].code.valid()) continue;
          if (is_html(n.exprs[i]))
            g_.line(fmt::format("{}.child(fitz::live::html_raw(fitz::live::gen::text_of({})));", parent, g_.expr(n.exprs[i].code)));
          else
            g_.line(fmt::format("{}.child(fitz::live::text({}, {}));", parent, shown(n.exprs[i]), anchor()));
        }
        return;
      }
      case K::Element: {
        g_.line("{");
        ++g_.indent_;
        std::string v = element_open(n, pre);
        element_body(n, v);
        g_.line(fmt::format("{}.child(std::move({}));", parent, v));
        --g_.indent_;
        g_.line("}");
        return;
      }
      case K::If: {
        for (size_t i = 0; i < n.branches.size(); ++i) {
          if (i < n.exprs.size()) {
            if (!n.exprs[i].code.valid()) return;
            g_.line(fmt::format("{}if ({}) {{", i ? "} else " : "", condition(n.exprs[i])));
          } else {
            g_.line("} else {");
          }
          ++g_.indent_;
          nodes(n.branches[i], parent, pre);
          --g_.indent_;
        }
        g_.line("}");
        return;
      }
      case K::For: {
        if (for_index_ >= fors_.size()) return;
        const ForStmt* f = fors_[for_index_++];
        std::string count = fmt::format("_count{}", next_++);
        std::string holder = fmt::format("_items{}", next_++);
        g_.line(fmt::format("int64_t {} = 0;", count));
        g_.line(fmt::format("fitz::live::Node {} = fitz::live::el(\"template\");", holder));
        const Ast& ast = *g_.ast_;
        g_.for_loop(*f, [&] {
          // The index variable is the body's first statement (`i: Int = 0`); the key follows.
          const auto& stmts = ast.get(f->body).stmts;
          size_t first = 0;
          if (!n.index_var.empty() && !stmts.empty()) {
            StmtId sid = stmts[0];
            SymbolId sym = sid.index < g_.tir_->annotated_symbols.size() ? g_.tir_->annotated_symbols[sid.index] : SymbolId();
            if (sym.valid()) g_.line(fmt::format("{} = {};", g_.sym_ref(sym), count));
            first = 1;
          }
          (void)first;
          g_.line(fmt::format("++{};", count));
          bool keyed = n.keyed && n.exprs.size() > 1 && n.exprs[1].code.valid();
          std::string key;
          if (keyed) {
            TypeId kt = g_.tir_->type_of(n.exprs[1].code);
            key = g_.types_.kind(kt) == TypeKind::Int
                      ? fmt::format("fitz::live::Key::integer({})", g_.expr(n.exprs[1].code))
                      : fmt::format("fitz::live::Key::str({})", shown(n.exprs[1]));
          }
          // A child's identity includes its loop key, the index when unkeyed (§1.5); in nested
          // loops the keys of the enclosing iterations too.
          std::string saved_key = loop_key_, saved_iter = iter_;
          if (!keyed) {  // a keyed row is told apart by its key
            std::string it = fmt::format("_it{}", next_++);
            g_.line(fmt::format("uint64_t {} = fitz::live::iteration({}, {});", it, iter_.empty() ? "0" : iter_, count));
            iter_ = it;
          }
          if (has_component(n.children)) {
            std::string lk = fmt::format("_lk{}", next_++);
            std::string own = keyed ? key : fmt::format("fitz::live::Key::integer({} - 1)", count);
            if (saved_key.empty())
              g_.line(fmt::format("fitz::live::Key {} = {};", lk, own));
            else
              g_.line(fmt::format("fitz::live::Key {} = fitz::live::Key::str({}.as_string() + \"/\" + ({}).as_string());", lk,
                                  saved_key, own));
            loop_key_ = lk;
          }
          if (keyed) {
            std::string item = fmt::format("_item{}", next_++);
            g_.line(fmt::format("fitz::live::Node {} = fitz::live::el(\"template\");", item));
            nodes(n.children, item, pre);
            g_.line(fmt::format("for (auto& c : {}.children) {{ c.with_key({}); {}.children.push_back(std::move(c)); }}",
                                item, key, holder));
          } else {
            nodes(n.children, holder, pre);
          }
          loop_key_ = saved_key;
          iter_ = saved_iter;
        });
        g_.line(fmt::format("for (auto& c : {}.children) {}.child(std::move(c));", holder, parent));
        if (!n.empty.empty()) {
          g_.line(fmt::format("if ({} == 0) {{", count));
          ++g_.indent_;
          nodes(n.empty, parent, pre);
          --g_.indent_;
          g_.line("}");
        }
        return;
      }
      case K::Component:
        child(n, parent);
        return;
      case K::Slot:
        // The parent's content for this slot, rendered in its scope; else the fallback.
        g_.line(fmt::format("if (const auto* _slot = fitz::live::find_slot(rc, {})) {{", cpp_quoted(n.slot_name)));
        if (iter_.empty())
          g_.line(fmt::format("  for (const auto& c : *_slot) {}.child(c);", parent));
        else  // shown once per iteration: the iteration keeps the copies apart
          g_.line(fmt::format("  for (const auto& c : *_slot) {}.child(fitz::live::Node(c).at(c.site, fitz::live::iteration(c.iter, {})));",
                              parent, iter_));
        g_.line("} else {");
        ++g_.indent_;
        nodes(n.children, parent, pre);
        --g_.indent_;
        g_.line("}");
        return;
    }
  }

  static bool has_component(const checker::ViewNodes& ns) {
    for (const checker::ViewNode& n : ns) {
      if (n.kind == checker::ViewNode::Kind::Component) return true;
      if (has_component(n.children) || has_component(n.empty)) return true;
      for (const auto& b : n.branches)
        if (has_component(b)) return true;
    }
    return false;
  }

  // ---- children (§1.4, §1.5)
  struct ChildUse {
    uint32_t position = 0;  // its static position among the template's children
    const checker::ViewFile* file = nullptr;
    const checker::ViewComponent* component = nullptr;
    StructId props;
  };

  // The checker declared `__fz_vN: Child? = null` in the render function for each child node,
  // in template order: its type is the child's props struct, resolved through the imports.
  void find_children() {
    children_.clear();
    std::vector<const checker::ViewNode*> uses;
    collect_uses(c_.template_nodes, uses);
    if (uses.empty()) return;
    std::vector<TypeId> types;
    collect_child_types(g_.ast_->get(render_fn_).body, types);
    if (types.size() != uses.size()) {
      fail(uses[0]->span.begin, "its child components do not match its generated render function");
      return;
    }
    for (size_t i = 0; i < uses.size(); ++i) {
      TypeId t = g_.types_.non_null(types[i]);
      if (g_.types_.kind(t) != TypeKind::Struct) continue;
      StructId sid = g_.types_.struct_of(t);
      const checker::StructInfo& info = g_.types_.struct_info(sid);
      for (const checker::ViewFile& f : g_.options_.views->files)
        if (f.code_module == info.module)
          for (const checker::ViewComponent& vc : f.components)
            if (vc.name == info.name && vc.props_type.valid())
              children_[uses[i]] = ChildUse{static_cast<uint32_t>(i), &f, &vc, sid};
    }
  }
  static void collect_uses(const checker::ViewNodes& ns, std::vector<const checker::ViewNode*>& out) {
    // The order the checker's code writer walks the template in (view_code.cpp).
    for (const checker::ViewNode& n : ns) {
      if (n.kind == checker::ViewNode::Kind::Component) out.push_back(&n);
      collect_uses(n.children, out);
      for (const auto& b : n.branches) collect_uses(b, out);
      collect_uses(n.empty, out);
    }
  }
  void collect_child_types(BlockId b, std::vector<TypeId>& out) const {
    const Ast& ast = *g_.ast_;
    for (StmtId sid : ast.get(b).stmts) {
      const Stmt& st = ast.get(sid);
      if (auto* a = std::get_if<AnnotatedAssignStmt>(&st.data)) {
        if (!a->name.text.starts_with("__fz_v") || !a->value.valid() ||
            !std::holds_alternative<NullLit>(ast.get(a->value).data))
          continue;
        SymbolId sym = sid.index < g_.tir_->annotated_symbols.size() ? g_.tir_->annotated_symbols[sid.index] : SymbolId();
        out.push_back(sym.valid() ? g_.prog_.symbol(sym).type : TypeId());
      } else if (auto* f = std::get_if<ForStmt>(&st.data)) {
        collect_child_types(f->body, out);
      } else if (auto* e = std::get_if<ExprStmt>(&st.data)) {
        if (auto* i = std::get_if<IfExpr>(&ast.get(e->expr).data)) {
          collect_child_types(i->then_block, out);
          if (i->else_block.valid()) collect_child_types(i->else_block, out);
        }
      }
    }
  }

  // A child node: its slot content rendered here (parent's scope), its props evaluated here,
  // then the instance of that identity rendered by the child table.
  void child(const checker::ViewNode& n, const std::string& parent) {
    auto it = children_.find(&n);
    if (it == children_.end()) return;  // reported by check_template
    const ChildUse& use = it->second;
    const checker::ViewComponent& tc = *use.component;
    std::string cls = fmt::format("{}::V_{}", g_.ns(use.file->code_module), tc.name);
    std::string props_t = g_.cpp_type(tc.props_type);
    const checker::StructInfo& info = g_.types_.struct_info(use.props);
    g_.line("{");
    ++g_.indent_;
    // Slot content, in template order (loops inside it are the render function's, in order).
    std::string slots = var();
    g_.line(fmt::format("fitz::live::Slots {};", slots));
    std::vector<std::pair<std::string, std::string>> holders;  // slot name, node
    for (const checker::ViewNode& c : n.children) {
      if (c.kind == checker::ViewNode::Kind::Text && c.exprs.empty() && whitespace_only(join(c.parts))) continue;
      std::string slot;
      for (const checker::ViewAttr& a : c.attrs)
        if (a.name == "slot" && a.kind == checker::ViewAttr::Kind::Static) slot = a.value;
      auto h = std::find_if(holders.begin(), holders.end(), [&](const auto& x) { return x.first == slot; });
      if (h == holders.end()) {
        holders.push_back({slot, var()});
        h = holders.end() - 1;
        g_.line(fmt::format("fitz::live::Node {} = fitz::live::el(\"template\");", h->second));
      }
      node(c, h->second, false);
    }
    for (const auto& [slot, holder] : holders)
      g_.line(fmt::format("{}[{}] = fitz::live::slot_content(std::move({}), rc.component);", slots, cpp_quoted(slot), holder));
    // Props (§1.2): defaults, then what the tag gives, evaluated in this render.
    std::string props = var();
    g_.line(fmt::format("{} {} = fitz::make<{}>();", props_t, props, g_.struct_name(use.props)));
    for (const auto& f : info.fields)
      if (f.has_default) g_.line(fmt::format("{0}->fld_{1} = {2}::dflt_{1}();", props, f.name, g_.struct_name(use.props)));
    std::vector<std::string> initial_state;  // upstream's props-less form sets state at creation
    std::string bindings = var();
    g_.line(fmt::format("std::vector<fitz::live::ChildBinding> {};", bindings));
    for (const checker::ViewAttr& a : n.attrs) {
      using K = checker::ViewAttr::Kind;
      if (a.kind == K::Event) {
        std::string args;
        for (size_t i = 0; i < a.exprs.size() && i < a.arg_names.size(); ++i)
          if (a.exprs[i].code.valid())
            args += fmt::format("{}{{{}, {}}}", args.empty() ? "" : ", ", cpp_quoted(a.arg_names[i]), shown(a.exprs[i]));
        g_.line(fmt::format("{}.push_back(fitz::live::ChildBinding{{{}, {}, {{{}}}}});", bindings, cpp_quoted(a.name),
                            cpp_quoted(a.value), args));
        continue;
      }
      if (a.kind != K::Static && a.kind != K::Interpolated && a.kind != K::Boolean) continue;
      if (a.name == "slot") continue;
      TypeId want;
      std::string target;
      if (tc.has_props_block) {
        for (const auto& f : info.fields)
          if (f.name == a.name) want = f.type, target = fmt::format("{}->fld_{}", props, f.name);
      } else {
        for (const checker::ViewField& f : tc.state)
          if (f.name == a.name) want = f.type, target = fmt::format("_s{}", next_++);
      }
      if (!want.valid()) continue;
      std::string value;
      if (a.kind == K::Static)
        value = fmt::format("fitz::Str::from(std::string({}))", cpp_quoted(a.value));
      else if (a.exprs.size() == 1 && a.parts.size() == 2 && a.parts[0].empty() && a.parts[1].empty() && a.exprs[0].code.valid())
        value = g_.expr_as(a.exprs[0].code, want);
      else
        value = fmt::format("fitz::Str::from({})", concat(a.parts, a.exprs));
      if (tc.has_props_block) {
        g_.line(fmt::format("{} = {};", target, value));
      } else {
        g_.line(fmt::format("{} {} = {};", g_.cpp_type(want), target, value));
        initial_state.push_back(fmt::format("v->s_{} = {};", a.name, target));
      }
    }
    std::string make = fmt::format("[&]() -> std::unique_ptr<fitz::live::View> {{ auto v = std::make_unique<{}>({}); ", cls, props);
    for (const std::string& st : initial_state) make += st + " ";
    make += "return v; }";
    std::string update = fmt::format("[&](fitz::live::View& v) {{ auto& c = static_cast<{}&>(v); ", cls);
    for (const checker::ViewField& f : tc.props) update += fmt::format("c.p_{0} = {1}->fld_{0}; ", f.name, props);
    update += "(void)c; }";
    // Its root carries this use's identity, not the child template's own.
    g_.line(fmt::format("{}.child(fz_children.render(rc, env, {}, {}, {}, {}, std::move({}), {}).at({}));", parent, use.position,
                        loop_key_.empty() ? "fitz::live::Key()" : loop_key_, make, update, bindings, slots,
                        anchor_or_zero()));
    --g_.indent_;
    g_.line("}");
  }

 public:
  std::vector<TypeId> decoded_;  // hook parameter types read from JSON

 private:
  Gen& g_;
  const checker::ViewFile& file_;
  const checker::ViewComponent& c_;
  std::string cls_;
  std::string scope_;
  FnId init_fn_, render_fn_;
  TypeId ctx_type_;
  TypeId emit_type_;  // FitzViewEmits_<Name> when its bodies `emit`
  std::map<const checker::ViewNode*, ChildUse> children_;
  std::string loop_key_;  // the C++ Key of the enclosing loop iterations, "" outside loops
  std::string iter_;      // the C++ uint64_t of the enclosing unkeyed iterations, "" outside them
  std::vector<std::string> binds_;
  std::vector<const ForStmt*> fors_;
  size_t for_index_ = 0;
  bool report_ = true;
  int next_ = 0;
};

}  // namespace

void Gen::emit_view_decls() {
  if (view_modules_.empty()) return;
  line("// Live views: one class per .fitzv component.");
  for (const checker::ViewFile& f : options_.views->files) {
    if (!f.code_module.valid()) continue;
    for (const checker::ViewComponent& c : f.components) ViewEmitter(*this, f, c).declare();
  }
}

void Gen::emit_views() {
  if (view_modules_.empty()) return;
  std::string styles;
  for (const checker::ViewFile& f : options_.views->files) {
    if (!f.code_module.valid()) continue;
    for (const checker::ViewComponent& c : f.components) {
      ViewEmitter e(*this, f, c);
      e.define();
      styles += e.css();
    }
  }
  line(fmt::format("[[maybe_unused]] static const char kFzViewStyles[] = {};", cpp_quoted(styles)));
  line("[[maybe_unused]] static void fz_register_views(fitz::live::ViewRegistry& r) {");
  ++indent_;
  for (const checker::ViewFile& f : options_.views->files) {
    if (!f.code_module.valid()) continue;
    for (const checker::ViewComponent& c : f.components) {
      std::string props_t = cpp_type(c.props_type);
      line(fmt::format("r.add({}, [](std::string_view json, std::string* error) -> std::unique_ptr<fitz::live::View> {{",
                       cpp_quoted(c.name)));
      line(fmt::format("  {} props{{}};", props_t));
      line("  fitz::http::JsonReader rd(json.data(), json.size());");
      line("  if (!fitz::http::from_json(rd, &props)) { if (error) *error = \"the props do not decode\"; return nullptr; }");
      line(fmt::format("  return std::make_unique<{}::V_{}>(props);", ns(f.code_module), c.name));
      line("});");
    }
  }
  --indent_;
  line("}");
  line("");
}

StructId Gen::view_props_arg(const CallExpr& c, Span at, std::string_view builtin) {
  ExprId a = c.args.empty() ? ExprId() : c.args[0].value;
  TypeId t = a.valid() ? tir_->type_of(a) : TypeId();
  StructId sid = t.valid() && types_.kind(t) == TypeKind::Struct ? types_.struct_of(t) : StructId();
  if (sid.valid() && view_modules_.count(types_.struct_info(sid).module.index)) return sid;
  frontend::LineCol lc = sources_.file(ast_->file).line_col(at.begin);
  result_.not_compiled.push_back(fmt::format("{}:{}:{}: `{}` takes a live view's props (`Counter {{ ... }}`), not `{}`",
                                             sources_.file(ast_->file).path(), lc.line, lc.col, builtin,
                                             t.valid() ? types_.display(t) : "nothing"));
  return StructId();
}

std::string Gen::live_test_call(const CallExpr& c, Span at) {
  StructId sid = view_props_arg(c, at, "live_test");
  if (!sid.valid()) return "fitz::Any()";
  ExprId a = c.args[0].value;
  const checker::StructInfo& info = types_.struct_info(sid);
  return fmt::format("fitz::live::gen::live_test(std::make_unique<{}::V_{}>({}), {})", ns(info.module), info.name, expr(a),
                     pos(at));
}

}  // namespace fitz::codegen
