// Internal to runtime/live: a string_view as the JSON code's `Text`, shared by the files that
// write JSON (one definition, so the unity build's batches see no duplicates).
#pragma once

#include <string_view>

#include "fitz/http/json.h"

namespace fitz::live::detail {

inline http::Text json_text(std::string_view s) { return http::Text(s.data(), s.size()); }

}  // namespace fitz::live::detail
