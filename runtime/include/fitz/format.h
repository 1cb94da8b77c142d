// Format specs of interpolation holes: `"{score:8.2f}"` -> `fitz::format_value(score, "8.2f")`.
// Grammar: [[fill]align][sign][#][0][width][,|_][.prec][type]; align `< > ^ =`, sign `+ - space`,
// type `b c d e E f F g G o s x X %`. Numbers align right by default, everything else left.
// `.prec` on a string truncates it; on a Float without a type it means fixed decimals.
// `e`/`g` write exponents the way the first implementation did (`1.5e3`, `1.00000e-5`).
// An invalid spec, or a type that does not fit the value, is a runtime error.
#pragma once

#include "fitz/eq.h"

namespace fitz {

namespace detail {
Str format_int(int64_t v, const char* spec, SourcePos pos);
Str format_float(double v, const char* spec, SourcePos pos);
Str format_text(const Str& display, const char* spec, SourcePos pos);
Str format_any(const Any& v, const char* spec, SourcePos pos);
}  // namespace detail

template <class T> Str format_value(const T& v, const char* spec, SourcePos pos = {}) {
  if constexpr (std::is_same_v<T, bool>) {
    return detail::format_text(to_str(v), spec, pos);
  } else if constexpr (std::is_integral_v<T>) {
    return detail::format_int(int64_t(v), spec, pos);
  } else if constexpr (std::is_floating_point_v<T>) {
    return detail::format_float(double(v), spec, pos);
  } else if constexpr (std::is_same_v<T, Str>) {
    return detail::format_text(v, spec, pos);
  } else if constexpr (std::is_same_v<T, Any>) {
    return detail::format_any(v, spec, pos);
  } else if constexpr (detail::is_nullable_v<T>) {
    if (v.is_null()) return detail::format_text(Str::lit("null"), spec, pos);
    return format_value(v.value(), spec, pos);
  } else {
    return detail::format_text(to_str(v), spec, pos);
  }
}

}  // namespace fitz
