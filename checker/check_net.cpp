// The rules of the `http` rows of the built-in table: a body must have a wire form, a literal
// options map of `http.request({...})` is checked key by key, and `r.json()` takes its result
// type from the declared type it flows into (the language has no explicit type arguments).
#include "checker/check_internal.h"
#include "frontend/decorator_args.h"

namespace fitz::checker::detail {

namespace {

constexpr const char* kNetOptionKeys = "method, url, timeout_ms, headers, body, follow_redirects";

}  // namespace

void Checker::check_http_body(ExprId arg, TypeId got) {
  TypeKind k = types_->kind(got);
  bool sendable = k != TypeKind::Fn && k != TypeKind::Future && k != TypeKind::Range;
  if (k == TypeKind::Struct) {
    const StructInfo& si = types_->struct_info(types_->struct_of(got));
    // Built-in nominals are connections, modules and secrets, except the plain records.
    sendable = !si.builtin || si.name == "HttpClientResponse";
  }
  if (!sendable && k != TypeKind::Error) {
    error(DiagKind::NetBodyType, span_of(arg),
          fmt::format("an HTTP body must be `Str`, `Bytes` or a value with a JSON form; received `{}`", show(got)))
        .with_hint("send a Map, a List, a record or its text");
    return;
  }
  coerce(arg, got, types_->any());
}

void Checker::check_http_options(ExprId arg) {
  const auto* m = std::get_if<MapExpr>(&expr(arg).data);
  if (!m) return;  // a map variable keeps the runtime check
  bool has_method = false, has_url = false;
  for (const MapEntry& en : m->entries) {
    std::optional<std::string> key = frontend::plain_string_literal(*ast_, en.key);
    if (!key) continue;
    TypeId vt = tir_->type_of(en.value);
    if (!vt.valid() || types_->is_dynamic(vt)) {
      if (*key == "method") has_method = true;
      if (*key == "url") has_url = true;
      if (*key != "method" && *key != "url" && *key != "headers" && *key != "body" && *key != "timeout_ms" &&
          *key != "follow_redirects")
        error(DiagKind::NetOptionKey, span_of(en.key),
              fmt::format("`http.request(opts)` unrecognised key `{}` — expected: {}", *key, kNetOptionKeys));
      continue;
    }
    std::string_view want;
    bool fits = true;
    if (*key == "method" || *key == "url") {
      (*key == "method" ? has_method : has_url) = true;
      want = "Str";
      fits = vt == types_->str();
    } else if (*key == "timeout_ms") {
      want = "Int";
      fits = vt == types_->int_();
    } else if (*key == "follow_redirects") {
      want = "Bool";
      fits = vt == types_->bool_();
    } else if (*key == "headers") {
      want = "Map<Str, Str>";
      fits = types_->kind(vt) == TypeKind::Map && types_->args(vt)[0] == types_->str() &&
             (types_->args(vt)[1] == types_->str() || types_->kind(types_->args(vt)[1]) == TypeKind::Never);
    } else if (*key == "body") {
      TypeKind k = types_->kind(vt);
      fits = k != TypeKind::Fn && k != TypeKind::Future && k != TypeKind::Range;
      want = "Str, Bytes or a value with a JSON form";
    } else {
      error(DiagKind::NetOptionKey, span_of(en.key),
            fmt::format("`http.request(opts)` unrecognised key `{}` — expected: {}", *key, kNetOptionKeys));
      continue;
    }
    if (!fits)
      error(DiagKind::NetOptionType, span_of(en.value),
            fmt::format("`http.request(opts)`: `{}` must be {}, received `{}`", *key, want, show(vt)));
  }
  if (!has_method || !has_url)
    error(DiagKind::NetOptionKey, span_of(arg),
          fmt::format("`http.request(opts)` needs `{}`", !has_method ? "method" : "url"));
}

void Checker::check_smtp_options(ExprId arg) {
  const auto* m = std::get_if<MapExpr>(&expr(arg).data);
  if (!m) return;  // a map variable keeps the runtime check
  bool has_to = false, has_subject = false;
  for (const MapEntry& en : m->entries) {
    std::optional<std::string> key = frontend::plain_string_literal(*ast_, en.key);
    if (!key) continue;
    if (*key != "to" && *key != "subject" && *key != "body" && *key != "body_text" && *key != "body_html" &&
        *key != "from") {
      error(DiagKind::NetOptionKey, span_of(en.key),
            fmt::format("`smtp.send(opts)` unrecognised key `{}` — expected: to, subject, body, body_text, body_html, from",
                        *key));
      continue;
    }
    has_to |= *key == "to";
    has_subject |= *key == "subject";
    TypeId vt = tir_->type_of(en.value);
    if (vt.valid() && !types_->is_dynamic(vt) && vt != types_->str())
      error(DiagKind::NetOptionType, span_of(en.value),
            fmt::format("`smtp.send(opts)`: `{}` must be Str, received `{}`", *key, show(vt)));
  }
  if (!has_to || !has_subject)
    error(DiagKind::NetOptionKey, span_of(arg), fmt::format("`smtp.send(opts)` needs `{}`", !has_to ? "to" : "subject"));
}

bool Checker::bind_json_target(const BuiltinSig& sig, TypeId expected, std::vector<TypeId>& bind, Span name_span) {
  if (expected.valid() && types_->kind(expected) == TypeKind::Result && !types_->is_dynamic(types_->ok(expected)) &&
      types_->unify(sig.result, types_->result(types_->ok(expected), types_->str()), bind))
    return true;
  error(DiagKind::JsonTargetMissing, name_span, "`json()` needs a declared type to decode into")
      .with_hint("write `let value: T = r.json()?`, or return it from a function that returns `Result<T>`");
  return false;
}

}  // namespace fitz::checker::detail
