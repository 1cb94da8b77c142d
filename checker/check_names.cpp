// Name resolution: scopes, captures, fields and methods seen as bare names in methods, module
// names and built-ins; definite assignment and null narrowing on reads; "did you mean" help.
#include <algorithm>
#include <utility>

#include "checker/check_internal.h"

namespace fitz::checker::detail {

// ---- helpers -------------------------------------------------------------------------------------

void Checker::set_conv(ExprId e, TypeId from, TypeId to) {
  if (!e.valid()) return;
  ConvKind k = types_->conversion(from, to);
  if (k == ConvKind::None) return;
  tir_->conversions[e.index] = Conversion{k, to};
}

bool Checker::coerce(ExprId e, TypeId from, TypeId to) {
  if (!to.valid()) return true;
  if (!types_->compatible(from, to)) return false;
  set_conv(e, from, to);
  return true;
}

std::optional<std::string> Checker::closest(std::string_view name,
                                            const std::vector<std::string_view>& candidates) const {
  size_t best = SIZE_MAX;
  std::string_view pick;
  size_t limit = std::max<size_t>(1, name.size() / 3);
  std::vector<size_t> d;
  auto low = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  for (std::string_view c : candidates) {
    if (c == name || c.empty()) continue;
    size_t diff = c.size() > name.size() ? c.size() - name.size() : name.size() - c.size();
    if (diff > limit) continue;
    // Optimal string alignment distance; a transposition ("lenght") counts as one edit.
    size_t w = c.size() + 1;
    d.assign((name.size() + 1) * w, 0);
    for (size_t j = 0; j <= c.size(); ++j) d[j] = j;
    for (size_t i = 1; i <= name.size(); ++i) {
      d[i * w] = i;
      for (size_t j = 1; j <= c.size(); ++j) {
        size_t cost = low(name[i - 1]) == low(c[j - 1]) ? 0 : 1;
        size_t v = std::min({d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1, d[(i - 1) * w + j - 1] + cost});
        if (i > 1 && j > 1 && low(name[i - 1]) == low(c[j - 2]) && low(name[i - 2]) == low(c[j - 1]))
          v = std::min(v, d[(i - 2) * w + j - 2] + 1);
        d[i * w + j] = v;
      }
    }
    size_t dist = d[name.size() * w + c.size()];
    if (dist <= limit && dist < best) {
      best = dist;
      pick = c;
    }
  }
  if (best == SIZE_MAX) return std::nullopt;
  return std::string(pick);
}

std::vector<std::string_view> Checker::visible_names() const {
  std::vector<std::string_view> out;
  for (const FnScope* s = scope_; s; s = s->parent) {
    for (auto& [n, _] : s->vars) out.push_back(n);
    for (auto& [n, _] : s->shadows) out.push_back(n);
    if (s->owner.valid() && !s->is_module) {
      for (const FieldInfo& f : types_->struct_info(s->owner).fields) out.push_back(f.name);
      for (const MethodInfo& m : types_->struct_info(s->owner).methods) out.push_back(m.name);
    }
  }
  for (auto& [n, _] : module_names_) out.push_back(n);
  for (auto& [n, _] : prog_.builtin_symbols) out.push_back(n);
  std::sort(out.begin(), out.end());
  return out;
}

std::string Checker::null_check_hint(ExprId object) const {
  // Only variables are narrowed by a null check; a field or call result needs a variable first.
  if (object.valid() && std::holds_alternative<NameRef>(expr(object).data))
    return fmt::format("check it first: `if {} != null {{ ... }}`", text(span_of(object)));
  return "bind it to a variable, then check that: `let v = ...` and `if v != null { ... }`";
}

bool Checker::can_access_private(StructId owner) const {
  for (const FnScope* s = scope_; s; s = s->parent)
    if (s->owner == owner) return true;
  return false;
}

// ---- names ----------------------------------------------------------------------------------------

Lookup Checker::lookup(std::string_view name, bool for_assign) {
  const HashedName key = NameInfo::hashed(name);  // one hash for every scope on the way out
  for (FnScope* s = scope_; s; s = s->parent) {
    for (auto it = s->shadows.rbegin(); it != s->shadows.rend(); ++it)
      if (it->first == name) return Lookup{Lookup::Var, it->second, s};
    auto v = s->vars.find_as(key);
    if (v != s->vars.end()) {
      if (s != scope_ && !s->is_module) {
        // A variable of an enclosing function: every function in between captures it.
        for (FnScope* c = scope_; c && c != s; c = c->parent)
          if (c->info && std::find(c->info->captures.begin(), c->info->captures.end(), v->second) ==
                             c->info->captures.end())
            c->info->captures.push_back(v->second);
      }
      return Lookup{Lookup::Var, v->second, s};
    }
    if (s->owner.valid() && !s->is_module) {
      const StructInfo& si = types_->struct_info(s->owner);
      auto mark_self = [&] {
        for (FnScope* c = scope_; c && c != s; c = c->parent)
          if (c->info) c->info->captures_self = true;
      };
      auto f = si.field_index.find(name);
      if (f != si.field_index.end() && !s->is_static) {
        mark_self();
        return Lookup{Lookup::Field, SymbolId(), s, s->owner, f->second};
      }
      if (!for_assign) {
        auto m = si.method_index.find(name);
        if (m != si.method_index.end()) {
          if (!si.methods[m->second].is_static) mark_self();
          return Lookup{Lookup::Method, SymbolId(), s, s->owner, m->second};
        }
      }
    }
  }
  if (for_assign) return Lookup{};
  auto it = module_names_.find_as(key);
  if (it != module_names_.end()) return Lookup{Lookup::Symbol, it->second};
  auto b = prog_.builtin_symbols.find(std::string(name));
  if (b != prog_.builtin_symbols.end()) return Lookup{Lookup::Symbol, b->second};
  return Lookup{};
}

TypeId Checker::read_var(ExprId e, SymbolId id, FnScope* owner, Span at) {
  Symbol& s = prog_.symbol(id);
  s.used = true;
  Ref ref{RefKind::Symbol, id.index};
  if (owner == scope_ && !in_decorator_) {
    auto slot = scope_->slot_of.find(id.index);
    if (slot != scope_->slot_of.end() && !scope_->flow.test(slot->second)) {
      Diagnostic& d = error(DiagKind::UsedBeforeAssigned, at,
                            fmt::format("`{}` may be used before it is assigned", s.name));
      if (s.span.begin < at.begin) d.with_label(s.span, fmt::format("`{}` is assigned here on some paths only", s.name));
      d.with_hint(fmt::format("assign `{}` on every path that leads here", s.name));
    }
  }
  TypeId t = s.type;
  if (!t.valid()) {
    if (read_untyped_.size() <= id.index) read_untyped_.resize(prog_.symbols.size(), 0);
    read_untyped_[id.index] = 1;
    t = types_->any();
  }
  for (FnScope* sc = scope_; sc; sc = sc->parent) {
    auto n = sc->narrowed.find(id.index);
    if (n != sc->narrowed.end()) {
      t = n->second;
      ref.narrowed = true;
      break;
    }
    if (sc == owner) break;
  }
  if (e.valid()) tir_->refs[e.index] = ref;
  return t;
}

namespace {

// A member of built-in module `name` for hints (`log` -> "info"): its first method in the table.
std::string_view module_example(std::string_view name) {
  for (const BuiltinValue& v : builtin_values()) {
    if (v.name != name) continue;
    for (const BuiltinEntry& e : builtin_entries())
      if (e.receiver == v.type) return e.name;
  }
  return "";
}

}  // namespace

TypeId Checker::symbol_value_type(ExprId e, SymbolId id, Span at) {
  // Taken before anything else: checking a callee's body below must not inherit it.
  const bool member_object = std::exchange(member_object_, false);
  Symbol& s0 = prog_.symbol(id);
  s0.used = true;
  SymbolId target = id;
  if (s0.kind == SymbolKind::Import) {
    target = resolve_import_target(id);
    if (!target.valid()) {
      if (e.valid()) tir_->refs[e.index] = Ref{RefKind::Symbol, id.index};
      return s0.type.valid() ? s0.type : types_->error();
    }
  }
  Symbol& s = prog_.symbol(target);
  s.used = true;
  if (e.valid()) tir_->refs[e.index] = Ref{RefKind::Symbol, target.index};
  switch (s.kind) {
    case SymbolKind::Function: {
      // Copies: checking the function below adds symbols, which may move `s` away.
      const FnId fn = s.fn;
      const ModuleId module = s.module;
      if (module == mod_) {
        FnInfo& fi = tir_->fns[fn.index];
        if (fi.return_inferred) {
          if (fn_in_progress_[fn.index]) {
            std::vector<TypeId> ps;
            for (const ParamInfo& p : fi.params) ps.push_back(p.type);
            return types_->fn(ps, fi.is_async ? types_->future(types_->any()) : types_->any());
          }
          ensure_fn_checked(fn);
        }
        return tir_->fns[fn.index].type;
      }
      return prog_.modules[module.index].fns[fn.index].type;
    }
    case SymbolKind::Type:
      error(DiagKind::NotAValue, at, fmt::format("type `{}` is not a value", s.name))
          .with_hint(fmt::format("create one with `{} {{ ... }}`", s.name));
      return types_->error();
    case SymbolKind::Module:
      return s.type.valid() ? s.type : types_->error();
    case SymbolKind::Builtin:
      error(DiagKind::NotAValue, at, fmt::format("built-in function `{}` is not a value", s.name))
          .with_hint(fmt::format("call it, or wrap it in a function: `fn(x) => {}(x)`", s.name));
      return types_->error();
    case SymbolKind::BuiltinValue:
      if (!member_object) {
        error(DiagKind::NotAValue, at, fmt::format("built-in module `{}` is not a value", s.name))
            .with_hint(module_example(s.name).empty()
                           ? fmt::format("use its members directly, where they are needed (`{}.<member>`)", s.name)
                           : fmt::format("use its members directly, where they are needed (`{}.{}(...)`)", s.name,
                                         module_example(s.name)));
        return types_->error();
      }
      if (!builtin_values()[s.builtin_value].compiled) {
        error(DiagKind::ModuleNotCompiled, at,
              fmt::format("the built-in module `{}` is not available in this version of fitz", s.name))
            .with_hint("its calls have no runtime yet; the program cannot be built while it uses them");
        return types_->error();
      }
      return s.type.valid() ? s.type : types_->any();
    default:
      return s.type.valid() ? s.type : types_->any();
  }
}

TypeId Checker::check_name(ExprId e, const NameRef& n) {
  if (n.name.text == "_") {
    error(DiagKind::UnknownVariable, n.name.span, "`_` discards a value; it cannot be read");
    return types_->error();
  }
  const bool member_object = std::exchange(member_object_, false);
  Lookup l = lookup(n.name.text);
  switch (l.kind) {
    case Lookup::Var: return read_var(e, l.sym, l.scope, n.name.span);
    case Lookup::Field: {
      const FieldInfo& f = types_->struct_info(l.owner).fields[l.index];
      Ref r{RefKind::Field, l.index, l.owner};
      r.implicit_self = true;
      tir_->refs[e.index] = r;
      return f.type;
    }
    case Lookup::Method: {
      Ref r{RefKind::Method, l.index, l.owner};
      r.implicit_self = true;
      tir_->refs[e.index] = r;
      return types_->struct_info(l.owner).methods[l.index].type;
    }
    case Lookup::Symbol:
      member_object_ = member_object;
      return symbol_value_type(e, l.sym, n.name.span);
    case Lookup::None: break;
  }
  Diagnostic& d = error(DiagKind::UnknownVariable, n.name.span, fmt::format("unknown variable `{}`", n.name.text));
  // Suggestions scan every visible name; stop offering them in files with very many unknown
  // names so that a broken file stays linear to check.
  if (++suggestions_ <= 200)
    if (auto c = closest(n.name.text, visible_names())) d.with_hint(fmt::format("did you mean `{}`?", *c)).with_fix(n.name.span, *c);
  return types_->error();
}

}  // namespace fitz::checker::detail
