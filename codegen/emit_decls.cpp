// Declarations: user types as structs with the runtime's object protocol, function prototypes
// and bodies, module globals, one initialiser per module (its top-level code) and main().
#include <fmt/format.h>

#include <filesystem>

#include "codegen/emit_orm.h"
#include "codegen/gen.h"

namespace fitz::codegen {

namespace {

bool is_null_like(checker::TypeStore& types, TypeId t) {
  TypeKind k = types.kind(t);
  return k == TypeKind::Null || k == TypeKind::Nullable || k == TypeKind::Any ||
         k == TypeKind::Error || k == TypeKind::Never;
}

}  // namespace

void Gen::emit_struct_decls() {
  for (uint32_t i = 0; i < types_.struct_count(); ++i) {
    const auto& info = types_.struct_info(StructId(i));
    if (info.builtin) continue;
    line(fmt::format("namespace {} {{ struct T_{}; }}", ns(info.module), info.name));
  }
  line("");
}

void Gen::emit_struct_defs() {
  for (uint32_t i = 0; i < types_.struct_count(); ++i) {
    const auto& info = types_.struct_info(StructId(i));
    if (info.builtin) continue;
    line(fmt::format("namespace {} {{", ns(info.module)));
    line(fmt::format("struct T_{} {{", info.name));
    ++indent_;
    line(fmt::format("static constexpr const char* fitz_name = \"{}\";", info.name));
    if (!info.fields.empty()) {
      std::string names;
      for (const auto& f : info.fields) names += fmt::format("{}\"{}\"", names.empty() ? "" : ", ", f.name);
      line(fmt::format("static constexpr const char* fitz_field_names[] = {{{}}};", names));
      // `@hidden` fields: JSON of an instance held as Any leaves them out too (any_boxes.h).
      std::string hidden;
      bool any_hidden = false;
      for (const auto& f : info.fields) {
        bool h = f.hidden;
        any_hidden |= h;
        hidden += fmt::format("{}{}", hidden.empty() ? "" : ", ", h ? "true" : "false");
      }
      if (any_hidden) line(fmt::format("static constexpr bool fitz_field_hidden[] = {{{}}};", hidden));
    }
    std::string tie;
    for (const auto& f : info.fields) {
      line(fmt::format("{} fld_{}{{}};", cpp_type(f.type), f.name));
      tie += (tie.empty() ? "" : ", ") + fmt::format("fld_{}", f.name);
      if (f.has_default) line(fmt::format("static {} dflt_{}();", cpp_type(f.type), f.name));
    }
    line(fmt::format("auto fitz_fields() const {{ return std::tie({}); }}", tie));
    if (is_view_prelude(StructId(i))) line("fitz::live::ViewEnv* fz_env = nullptr;  // set by the view before each call");
    line(fmt::format("auto fitz_fields() {{ return std::tie({}); }}", tie));
    mod_ = info.module;
    ast_ = &graph_.get(mod_).ast;
    tir_ = &prog_.modules[mod_.index];
    for (const auto& m : info.methods) {
      std::string sig = fn_signature(m.fn, "mth_" + m.name, true);
      line((m.is_static ? "static " : "") + sig + ";");
    }
    --indent_;
    line("};");
    line("}");
  }
  emit_orm_row_decoders(*this);
  line("");
}

std::string Gen::fn_signature(FnId id, const std::string& name, bool with_param_names) {
  const FnInfo& info = tir_->fns[id.index];
  std::string ret = cpp_type(info.return_type);
  if (info.is_async) ret = "fitz::Task<" + ret + ">";
  std::string params;
  for (size_t i = 0; i < info.params.size(); ++i) {
    const auto& p = info.params[i];
    params += (i ? ", " : "") + cpp_type(p.type);
    if (with_param_names) {
      // A captured parameter is copied into a shared cell on entry; the C++ parameter is renamed.
      std::string n = p.symbol.valid() ? local_name(p.symbol) : fmt::format("_p{}", i);
      if (p.symbol.valid() && boxed_.count(p.symbol.index)) n = "_in_" + n;
      params += " " + n;
    }
  }
  return fmt::format("{} {}({})", ret, name, params);
}

void Gen::emit_globals() {
  // Declared for every translation unit, defined in the first.
  for (int defining = 0; defining < 2; ++defining) {
    part(defining ? UnitPart::Kind::Once : UnitPart::Kind::Shared);
    for (ModuleId m : graph_.init_order) {
      const ModuleTir& tir = prog_.modules[m.index];
      if (tir.globals.empty()) continue;
      line(fmt::format("namespace {} {{", ns(m)));
      for (SymbolId g : tir.globals) {
        const Symbol& s = prog_.symbol(g);
        line(defining ? fmt::format("{} g_{}{{}};", cpp_type(s.type), s.name)
                      : fmt::format("extern {} g_{};", cpp_type(s.type), s.name));
      }
      line("}");
    }
  }
  line("");
}

void Gen::emit_fn_protos() {
  for (ModuleId m : graph_.init_order) {
    mod_ = m;
    ast_ = &graph_.get(m).ast;
    tir_ = &prog_.modules[m.index];
    line(fmt::format("namespace {} {{", ns(m)));
    for (StmtId s : ast_->top_level) {
      const Stmt& st = ast_->get(s);
      auto* f = std::get_if<FnStmt>(&st.data);
      if (!f) continue;
      const FnInfo& info = tir_->fns[f->fn.index];
      if (!info.symbol.valid() || is_view_fn(m, info)) continue;
      // A route's handler has a twin that answers the request (hm_, emit_http_fns); this plain
      // one is compiled only when something calls it.
      if (!plain_twin_needed(m, f->fn)) continue;
      line(fn_signature(f->fn, fn_name(info), true) + ";");
    }
    line("void init();");
    line("}");
  }
  line("");
}

void Gen::declare_fn_locals(const FnInfo& info) {
  for (const auto& p : info.params) {
    if (!p.symbol.valid()) continue;
    fn_->declared.insert(p.symbol.index);
    if (boxed_.count(p.symbol.index))
      line(fmt::format("auto {0} = fitz::make<{1}>(_in_{0});", local_name(p.symbol), cpp_type(p.type)));
  }
  for (SymbolId l : info.locals) {
    if (fn_->declared.count(l.index) || view_binds_.count(l.index)) continue;
    const Symbol& s = prog_.symbol(l);
    if (s.kind == SymbolKind::Global) continue;
    fn_->declared.insert(l.index);
    std::string t = cpp_type(s.type);
    if (boxed_.count(l.index))
      line(fmt::format("auto {} = fitz::make<{}>();", local_name(l), t));
    else
      line(fmt::format("{} {}{{}};", t, local_name(l)));
  }
}

std::string Gen::return_stmt(const std::string& value) {
  return (fn_ && fn_->is_async ? "co_return " : "return ") + value + ";";
}

// The body of a function, method or lambda (everything between the braces).
void Gen::emit_fn(FnId id, const std::string& /*qualified_name*/, bool /*is_lambda_body*/, bool http, bool html) {
  const FnDecl& decl = ast_->get(id);
  const FnInfo& info = tir_->fns[id.index];
  FnCtx ctx;
  ctx.info = &info;
  ctx.fn = id;
  ctx.is_async = info.is_async;
  ctx.ret = info.return_type;
  ctx.in_method = info.owner.valid() && !info.is_static;
  ctx.http = http;
  ctx.html = html;
  FnCtx* saved = fn_;
  auto saved_loops = std::move(loops_);
  loops_.clear();
  fn_ = &ctx;
  std::string prologue = take_block_text([&] {
    declare_fn_locals(info);
    emit_observe_scopes(id);
  });
  if (options_.debug_line_info) {
    // The hoisted locals belong to the `fn` line; counted on from it, they would take the
    // lines of the statements below, and a breakpoint there would stop before any of them ran.
    for (size_t pos = 0; pos < prologue.size();) {
      size_t nl = prologue.find('\n', pos);
      if (nl == std::string::npos) nl = prologue.size() - 1;
      line_directive(decl.span);
      out_.append(prologue, pos, nl + 1 - pos);
      pos = nl + 1;
    }
  } else {
    out_ += prologue;
  }
  block(decl.body);
  // The unreachable fallthrough below and the caller's closing brace (where destructors run)
  // both belong to the function's `}`.
  bool end_line = options_.debug_line_info && decl.span.end > decl.span.begin;
  if (end_line) line_directive_at(decl.span, decl.span.end - 1);
  // Falling off the end returns null (the checker rejects it where the type has no null); a
  // handler answers `null`, a before middleware lets the request through.
  if (http)
    line(return_stmt("fzh::Out::pass()"));
  else if (is_null_like(types_, info.return_type))
    line(return_stmt(cpp_type(info.return_type) + "{}"));
  else
    line(fmt::format("fitz::runtime_error({}, \"function ended without returning a value\");",
                     pos(decl.span)));
  if (end_line) line_directive_at(decl.span, decl.span.end - 1);
  fn_ = saved;
  loops_ = std::move(saved_loops);
}

void Gen::emit_fn_defs() {
  // Field defaults and methods of user types.
  for (uint32_t i = 0; i < types_.struct_count(); ++i) {
    const auto& info = types_.struct_info(StructId(i));
    if (info.builtin) continue;
    mod_ = info.module;
    ast_ = &graph_.get(mod_).ast;
    tir_ = &prog_.modules[mod_.index];
    std::string qual = struct_name(StructId(i));
    for (const auto& f : info.fields) {
      if (!f.has_default) continue;
      if (!f.default_value.valid()) {
        // ORM relation and @db_default fields may be omitted without a written default: they
        // start empty (an empty list, null) until a preload or the database fills them.
        part(UnitPart::Kind::Piece);
        line(fmt::format("{} {}::dflt_{}() {{ return {{}}; }}", cpp_type(f.type), qual, f.name));
        continue;
      }
      FnCtx ctx;
      ctx.top_level = true;
      fn_ = &ctx;
      part(UnitPart::Kind::Piece);
      line(fmt::format("{} {}::dflt_{}() {{", cpp_type(f.type), qual, f.name));
      ++indent_;
      line("return " + expr_as(f.default_value, f.type) + ";");
      --indent_;
      line("}");
      fn_ = nullptr;
    }
    for (const auto& m : info.methods) {
      part(UnitPart::Kind::Piece);
      line(fn_signature(m.fn, qual + "::mth_" + m.name, true) + " {");
      ++indent_;
      if (is_view_emits(StructId(i)))
        emit_view_emit_method(m.fn, m.name);
      else if (is_view_prelude(StructId(i)))
        emit_view_ctx_method(m.fn, m.name);
      else
        emit_fn(m.fn, qual + "::mth_" + m.name, false);
      --indent_;
      line("}");
    }
  }
  for (ModuleId m : graph_.init_order) {
    mod_ = m;
    ast_ = &graph_.get(m).ast;
    tir_ = &prog_.modules[m.index];
    for (StmtId s : ast_->top_level) {
      auto* f = std::get_if<FnStmt>(&ast_->get(s).data);
      if (!f) continue;
      const FnInfo& info = tir_->fns[f->fn.index];
      if (!info.symbol.valid() || is_view_fn(m, info) || !plain_twin_needed(m, f->fn)) continue;
      part(UnitPart::Kind::Piece);
      line_directive(ast_->get(f->fn).span);
      line(fn_signature(f->fn, ns(m) + "::" + fn_name(info), true) + " {");
      ++indent_;
      emit_fn(f->fn, fn_name(info), false);
      --indent_;
      line("}");
    }
  }
  part(UnitPart::Kind::Shared);
  line("");
}

void Gen::emit_inits() {
  for (ModuleId m : graph_.init_order) {
    mod_ = m;
    ast_ = &graph_.get(m).ast;
    tir_ = &prog_.modules[m.index];
    FnCtx ctx;
    ctx.top_level = true;
    fn_ = &ctx;
    line(fmt::format("void {}::init() {{", ns(m)));
    ++indent_;
    // Runs once, when the module is first imported: imports interleave with top-level code.
    line("static bool done = false;");
    line("if (done) return;");
    line("done = true;");
    for (StmtId s : ast_->top_level) {
      const Stmt& st = ast_->get(s);
      if (std::holds_alternative<FnStmt>(st.data) || std::holds_alternative<TypeStmt>(st.data)) continue;
      stmt(s);
    }
    --indent_;
    line("}");
    fn_ = nullptr;
  }
  line("");
}

bool Gen::declares_tests(ModuleId m) const {
  for (const FnInfo& f : prog_.modules[m.index].fns)
    if (f.is_test) return true;
  return false;
}

void Gen::emit_main() {
  line("static void fitz_program() {");
  ++indent_;
  if (options_.test_mode) {
    // Test files run their top-level code and, on import, the modules they test; a program's
    // entry point (src/main.fitz) is not run by `fitz test`.
    for (ModuleId m : graph_.roots)
      if (declares_tests(m)) line(ns(m) + "::init();");
  } else {
    // The roots import everything else; any module not reached that way still runs, in order.
    for (ModuleId m : graph_.roots) line(ns(m) + "::init();");
    for (ModuleId m : graph_.init_order) line(ns(m) + "::init();");
  }
  --indent_;
  line("}");
  line("");
  if (!options_.test_mode) {
    if (emit_cli_main()) return;
    if (emit_jobs_main()) return;
    if (has_http()) {
      // Top-level code runs first; the server starts once it has finished without error.
      emit_http_serve();
      std::string migrate = emit_migrate_entry();
      line("int main(int argc, char** argv) {" + migrate + flag_defaults());
      line("  int rc = fitz::run_main(argc, argv, &fitz_program);");
      line("  return rc != 0 ? rc : fitz_serve();");
      line("}");
      return;
    }
    line("int main(int argc, char** argv) {" + flag_defaults() + " return fitz::run_main(argc, argv, &fitz_program); }");
    return;
  }
  // `fitz test`: the program's top-level code runs first (tests may use its globals), then
  // each @test function, with runtime errors caught so one failure does not stop the rest.
  line("struct FitzTest { const char* file; const char* name; void (*run)(); };");
  line("static const FitzTest fitz_tests[] = {");
  ++indent_;
  for (ModuleId root : graph_.roots) {
    mod_ = root;
    ast_ = &graph_.get(root).ast;
    tir_ = &prog_.modules[root.index];
    std::string file = graph_.get(root).path.filename().string();
    if (!options_.test_file.empty()) {
      std::error_code ec;
      if (std::filesystem::weakly_canonical(graph_.get(root).path, ec) !=
          std::filesystem::weakly_canonical(options_.test_file, ec))
        continue;
      result_.test_file_found = true;
    }
    for (StmtId s : ast_->top_level) {
      auto* f = std::get_if<FnStmt>(&ast_->get(s).data);
      if (!f) continue;
      const FnDecl& d = ast_->get(f->fn);
      if (!tir_->fns[f->fn.index].is_test || !d.name) continue;
      std::string name(d.name->text);
      if (!options_.test_filter.empty() && name.find(options_.test_filter) == std::string::npos) continue;
      const FnInfo& info = tir_->fns[f->fn.index];
      std::string call = fmt::format("{}::{}()", ns(root), fn_name(info));
      if (info.is_async) call = fmt::format("fitz::block_on({}, {})", call, pos(d.span));
      line(fmt::format("{{\"{}\", \"{}\", [] {{ (void){}; }}}},", file, name, call));
      ++result_.test_count;
    }
  }
  line("{nullptr, nullptr, nullptr},");
  --indent_;
  line("};");
  line("static int fitz_failed = 0;");
  line("static void fitz_run_tests() {");
  ++indent_;
  line("fitz_program();");
  line("int passed = 0;");
  line("std::vector<std::pair<const FitzTest*, fitz::Panic>> failures;");
  line("for (const FitzTest* t = fitz_tests; t->name; ++t) {");
  line("  fitz::Panic p;");
  line("  bool failed = fitz::catch_panic([&] { t->run(); }, &p);");
  line("  fitz::print(fitz::interp(fitz::Str::lit(\"test \"), fitz::Str(t->file), fitz::Str::lit(\"::\"), fitz::Str(t->name), (failed ? fitz::Str::lit(\" ... FAILED\") : fitz::Str::lit(\" ... ok\"))));");
  line("  if (failed) { ++fitz_failed; failures.emplace_back(t, p); } else { ++passed; }");
  line("}");
  line("if (!failures.empty()) {");
  line("  fitz::print(fitz::Str::lit(\"\\nfailures:\"));");
  line("  for (auto& [t, p] : failures) {");
  line("    fitz::print(fitz::interp(fitz::Str::lit(\"\\n---- \"), fitz::Str(t->file), fitz::Str::lit(\"::\"), fitz::Str(t->name), fitz::Str::lit(\" ----\")));");
  line("    if (p.pos.file) fitz::print(fitz::interp(fitz::Str(p.pos.file), fitz::Str::lit(\":\"), int64_t(p.pos.line), fitz::Str::lit(\":\"), int64_t(p.pos.col), fitz::Str::lit(\": \"), p.message));");
  line("    else fitz::print(p.message);");
  line("    if (p.has_sides) { fitz::print(fitz::Str::lit(\"  left:\"), p.left); fitz::print(fitz::Str::lit(\" right:\"), p.right); }");
  line("  }");
  line("  fitz::print(fitz::Str::lit(\"\"));");
  line("}");
  line("fitz::print(fitz::interp(int64_t(passed), fitz::Str::lit(\" passed, \"), int64_t(fitz_failed), fitz::Str::lit(\" failed\")));");
  --indent_;
  line("}");
  line("int main(int argc, char** argv) {" + flag_defaults());
  line("  int rc = fitz::run_main(argc, argv, &fitz_run_tests);");
  line("  return rc != 0 ? rc : (fitz_failed ? 1 : 0);");
  line("}");
}

}  // namespace fitz::codegen
