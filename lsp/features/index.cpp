// Building the occurrence index of a module from the AST and the checker's side tables.
#include "lsp/features/index.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace fitz::lsp {

using namespace frontend;
using checker::RefKind;
using checker::SymbolId;

SymbolKey key_of_symbol(const Analysis& a, SymbolId id) {
  const auto& syms = a.program.symbols;
  for (int guard = 0; guard < 16 && id.valid() && id.index < syms.size(); ++guard) {
    const checker::Symbol& s = syms[id.index];
    if (s.kind == checker::SymbolKind::Type && s.struct_id.valid()) return {SymbolKey::Kind::Struct, s.struct_id.index, 0};
    if (s.kind == checker::SymbolKind::Builtin) return {SymbolKey::Kind::Builtin, s.builtin.index, 0};
    if (s.kind == checker::SymbolKind::Import && s.target.valid() && s.target.index < syms.size() &&
        syms[s.target.index].name == s.name) {
      id = s.target;
      continue;
    }
    return {SymbolKey::Kind::Symbol, id.index, 0};
  }
  return {};
}

ModuleId module_of_type(const Analysis& a, checker::TypeId t) {
  if (!t.valid() || !a.program.types || t.index >= a.program.types->size()) return ModuleId();
  if (a.program.types->kind(t) != checker::TypeKind::Module) return ModuleId();
  return ModuleId(a.program.types->payload(t));
}

namespace {

template <class V>
bool in_range(const V& v, uint32_t i) {
  return i < v.size();
}

std::shared_ptr<const ModuleIndex> build_index(const Analysis& a, ModuleId m) {
  auto idx = std::make_shared<ModuleIndex>();
  const checker::ModuleTir* tir = a.tir(m);
  if (!tir) return idx;
  const Ast& ast = a.module(m).ast;
  auto& occ = idx->occurrences;
  auto add = [&](Span span, SymbolKey key, bool decl = false, bool write = false) {
    if (!key.valid() || span.empty()) return;
    occ.push_back({span, key, decl, write});
  };

  // Symbols declared in this module, by the offset of their declaration.
  std::unordered_map<uint32_t, SymbolId> declared_at;
  for (uint32_t i = 0; i < a.program.symbols.size(); ++i) {
    const auto& s = a.program.symbols[i];
    if (s.module == m && s.span.file == ast.file) declared_at.emplace(s.span.begin, SymbolId(i));
  }
  auto decl_symbol = [&](const Ident& id) -> SymbolKey {
    auto it = declared_at.find(id.span.begin);
    return it == declared_at.end() ? SymbolKey{} : key_of_symbol(a, it->second);
  };
  auto struct_of = [&](checker::StructId s) -> const checker::StructInfo* {
    if (!s.valid() || s.index >= a.program.types->struct_count()) return nullptr;
    return &a.program.types->struct_info(s);
  };

  // Targets of assignments are writes.
  std::unordered_set<uint32_t> written;
  for (const Stmt& st : ast.stmts)
    if (auto* as = std::get_if<AssignStmt>(&st.data)) written.insert(as->target.index);

  for (uint32_t i = 0; i < ast.exprs.size(); ++i) {
    const Expr& e = ast.exprs[i];
    const checker::Ref* ref = in_range(tir->refs, i) ? &tir->refs[i] : nullptr;
    if (auto* n = std::get_if<NameRef>(&e.data)) {
      if (!ref) continue;
      bool w = written.count(i) > 0;
      if (ref->kind == RefKind::Symbol) add(n->name.span, key_of_symbol(a, SymbolId(ref->id)), false, w);
      else if (ref->kind == RefKind::Field) add(n->name.span, {SymbolKey::Kind::Field, ref->struct_id.index, ref->id}, false, w);
      else if (ref->kind == RefKind::Method) add(n->name.span, {SymbolKey::Kind::Method, ref->struct_id.index, ref->id});
    } else if (auto* f = std::get_if<FieldExpr>(&e.data)) {
      bool w = written.count(i) > 0;
      if (ref && ref->kind == RefKind::Field) add(f->field.span, {SymbolKey::Kind::Field, ref->struct_id.index, ref->id}, false, w);
      else if (ref && ref->kind == RefKind::Method) add(f->field.span, {SymbolKey::Kind::Method, ref->struct_id.index, ref->id});
      else if (ref && ref->kind == RefKind::ModuleMember) add(f->field.span, key_of_symbol(a, SymbolId(ref->id)), false, w);
    } else if (auto* c = std::get_if<CallExpr>(&e.data)) {
      const checker::CallInfo* call = in_range(tir->call_index, i) ? tir->call_of(ExprId(i)) : nullptr;
      if (!call || !c->callee.valid() || c->callee.index >= ast.exprs.size()) continue;
      const Expr& callee = ast.get(c->callee);
      Span name_span;
      if (auto* cf = std::get_if<FieldExpr>(&callee.data)) name_span = cf->field.span;
      else if (auto* cn = std::get_if<NameRef>(&callee.data)) name_span = cn->name.span;
      else continue;
      const checker::Ref* cref = in_range(tir->refs, c->callee.index) ? &tir->refs[c->callee.index] : nullptr;
      if (cref && cref->kind != RefKind::None && cref->kind != RefKind::DynamicMember) continue;  // already indexed
      if (call->kind == checker::CallKind::Method || call->kind == checker::CallKind::StaticMethod)
        add(name_span, {SymbolKey::Kind::Method, call->struct_id.index, call->index});
      else if (call->kind == checker::CallKind::BuiltinMethod || call->kind == checker::CallKind::Builtin)
        add(name_span, {SymbolKey::Kind::Builtin, call->builtin.index, 0});
      else if (call->kind == checker::CallKind::Function)
        add(name_span, key_of_symbol(a, call->symbol));
    } else if (auto* sl = std::get_if<StructLit>(&e.data)) {
      if (ref && ref->kind == RefKind::StructType && ref->struct_id.valid()) {
        add(sl->type_name.span, {SymbolKey::Kind::Struct, ref->struct_id.index, 0});
        if (const auto* info = struct_of(ref->struct_id))
          for (const auto& fi : sl->fields)
            if (auto it = info->field_index.find(std::string(fi.name.text)); it != info->field_index.end())
              add(fi.name.span, {SymbolKey::Kind::Field, ref->struct_id.index, it->second}, false, true);
      }
    }
  }

  for (uint32_t i = 0; i < ast.patterns.size(); ++i)
    if (auto* b = std::get_if<BindPat>(&ast.patterns[i].data)) {
      SymbolId s = in_range(tir->pattern_symbols, i) ? tir->pattern_symbols[i] : SymbolId();
      if (s.valid()) add(b->name.span, key_of_symbol(a, s), true, true);
    }

  for (uint32_t i = 0; i < ast.fns.size(); ++i) {
    const FnDecl& fn = ast.fns[i];
    const checker::FnInfo* info = in_range(tir->fns, i) ? &tir->fns[i] : nullptr;
    if (fn.name) {
      if (info && info->owner.valid())
        add(fn.name->span, {SymbolKey::Kind::Method, info->owner.index, info->method_index}, true);
      else if (info && info->symbol.valid())
        add(fn.name->span, key_of_symbol(a, info->symbol), true);
      else
        add(fn.name->span, decl_symbol(*fn.name), true);
    }
    for (uint32_t p = 0; p < fn.params.size(); ++p) {
      SymbolId s = info && p < info->params.size() ? info->params[p].symbol : SymbolId();
      add(fn.params[p].name.span, s.valid() ? key_of_symbol(a, s) : decl_symbol(fn.params[p].name), true, true);
    }
  }

  for (uint32_t i = 0; i < ast.type_decls.size(); ++i) {
    const TypeDecl& t = ast.type_decls[i];
    checker::StructId sid = in_range(tir->type_decls, i) ? tir->type_decls[i] : checker::StructId();
    if (!sid.valid()) continue;
    add(t.name.span, {SymbolKey::Kind::Struct, sid.index, 0}, true);
    if (const auto* info = struct_of(sid))
      for (const auto& fd : t.fields)
        if (auto it = info->field_index.find(std::string(fd.name.text)); it != info->field_index.end())
          add(fd.name.span, {SymbolKey::Kind::Field, sid.index, it->second}, true);
  }

  for (uint32_t i = 0; i < ast.types.size(); ++i)
    if (auto* nt = std::get_if<NamedType>(&ast.types[i].data)) {
      checker::TypeId t = in_range(tir->type_exprs, i) ? tir->type_exprs[i] : checker::TypeId();
      if (!t.valid() || nt->path.empty()) continue;
      checker::StructId s = a.program.types->struct_of(a.program.types->non_null(t));
      if (s.valid() && !a.program.types->struct_info(s).builtin)
        add(nt->path.back().span, {SymbolKey::Kind::Struct, s.index, 0});
    }

  for (const Stmt& st : ast.stmts) {
    if (auto* an = std::get_if<AnnotatedAssignStmt>(&st.data)) {
      add(an->name.span, decl_symbol(an->name), true, true);
    } else if (auto* im = std::get_if<ImportStmt>(&st.data)) {
      const Ident& local = im->alias ? *im->alias : im->path.back();
      add(local.span, decl_symbol(local), true);
    } else if (auto* fi = std::get_if<FromImportStmt>(&st.data)) {
      for (const auto& n : fi->names) {
        SymbolKey local = decl_symbol(n.alias ? *n.alias : n.name);
        if (!n.alias) {
          add(n.name.span, local, true);
        } else {
          add(n.alias->span, local, true);
          // The imported name itself means the target.
          auto it = declared_at.find(n.alias->span.begin);
          if (it != declared_at.end()) {
            const auto& s = a.program.symbols[it->second.index];
            if (s.target.valid()) add(n.name.span, key_of_symbol(a, s.target));
          }
        }
      }
    }
  }

  std::sort(occ.begin(), occ.end(), [](const Occurrence& x, const Occurrence& y) {
    return std::tie(x.span.begin, x.span.end) < std::tie(y.span.begin, y.span.end);
  });
  // The same name may be recorded twice (a declaration and a write): keep the first.
  occ.erase(std::unique(occ.begin(), occ.end(),
                        [](const Occurrence& x, const Occurrence& y) { return x.span == y.span && x.key == y.key; }),
            occ.end());
  return idx;
}

}  // namespace

const ModuleIndex& module_index(const Analysis& a, ModuleId m) {
  std::lock_guard lock(a.index_mutex);
  if (a.index_cache.size() < a.graph.modules.size()) a.index_cache.resize(a.graph.modules.size());
  auto& slot = a.index_cache[m.index];
  if (!slot) slot = build_index(a, m);
  return *slot;
}

const Occurrence* occurrence_at(const Analysis& a, ModuleId m, uint32_t offset) {
  if (!m.valid()) return nullptr;
  const auto& occ = module_index(a, m).occurrences;
  const Occurrence* best = nullptr;
  for (const auto& o : occ) {
    if (o.span.begin > offset) break;
    if (offset <= o.span.end) {
      // Prefer the one that strictly contains the cursor over one that ends at it.
      if (!best || (best->span.end == offset && o.span.end > offset)) best = &o;
    }
  }
  return best;
}

std::optional<Span> declaration_of(const Analysis& a, const SymbolKey& key) {
  const auto& types = *a.program.types;
  switch (key.kind) {
    case SymbolKey::Kind::Symbol: {
      if (key.a >= a.program.symbols.size()) return std::nullopt;
      const auto& s = a.program.symbols[key.a];
      if (!s.span.file.valid()) return std::nullopt;
      return s.span;
    }
    case SymbolKey::Kind::Struct: {
      if (key.a >= types.struct_count()) return std::nullopt;
      const auto& info = types.struct_info(checker::StructId(key.a));
      if (info.builtin || !info.span.file.valid()) return std::nullopt;
      return info.span;
    }
    case SymbolKey::Kind::Field: {
      if (key.a >= types.struct_count()) return std::nullopt;
      const auto& info = types.struct_info(checker::StructId(key.a));
      if (info.builtin || key.b >= info.fields.size() || !info.fields[key.b].span.file.valid()) return std::nullopt;
      return info.fields[key.b].span;
    }
    case SymbolKey::Kind::Method: {
      if (key.a >= types.struct_count()) return std::nullopt;
      const auto& info = types.struct_info(checker::StructId(key.a));
      if (info.builtin || key.b >= info.methods.size() || !info.methods[key.b].span.file.valid()) return std::nullopt;
      return info.methods[key.b].span;
    }
    default:
      return std::nullopt;
  }
}

std::string key_name(const Analysis& a, const SymbolKey& key) {
  const auto& types = *a.program.types;
  switch (key.kind) {
    case SymbolKey::Kind::Symbol:
      return key.a < a.program.symbols.size() ? a.program.symbols[key.a].name : "";
    case SymbolKey::Kind::Struct:
      return key.a < types.struct_count() ? types.struct_info(checker::StructId(key.a)).name : "";
    case SymbolKey::Kind::Field:
      if (key.a < types.struct_count() && key.b < types.struct_info(checker::StructId(key.a)).fields.size())
        return types.struct_info(checker::StructId(key.a)).fields[key.b].name;
      return "";
    case SymbolKey::Kind::Method:
      if (key.a < types.struct_count() && key.b < types.struct_info(checker::StructId(key.a)).methods.size())
        return types.struct_info(checker::StructId(key.a)).methods[key.b].name;
      return "";
    case SymbolKey::Kind::Builtin:
      return key.a < a.program.builtins->size() ? std::string(a.program.builtins->entry(checker::BuiltinId(key.a)).name)
                                                : "";
    default:
      return "";
  }
}

ExprId expr_at(const Analysis& a, ModuleId m, uint32_t begin, uint32_t end) {
  if (!m.valid()) return ExprId();
  const Ast& ast = a.module(m).ast;
  ExprId best;
  uint32_t best_size = UINT32_MAX;
  for (uint32_t i = 0; i < ast.exprs.size(); ++i) {
    const Span& s = ast.exprs[i].span;
    if (s.begin <= begin && end <= s.end && s.size() < best_size) {
      best = ExprId(i);
      best_size = s.size();
    }
  }
  return best;
}

FnId fn_at(const Analysis& a, ModuleId m, uint32_t offset) {
  if (!m.valid()) return FnId();
  const Ast& ast = a.module(m).ast;
  FnId best;
  uint32_t best_size = UINT32_MAX;
  for (uint32_t i = 0; i < ast.fns.size(); ++i) {
    const FnDecl& fn = ast.fns[i];
    Span s = fn.span;
    if (s.begin <= offset && offset <= s.end && s.size() < best_size) {
      best = FnId(i);
      best_size = s.size();
    }
  }
  return best;
}

}  // namespace fitz::lsp
