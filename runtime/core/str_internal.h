// Helpers shared by the Str implementation files (not part of the public runtime API).
#pragma once

#include <cstddef>
#include <cstdint>

namespace fitz {
class Str;
namespace detail {

size_t encode_utf8(uint32_t cp, char* out);            // writes 1..4 bytes
uint32_t decode_utf8(const char*& p, const char* end);  // input assumed valid UTF-8
size_t char_offset(const Str& s, int64_t index);        // byte offset of char `index` (or size)

uint32_t upper_cp(uint32_t cp);
uint32_t lower_cp(uint32_t cp);
bool is_alpha_cp(uint32_t cp);
bool is_space_cp(uint32_t cp);

}  // namespace detail
}  // namespace fitz
