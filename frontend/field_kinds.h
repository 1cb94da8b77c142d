// What kind of container an AST field is, for the code that walks every field of a node
// through Boost.PFR (lower_reuse.cpp moves reused nodes; its test compares them field by field).
#pragma once

#include <optional>
#include <type_traits>
#include <variant>
#include <vector>

namespace fitz::frontend::fields {

template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {};
template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <class T>
struct IsVariant : std::false_type {};
template <class... T>
struct IsVariant<std::variant<T...>> : std::true_type {};

}  // namespace fitz::frontend::fields
