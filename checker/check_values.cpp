// The checker's part of built-in values beyond their table rows: literal date format strings
// are checked when compiling (E0720), only two values of one date type are ordered (E0721), and
// literal cookie options of `Response.set_cookie` are checked (E0544).
#include "checker/check_internal.h"
#include "frontend/decorator_args.h"

namespace fitz::checker::detail {

bool is_date_value(const TypeStore& types, TypeId t) {
  if (types.kind(t) != TypeKind::Struct) return false;
  const StructInfo& si = types.struct_info(types.struct_of(t));
  return si.builtin && (si.name == "Date" || si.name == "DateTime" || si.name == "Uuid");
}

namespace {

// The specifiers date.cpp's formatter writes; anything else would be copied through verbatim
// at run time, which in a literal is always a typo.
constexpr std::string_view kDateSpecifiers = "YymdeHIpMSAaBbjuFTZz%";

// The first bad specifier of `fmt` ("%Q", or "%" at the end), or empty.
std::string bad_specifier(std::string_view fmt) {
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') continue;
    if (i + 1 >= fmt.size()) return "%";
    char k = fmt[++i];
    if (kDateSpecifiers.find(k) == std::string_view::npos) return std::string("%") + k;
  }
  return {};
}

}  // namespace

void Checker::check_value_builtin_args(const BuiltinEntry& entry, const CallExpr& c) {
  if (entry.rule == BuiltinRule::StrOrBytes && c.args.size() == 2) {
    // The table has no union types: `content: Str|Bytes` is checked here.
    TypeId t = tir_->type_of(c.args[1].value);
    if (t.valid() && !types_->is_error(t) && !types_->is_dynamic(t) && t != types_->str() && t != types_->bytes())
      error(DiagKind::ArgumentType, span_of(c.args[1].value),
            fmt::format("method `{}`: the content must be `Str` or `Bytes`, received `{}`", entry.name, show(t)));
    return;
  }
  if (entry.rule == BuiltinRule::SqlLiteral && c.args.size() == 1) {
    // Verbatim SQL from the program text only: interpolation or a variable could carry a user
    // value into the statement.
    if (!plain_string_literal(*ast_, c.args[0].value))
      error(DiagKind::SqlRawLiteral, span_of(c.args[0].value), "`sql.raw` takes a string literal (no interpolation, no variable)")
          .with_hint("pass user values as ordinary map values: `.update(db, {\"n\": n})` binds them as parameters");
    return;
  }
  if (entry.rule == BuiltinRule::CookieOptions) {
    check_cookie_options(entry, c);
    return;
  }
  if (entry.rule != BuiltinRule::DateFormat || c.args.empty()) return;
  ExprId arg = c.args[0].value;
  std::optional<std::string> fmt = plain_string_literal(*ast_, arg);
  if (!fmt) return;  // a computed format is checked at run time (unknown specifiers pass through)
  std::string bad = bad_specifier(*fmt);
  if (bad.empty()) return;
  error(DiagKind::DateFormat, span_of(arg),
        bad == "%" ? std::string("format string of `format` ends with a lone `%`")
                   : fmt::format("format string of `format` has the unknown specifier `{}`", bad))
      .with_hint("use %Y %m %d %H %M %S %A %B %j %F %T (and %y %e %I %p %a %b %u %Z %z); write %% for a percent sign");
}

// `resp.set_cookie(name, value, ...)` and `.clear_cookie(name, ...)`: what literals already
// decide is an error now rather than a runtime error on the first request.
void Checker::check_cookie_options(const BuiltinEntry& entry, const CallExpr& c) {
  const Arg* name = nullptr;
  const Arg* same_site = nullptr;
  const Arg* secure = nullptr;
  for (size_t i = 0; i < c.args.size(); ++i) {
    const Arg& a = c.args[i];
    std::string_view key = a.name ? a.name->text : i == 0 ? "name" : i == 4 ? "secure" : i == 5 ? "same_site" : "";
    if (entry.name == "clear_cookie" && !a.name && i > 0) key = "";
    if (key == "name") name = &a;
    if (key == "same_site") same_site = &a;
    if (key == "secure") secure = &a;
  }
  if (name)
    if (std::optional<std::string> n = plain_string_literal(*ast_, name->value)) {
      if (!is_cookie_token(*n))
        error(DiagKind::CookieOptions, span_of(name->value), fmt::format("`{}` is not a cookie name", *n))
            .with_hint("a cookie name is letters, digits and !#$%&'*+-.^_`|~ only");
    }
  if (!same_site) return;
  std::optional<std::string> ss = plain_string_literal(*ast_, same_site->value);
  if (!ss) return;  // a computed value is checked when the cookie is set
  if (*ss != "Strict" && *ss != "Lax" && *ss != "None") {
    error(DiagKind::CookieOptions, span_of(same_site->value),
          fmt::format("`same_site` is \"Strict\", \"Lax\" or \"None\", not \"{}\"", *ss));
    return;
  }
  auto* off = secure ? std::get_if<BoolLit>(&ast_->get(secure->value).data) : nullptr;
  if (*ss == "None" && off && !off->value)
    error(DiagKind::CookieOptions, span_of(secure->value), "`same_site: \"None\"` needs `secure: true`: browsers drop the cookie otherwise")
        .with_label(span_of(same_site->value), "cross-site cookie asked for here");
}

bool Checker::date_comparison(TypeId l, TypeId r, Span op_span) {
  if (!is_date_value(*types_, l) && !is_date_value(*types_, r)) return false;
  if (l == r && types_->struct_info(types_->struct_of(l)).name != "Uuid") return true;
  if (l == r)
    error(DiagKind::DateComparison, op_span, "`Uuid` values have no order; compare them with `==` or `!=`");
  else
    error(DiagKind::DateComparison, op_span,
          fmt::format("comparison between `{}` and `{}`: both sides must be the same date type", show(l), show(r)))
        .with_hint("convert one side: `d.to_datetime()` or `t.date()`");
  return true;
}

}  // namespace fitz::checker::detail
