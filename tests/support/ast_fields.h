// Every field of every node of an AST written out (ids, spans, where names point in the text),
// through Boost.PFR: two lowerings that must build the same AST compare as strings.
#pragma once

#include <boost/pfr.hpp>

#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "frontend/ast.h"
#include "frontend/field_kinds.h"

namespace fitz::test_support {

using namespace fitz::frontend;

using frontend::fields::IsOptional;
using frontend::fields::IsVariant;
using frontend::fields::IsVector;
template <class T>
struct IsId : std::false_type {};
template <class Tag>
struct IsId<Id<Tag>> : std::true_type {};

// Every field, written out; names as their offset into `text` (or "const") and their content.
struct FieldWriter {
  std::ostringstream& out;
  std::string_view text;

  template <class T>
  void operator()(const T& v) const {
    if constexpr (IsId<T>::value) {
      out << '#' << (v.valid() ? std::to_string(v.index) : "-") << ' ';
    } else if constexpr (std::is_same_v<T, FileId>) {
      out << 'F' << v.value << ' ';
    } else if constexpr (std::is_same_v<T, Span>) {
      out << '[' << v.file.value << ':' << v.begin << '-' << v.end << "] ";
    } else if constexpr (std::is_same_v<T, std::string_view>) {
      bool inside = v.data() >= text.data() && v.data() <= text.data() + text.size();
      out << '"' << v << "\"@" << (inside ? std::to_string(v.data() - text.data()) : "const") << ' ';
    } else if constexpr (std::is_same_v<T, std::string>) {
      out << '\'' << v << "' ";
    } else if constexpr (std::is_enum_v<T>) {
      out << int64_t(v) << ' ';
    } else if constexpr (std::is_arithmetic_v<T>) {
      out << v << ' ';
    } else if constexpr (IsOptional<T>::value) {
      if (v) (*this)(*v);
      else out << "none ";
    } else if constexpr (IsVector<T>::value) {
      out << "( ";
      for (const auto& x : v) (*this)(x);
      out << ") ";
    } else if constexpr (IsVariant<T>::value) {
      out << 'v' << v.index() << ' ';
      std::visit([&](const auto& x) { (*this)(x); }, v);
    } else {
      static_assert(std::is_aggregate_v<T>);
      out << "{ ";
      boost::pfr::for_each_field(v, [&](const auto& f) { (*this)(f); });
      out << "} ";
    }
  }
};

inline std::string written(const Ast& ast, std::string_view text) {
  std::ostringstream out;
  FieldWriter w{out, text};
  w(ast.file);
  w(ast.top_level);
  w(ast.exprs);
  w(ast.stmts);
  w(ast.patterns);
  w(ast.types);
  w(ast.blocks);
  w(ast.fns);
  w(ast.type_decls);
  return out.str();
}

}  // namespace fitz::test_support
