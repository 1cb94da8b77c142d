// Typed 32-bit ids: nodes, types and symbols are addressed by index into flat vectors, so
// they are cheap to copy, compare, hash and cache. An id of one kind never converts to another.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>

namespace fitz::frontend {

template <class Tag>
struct Id {
  static constexpr uint32_t kInvalid = UINT32_MAX;
  uint32_t index = kInvalid;

  constexpr Id() = default;
  constexpr explicit Id(uint32_t i) : index(i) {}
  constexpr bool valid() const { return index != kInvalid; }
  constexpr explicit operator bool() const { return valid(); }
  friend constexpr auto operator<=>(Id, Id) = default;
};

}  // namespace fitz::frontend

template <class Tag>
struct std::hash<fitz::frontend::Id<Tag>> {
  size_t operator()(fitz::frontend::Id<Tag> id) const noexcept { return std::hash<uint32_t>{}(id.index); }
};
