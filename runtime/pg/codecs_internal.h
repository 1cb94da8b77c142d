// Helpers shared by the codec translation units (codecs*.cpp). Internal to fitz::pg.
#pragma once

#include <string_view>

#include "pg/error.h"

namespace fitz::pg::codec_detail {

Error text_error(std::string_view type, std::string_view text);
Error binary_error(std::string_view type, std::string_view why);
Error length_error(std::string_view type, std::size_t expected, std::size_t got);
int hex_value(char c);
// Whole-string decimal integer; out-of-range values are 22003, anything else malformed 22P02.
template <class Int>
Result<Int> parse_int(std::string_view text, std::string_view type);

}  // namespace fitz::pg::codec_detail
