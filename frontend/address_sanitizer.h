// Whether this binary is built with AddressSanitizer: GCC says so with __SANITIZE_ADDRESS__,
// clang (the fuzz and sanitized trees) only through __has_feature.
#pragma once

namespace fitz {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kBuiltWithAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kBuiltWithAddressSanitizer = true;
#else
inline constexpr bool kBuiltWithAddressSanitizer = false;
#endif
#else
inline constexpr bool kBuiltWithAddressSanitizer = false;
#endif

}  // namespace fitz
