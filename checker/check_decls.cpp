// Declarations: top-level names (types, functions, imports), type annotations, struct layouts,
// function signatures, and checking a function body with its own scope.
#include <algorithm>

#include "checker/check_internal.h"
#include "checker/doc_comments.h"
#include "checker/decorators.h"

namespace fitz::checker::detail {

namespace {

bool is_builtin_type_name(std::string_view n) {
  static constexpr std::string_view kNames[] = {"Int",  "Float", "Bool", "Str",    "Null",   "Any", "Bytes",
                                                "Range", "List", "Map",  "Result", "Future", "Fn", "Py"};
  return std::find(std::begin(kNames), std::end(kNames), n) != std::end(kNames);
}

}  // namespace

SymbolId Checker::resolve_import_target(SymbolId sym) {
  for (int hops = 0; hops < 64 && sym.valid(); ++hops) {
    const Symbol& s = prog_.symbol(sym);
    if (s.kind != SymbolKind::Import) return sym;
    sym = s.target;
  }
  return SymbolId();
}

void Checker::collect_top_level() {
  std::unordered_map<uint32_t, ModuleId> import_target;  // StmtId -> module
  for (const ResolvedImport& ri : m_->imports) import_target.emplace(ri.stmt.index, ri.target);

  // The imported name behind each `from` import symbol (`b` of `from m import b as c`), to tell
  // a repeated import of the same thing (a warning) from two different things under one name.
  std::unordered_map<uint32_t, std::string_view> imported_as;
  auto declare_name = [&](const Ident& name, SymbolId s, bool is_type) {
    auto [it, fresh] = module_names_.try_emplace(name.text, s);
    if (!fresh) {
      const Symbol& first = prog_.symbol(it->second);
      const Symbol& second = prog_.symbol(s);
      SymbolKind k = second.kind;
      bool same_import =
          first.kind == k && first.target_module == second.target_module &&
          ((k == SymbolKind::Module) ||
           (k == SymbolKind::Import && imported_as[it->second.index] == imported_as[s.index]));
      if (same_import) {
        if (options_.warnings)
          warning(DiagKind::DuplicateImport, name.span,
                  k == SymbolKind::Module ? fmt::format("module `{}` is imported twice", name.text)
                                          : fmt::format("`{}` is imported twice from the same module", name.text))
              .with_label(first.span, "first imported here")
              .with_hint("remove the repeated import");
        return;
      }
      std::string_view what = is_type                     ? "type"
                              : k == SymbolKind::Function ? "function"
                                                          : "imported name";
      error(is_type ? DiagKind::DuplicateType : DiagKind::DuplicateFunction, name.span,
            fmt::format("{} `{}` declared more than once", what, name.text))
          .with_label(first.span, "first declared here");
      return;
    }
    tir_->top_level.push_back(s);
  };

  tir_->top_level.clear();
  tir_->python_imports.clear();
  int_constants_.clear();
  for (StmtId sid : ast_->top_level) {
    if (auto* a = std::get_if<AssignStmt>(&ast_->get(sid).data)) {
      auto* n = a->target.valid() ? std::get_if<NameRef>(&ast_->get(a->target).data) : nullptr;
      if (!n) continue;
      auto* lit = a->value.valid() && !a->compound ? std::get_if<IntLit>(&ast_->get(a->value).data) : nullptr;
      auto [it, fresh] = int_constants_.try_emplace(n->name.text, std::nullopt);
      if (fresh && lit) it->second = lit->value;
      else it->second = std::nullopt;
    }
  }
  for (StmtId sid : ast_->top_level) {
    const Stmt& st = ast_->get(sid);
    if (auto* t = std::get_if<TypeStmt>(&st.data)) {
      declare_struct(t->type);
      const TypeDecl& td = ast_->get(t->type);
      Symbol s;
      s.kind = SymbolKind::Type;
      s.name = std::string(td.name.text);
      s.module = mod_;
      s.span = td.name.span;
      s.struct_id = tir_->type_decls[t->type.index];
      s.type = types_->struct_type(s.struct_id);
      SymbolId id = prog_.add_symbol(std::move(s));
      if (is_builtin_type_name(td.name.text) || builtins_->nominal(td.name.text)) {
        error(DiagKind::DuplicateType, td.name.span, fmt::format("type `{}` declared more than once", td.name.text))
            .with_hint(fmt::format("`{}` is a built-in type; choose another name", td.name.text));
        continue;
      }
      declare_name(td.name, id, true);
    } else if (auto* f = std::get_if<FnStmt>(&st.data)) {
      const FnDecl& fd = ast_->get(f->fn);
      if (!fd.name) continue;
      Symbol s;
      s.kind = SymbolKind::Function;
      s.name = std::string(fd.name->text);
      s.module = mod_;
      s.span = fd.name->span;
      s.fn = f->fn;
      SymbolId id = prog_.add_symbol(std::move(s));
      tir_->fns[f->fn.index].symbol = id;
      declare_name(*fd.name, id, false);
    } else if (auto* im = std::get_if<ImportStmt>(&st.data)) {
      if (im->path.empty()) continue;
      const Ident& name = im->alias ? *im->alias : im->path.back();
      Symbol s;
      s.kind = SymbolKind::Module;
      s.name = std::string(name.text);
      s.module = mod_;
      s.span = name.span;
      auto it = import_target.find(sid.index);
      s.target_module = it == import_target.end() ? ModuleId() : it->second;
      s.type = s.target_module.valid() ? types_->module(s.target_module) : types_->error();
      declare_name(name, prog_.add_symbol(std::move(s)), false);
    } else if (auto* fi = std::get_if<FromImportStmt>(&st.data);
               fi && fi->path.size() == 1 && fi->path.front().text == "python") {
      // Python modules: module globals typed Py, set when the program starts.
      for (const ImportName& n : fi->names) {
        std::string module(n.name.text);
        for (const Ident& part : n.rest) module += "." + std::string(part.text);
        if (!n.rest.empty() && !n.alias) {
          error(DiagKind::DottedImportName, Span{n.name.span.file, n.name.span.begin, n.rest.back().span.end},
                fmt::format("`{}` needs a name to be known by", module))
              .with_hint(fmt::format("write `from python import {} as {}`", module, n.rest.back().text));
          continue;
        }
        const Ident& name = n.alias ? *n.alias : n.name;
        Symbol s;
        s.kind = SymbolKind::Global;
        s.name = std::string(name.text);
        s.module = mod_;
        s.span = name.span;
        s.type = types_->py();
        s.annotated = true;
        SymbolId id = prog_.add_symbol(std::move(s));
        tir_->python_imports.push_back({id, module, name.span});
        declare_name(name, id, false);
      }
    } else if (auto* fi = std::get_if<FromImportStmt>(&st.data)) {
      auto it = import_target.find(sid.index);
      ModuleId target = it == import_target.end() ? ModuleId() : it->second;
      for (const ImportName& n : fi->names) {
        if (!n.rest.empty()) {
          error(DiagKind::DottedImportName, Span{n.name.span.file, n.name.span.begin, n.rest.back().span.end},
                "names imported from a Fitz module are single names")
              .with_hint("import the module itself (`import a.b`) or name what it exports");
          continue;
        }
        const Ident& name = n.alias ? *n.alias : n.name;
        Symbol s;
        s.kind = SymbolKind::Import;
        s.name = std::string(name.text);
        s.module = mod_;
        s.span = name.span;
        s.target_module = target;
        if (module_ready(target)) {
          const ModuleInterface& iface = prog_.modules[target.index].interface;
          auto found = iface.by_name.find(std::string(n.name.text));
          if (found != iface.by_name.end()) s.target = found->second;
        }
        // Unresolved (missing module or name, already reported by the loader; or an import
        // cycle): the name reads as Error (missing) or Any (cycle), never cascading.
        s.type = target.valid() && !module_ready(target) ? types_->any() : types_->error();
        SymbolId id = prog_.add_symbol(std::move(s));
        imported_as[id.index] = n.name.text;
        declare_name(name, id, false);
      }
    }
  }
  // Layouts and signatures, once every type name is known (types may refer to each other).
  for (StmtId sid : ast_->top_level) {
    const Stmt& st = ast_->get(sid);
    if (auto* t = std::get_if<TypeStmt>(&st.data)) resolve_struct(t->type);
  }
  for (StmtId sid : ast_->top_level) {
    const Stmt& st = ast_->get(sid);
    if (auto* t = std::get_if<TypeStmt>(&st.data)) {
      const TypeDecl& td = ast_->get(t->type);
      check_decorators_type(td);
      for (const FieldDecl& f : td.fields) check_decorators_field(f);
      for (FnId m : td.methods) top_fns_.push_back(m);
    } else if (auto* f = std::get_if<FnStmt>(&st.data)) {
      declare_fn_signature(f->fn, StructId(), 0);
      check_decorators_fn(ast_->get(f->fn), false);
      if (ast_->get(f->fn).name) top_fns_.push_back(f->fn);
    }
  }
}

void Checker::declare_struct(TypeDeclId id) {
  const TypeDecl& td = ast_->get(id);
  StructInfo info;
  info.name = std::string(td.name.text);
  info.module = mod_;
  info.decl = id;
  info.span = td.name.span;
  tir_->type_decls[id.index] = types_->add_struct(std::move(info));
}

void Checker::resolve_struct(TypeDeclId id) {
  const TypeDecl& td = ast_->get(id);
  StructId sid = tir_->type_decls[id.index];
  std::vector<FieldInfo> fields;
  std::unordered_map<std::string_view, Span> seen;
  for (const FieldDecl& f : td.fields) {
    auto [it, fresh] = seen.try_emplace(f.name.text, f.name.span);
    if (!fresh) {
      error(DiagKind::DuplicateMember, f.name.span,
            fmt::format("field `{}` declared more than once in `{}`", f.name.text, td.name.text))
          .with_label(it->second, "first declared here");
      continue;
    }
    FieldInfo fi;
    fi.name = std::string(f.name.text);
    fi.type = f.type.valid() ? resolve_type(f.type) : types_->any();
    fi.has_default = f.default_value.valid();
    // ORM relation fields are virtual (filled by preloading), so literals may omit them.
    for (const Decorator& d : f.decorators)
      if (is_decorator(d, DecoratorKind::HasMany) || is_decorator(d, DecoratorKind::HasOne) || is_decorator(d, DecoratorKind::DbDefault)) fi.has_default = true;
    fi.is_private = f.name.text.starts_with("_");
    fi.span = f.name.span;
    fi.default_value = f.default_value;
    uint32_t begin = f.span.begin;
    for (const Decorator& d : f.decorators) {
      begin = std::min(begin, d.span.begin);
      fi.hidden |= is_decorator(d, DecoratorKind::Hidden);
      fi.relation |= is_decorator(d, DecoratorKind::HasMany) || is_decorator(d, DecoratorKind::HasOne);
      if (is_decorator(d, DecoratorKind::Example) && !d.args.empty()) fi.example = d.args[0].value;
    }
    if (file_) {
      fi.doc = comment_before(*file_, begin);
      if (fi.doc.empty()) fi.doc = comment_after(*file_, f.span.end);
    }
    fields.push_back(std::move(fi));
  }
  std::vector<MethodInfo> methods;
  for (FnId m : td.methods) {
    const FnDecl& fd = ast_->get(m);
    if (!fd.name) continue;
    auto [it, fresh] = seen.try_emplace(fd.name->text, fd.name->span);
    if (!fresh) {
      error(DiagKind::DuplicateMember, fd.name->span,
            fmt::format("`{}` declared more than once in `{}`", fd.name->text, td.name.text))
          .with_label(it->second, "first declared here");
      continue;
    }
    MethodInfo mi;
    mi.name = std::string(fd.name->text);
    mi.fn = m;
    mi.is_static = fd.is_static;
    mi.is_async = fd.is_async;
    mi.is_private = fd.name->text.starts_with("_");
    mi.span = fd.name->span;
    methods.push_back(std::move(mi));
  }
  StructInfo& si = types_->struct_info(sid);
  if (file_) {
    uint32_t begin = td.span.begin;
    for (const Decorator& d : td.decorators) begin = std::min(begin, d.span.begin);
    si.doc = comment_before(*file_, begin);
  }
  si.fields = std::move(fields);
  si.methods = std::move(methods);
  for (uint32_t i = 0; i < si.fields.size(); ++i) si.field_index.try_emplace(si.fields[i].name, i);
  for (uint32_t i = 0; i < si.methods.size(); ++i) si.method_index.try_emplace(si.methods[i].name, i);
  for (uint32_t i = 0; i < si.methods.size(); ++i) {
    FnId m = si.methods[i].fn;
    declare_fn_signature(m, sid, i);
    types_->struct_info(sid).methods[i].type = tir_->fns[m.index].type;
  }
}

void Checker::declare_fn_signature(FnId id, StructId owner, uint32_t method_index) {
  FnInfo& fi = tir_->fns[id.index];
  const FnDecl& d = ast_->get(id);
  fi.owner = owner;
  fi.method_index = method_index;
  fi.is_async = d.is_async;
  fi.is_static = d.is_static;
  fi.params.clear();
  fi.params.reserve(d.params.size());
  llvm::SmallVector<TypeId, 8> ptypes;  // interned by types_->fn, so a stack buffer will do
  for (const Param& p : d.params) {
    ParamInfo pi;
    pi.name = std::string(p.name.text);
    TypeId t = p.type.valid() ? resolve_type(p.type) : types_->any();
    pi.type = p.variadic ? types_->list(t) : t;
    pi.has_default = p.default_value.valid();
    pi.variadic = p.variadic;
    pi.span = p.name.span;
    ptypes.push_back(pi.type);
    fi.params.push_back(std::move(pi));
  }
  if (d.return_type.valid()) {
    fi.return_type = resolve_type(d.return_type);
    fi.return_inferred = false;
  } else {
    fi.return_type = TypeId();
    fi.return_inferred = true;
  }
  TypeId r = fi.return_type.valid() ? fi.return_type : types_->any();
  fi.type = types_->fn(ptypes, d.is_async ? types_->future(r) : r);
}

void Checker::ensure_fn_checked(FnId id) {
  if (tir_->fns[id.index].checked || fn_in_progress_[id.index]) return;
  check_fn_body(id, &module_scope_, TypeId());
}

void Checker::check_fn_body(FnId id, FnScope* parent, TypeId expected_fn) {
  const FnDecl& d = ast_->get(id);
  fn_in_progress_[id.index] = 1;
  FnScope sc;
  sc.parent = parent;
  sc.fn = id;
  sc.info = &tir_->fns[id.index];
  sc.owner = sc.info->owner;
  sc.is_static = d.is_static;
  sc.is_async = d.is_async;
  sc.is_lambda = !d.name.has_value();
  sc.is_handler = sc.info->is_handler;
  sc.allows_status = sc.is_handler;
  sc.declared_ret = sc.info->return_inferred ? TypeId() : sc.info->return_type;
  sc.info->locals.clear();
  sc.info->captures.clear();
  sc.info->captures_self = false;

  FnScope* saved = scope_;
  scope_ = &sc;
  int saved_depth = depth_;
  // Parameters: expected Fn types (lambdas passed to built-ins or typed parameters) give
  // unannotated parameters their types.
  auto expected_params = expected_fn.valid() && types_->kind(expected_fn) == TypeKind::Fn
                             ? types_->fn_params(expected_fn)
                             : std::span<const TypeId>();
  for (size_t i = 0; i < d.params.size(); ++i) {
    const Param& p = d.params[i];
    ParamInfo& pi = sc.info->params[i];
    if (!p.type.valid() && i < expected_params.size() && !types_->has_vars(expected_params[i]) &&
        !p.variadic)
      pi.type = types_->strip_never(expected_params[i]);
    if (sc.vars.count(p.name.text)) continue;  // duplicate parameter (reported by the parser)
    SymbolId s = make_var(sc, p.name, SymbolKind::Param);
    if (!sc.info->locals.empty() && sc.info->locals.back() == s) sc.info->locals.pop_back();
    prog_.symbol(s).type = pi.type;
    prog_.symbol(s).annotated = true;
    pi.symbol = s;
    sc.flow.set(sc.slot_of.lookup(s.index));  // make_var gave it a slot
    if (pi.type.valid() && types_->struct_of(pi.type).valid() &&
        types_->struct_info(types_->struct_of(pi.type)).name == "Request" &&
        types_->struct_info(types_->struct_of(pi.type)).builtin)
      sc.allows_status = true;  // middleware
  }
  // Parameter types changed by an expected Fn type: refresh the signature.
  if (expected_params.size()) {
    llvm::SmallVector<TypeId, 8> ptypes;
    for (const ParamInfo& pi : sc.info->params) ptypes.push_back(pi.type);
    TypeId r = sc.info->return_type.valid() ? sc.info->return_type : types_->any();
    sc.info->type = types_->fn(ptypes, d.is_async ? types_->future(r) : r);
  }
  for (size_t i = 0; i < d.params.size(); ++i) {
    const Param& p = d.params[i];
    if (!p.default_value.valid()) continue;
    TypeId want = sc.info->params[i].type;
    TypeId got = check_expr(p.default_value, want);
    if (!coerce(p.default_value, got, want))
      error(DiagKind::AnnotationMismatch, span_of(p.default_value),
            fmt::format("parameter `{}` declared as `{}` received a default of type `{}`", p.name.text, show(want),
                        show(got)));
  }
  if (d.body.valid()) {
    prescan_scope(sc, ast_->get(d.body).stmts, &d);
    check_block(d.body);
  }
  if (!sc.flow.unreachable) {
    if (sc.declared_ret.valid()) {
      TypeKind k = types_->kind(sc.declared_ret);
      bool null_ok = k == TypeKind::Nullable || k == TypeKind::Null || k == TypeKind::Any ||
                     k == TypeKind::Error;
      if (!null_ok && d.body.valid()) {
        Span at = d.name ? d.name->span : d.keyword_span;
        error(DiagKind::MissingReturn, at,
              fmt::format("{} declares `-> {}` but can reach its end without returning a value",
                          d.name ? fmt::format("function `{}`", d.name->text) : std::string("this function"),
                          show(sc.declared_ret)))
            .with_hint("add a `return` at the end, or make the return type nullable");
      }
    } else {
      sc.inferred_ret = types_->lub(sc.inferred_ret, types_->null());
    }
  }
  FnInfo& fi = tir_->fns[id.index];
  if (fi.return_inferred) {
    TypeId r = sc.inferred_ret.valid() ? types_->strip_never(sc.inferred_ret) : types_->null();
    fi.return_type = r;
    for (ExprId v : sc.return_values) coerce(v, tir_->expr_types[v.index], r);
  }
  std::vector<TypeId> ptypes;
  for (const ParamInfo& pi : fi.params) ptypes.push_back(pi.type);
  fi.type = types_->fn(ptypes, fi.is_async ? types_->future(fi.return_type) : fi.return_type);
  if (fi.owner.valid()) types_->struct_info(fi.owner).methods[fi.method_index].type = fi.type;
  fi.checked = true;
  fn_in_progress_[id.index] = 0;
  if (options_.warnings) report_unused(sc);
  scope_ = saved;
  depth_ = saved_depth;
}

void Checker::report_unused(FnScope& sc) {
  for (SymbolId s : sc.info->locals) {
    const Symbol& sy = prog_.symbol(s);
    if (sy.kind != SymbolKind::Local || sy.used || sy.name.starts_with("_")) continue;
    warning(DiagKind::UnusedVariable, sy.span, fmt::format("unused variable `{}`", sy.name))
        .with_hint(fmt::format("if this is intended, name it `_{}`", sy.name))
        .with_fix(sy.span, "_" + sy.name);
  }
}

TypeId Checker::resolve_type(TypeExprId id) {
  if (!id.valid()) return types_->any();
  const TypeExpr& te = ast_->get(id);
  TypeId result = types_->error();
  if (auto* n = std::get_if<NamedType>(&te.data)) {
    if (n->path.empty()) return types_->error();
    const Ident& name = n->path.back();
    std::vector<TypeId> args;
    for (TypeExprId a : n->args) args.push_back(resolve_type(a));
    auto want_args = [&](size_t lo, size_t hi) {
      if (args.size() >= lo && args.size() <= hi) return true;
      if (hi == 0)
        error(DiagKind::TypeArgumentCount, name.span, fmt::format("type `{}` does not take type arguments", name.text));
      else if (lo == hi)
        error(DiagKind::TypeArgumentCount, name.span,
              fmt::format("type `{}` expects {} type argument{}, received {}", name.text, lo, lo == 1 ? "" : "s",
                          args.size()));
      else
        error(DiagKind::TypeArgumentCount, name.span,
              fmt::format("type `{}` expects {} or {} type arguments, received {}", name.text, lo, hi, args.size()));
      return false;
    };
    std::string_view nm = name.text;
    if (n->path.size() == 1) {
      if (nm == "Int") result = want_args(0, 0) ? types_->int_() : types_->error();
      else if (nm == "Float") result = want_args(0, 0) ? types_->float_() : types_->error();
      else if (nm == "Bool") result = want_args(0, 0) ? types_->bool_() : types_->error();
      else if (nm == "Str") result = want_args(0, 0) ? types_->str() : types_->error();
      else if (nm == "Null") result = want_args(0, 0) ? types_->null() : types_->error();
      else if (nm == "Any") result = want_args(0, 0) ? types_->any() : types_->error();
      else if (nm == "Py") result = want_args(0, 0) ? types_->py() : types_->error();
      else if (nm == "Bytes") result = want_args(0, 0) ? types_->bytes() : types_->error();
      else if (nm == "Range") result = want_args(0, 0) ? types_->range() : types_->error();
      else if (nm == "List") result = want_args(1, 1) ? types_->list(args[0]) : types_->error();
      else if (nm == "Map") result = want_args(2, 2) ? types_->map(args[0], args[1]) : types_->error();
      else if (nm == "Future") result = want_args(1, 1) ? types_->future(args[0]) : types_->error();
      else if (nm == "Result")
        result = want_args(1, 2) ? types_->result(args[0], args.size() == 2 ? args[1] : types_->str()) : types_->error();
      else {
        auto it = module_names_.find(nm);
        if (it != module_names_.end()) {
          Symbol& s = prog_.symbol(it->second);
          s.used = true;
          SymbolId target = resolve_import_target(it->second);
          if (s.kind == SymbolKind::Import && !target.valid()) {
            result = s.type;  // unresolved import: Error or Any, already reported
          } else if (target.valid() && prog_.symbol(target).kind == SymbolKind::Type) {
            result = want_args(0, 0) ? types_->struct_type(prog_.symbol(target).struct_id) : types_->error();
          } else {
            error(DiagKind::NotAType, name.span, fmt::format("`{}` is not a type", nm));
          }
        } else if (auto nom = builtins_->nominal(nm)) {
          bool generic = builtins_->nominal_is_generic(*nom);
          if (nm == "WsConn") {
            // WsConn<In, Out> keeps its message types (recv gives In, send takes Out); WsConn<T>
            // is WsConn<T, T> and a bare WsConn takes and gives Any.
            if (args.size() > 2) {
              error(DiagKind::TypeArgumentCount, name.span,
                    fmt::format("type `WsConn` takes one or two type arguments (`WsConn<In>`, `WsConn<In, Out>`), "
                                "received {}",
                                args.size()));
            } else {
              TypeId in = args.empty() ? types_->any() : args[0];
              TypeId pair[] = {in, args.size() == 2 ? args[1] : in};
              result = types_->struct_type(*nom, pair);
            }
          } else {
            result = generic || want_args(0, 0) ? types_->struct_type(*nom) : types_->error();
          }
        } else {
          std::vector<std::string_view> cands = {"Int", "Float", "Bool", "Str", "Null", "Any", "Bytes",
                                                 "Range", "List", "Map", "Result", "Future"};
          const size_t builtin_count = cands.size();
          for (auto& [k, v] : module_names_)
            if (prog_.symbol(v).kind == SymbolKind::Type || prog_.symbol(v).kind == SymbolKind::Import)
              cands.push_back(k);
          // The table's order is its hash's: sorted, a tie between two names suggests the same one.
          std::sort(cands.begin() + static_cast<std::ptrdiff_t>(builtin_count), cands.end());
          for (const BuiltinNominal& bn : builtin_nominals()) cands.push_back(bn.name);
          Diagnostic& diag = error(DiagKind::UnknownType, name.span, fmt::format("unknown type `{}`", nm));
          if (auto c = closest(nm, cands)) diag.with_hint(fmt::format("did you mean `{}`?", *c)).with_fix(name.span, *c);
        }
      }
    } else {
      // `mod.Type`: the first segment names an imported module.
      auto it = module_names_.find(n->path.front().text);
      const Symbol* ms = it == module_names_.end() ? nullptr : &prog_.symbol(it->second);
      if (!ms || ms->kind != SymbolKind::Module) {
        error(DiagKind::UnknownType, n->path.front().span,
              fmt::format("unknown module `{}` in type `{}`", n->path.front().text, text(te.span)));
      } else {
        prog_.symbol(it->second).used = true;
        if (!module_ready(ms->target_module)) {
          result = ms->target_module.valid() ? types_->any() : types_->error();
        } else {
          const ModuleInterface& iface = prog_.modules[ms->target_module.index].interface;
          auto f = iface.by_name.find(std::string(nm));
          SymbolId target = f == iface.by_name.end() ? SymbolId() : resolve_import_target(f->second);
          if (target.valid() && prog_.symbol(target).kind == SymbolKind::Type)
            result = want_args(0, 0) ? types_->struct_type(prog_.symbol(target).struct_id) : types_->error();
          else
            error(DiagKind::UnknownType, name.span,
                  fmt::format("unknown type `{}` in module `{}`", nm, n->path.front().text));
        }
      }
    }
  } else if (auto* nt = std::get_if<NullableType>(&te.data)) {
    result = types_->nullable(resolve_type(nt->inner));
  } else if (auto* tt = std::get_if<TupleType>(&te.data)) {
    std::vector<TypeId> elems;
    for (TypeExprId x : tt->elems) elems.push_back(resolve_type(x));
    result = types_->tuple(elems);
  } else if (auto* ft = std::get_if<FnType>(&te.data)) {
    std::vector<TypeId> ps;
    for (TypeExprId x : ft->params) ps.push_back(resolve_type(x));
    result = types_->fn(ps, ft->result.valid() ? resolve_type(ft->result) : types_->any());
  }
  tir_->type_exprs[id.index] = result;
  return result;
}

}  // namespace fitz::checker::detail
