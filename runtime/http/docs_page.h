// The /docs page: a self-contained HTML viewer of /openapi.json (no network beyond the service
// itself), served when the program gives no page of its own.
#pragma once

#include <string_view>

namespace fitz::http {

// Static storage: the view stays valid for the life of the program.
std::string_view docs_page();

}  // namespace fitz::http
