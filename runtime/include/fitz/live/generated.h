// What compiled `.fitzv` components and `@live` pages call (codegen/emit_views.cpp): reading
// typed event arguments from a payload, the render-time arguments an element carries, and the
// default page layout around a live root. Kept out of the generated translation unit so that
// every program shares one tested copy.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fitz/any.h"
#include "fitz/http.h"
#include "fitz/live/children.h"
#include "fitz/live/server.h"
#include "fitz/live/view.h"

namespace fitz::live::gen {

// The payload value under `name`, or null when the client sent none.
const std::string* payload_value(const Payload& p, std::string_view name);

// Typed arguments (§1.3): a value that does not convert, or a missing required one, is an
// `args` EventError naming the parameter. A `T?` parameter is null when the key is missing
// (and, for non-Str types, when the value is empty).
std::optional<EventError> arg(const Payload& p, std::string_view name, Str* out);
std::optional<EventError> arg(const Payload& p, std::string_view name, int64_t* out);
std::optional<EventError> arg(const Payload& p, std::string_view name, double* out);
std::optional<EventError> arg(const Payload& p, std::string_view name, bool* out);
std::optional<EventError> arg(const Payload& p, std::string_view name, Nullable<Str>* out);
std::optional<EventError> arg(const Payload& p, std::string_view name, Nullable<int64_t>* out);
std::optional<EventError> arg(const Payload& p, std::string_view name, Nullable<double>* out);
std::optional<EventError> arg(const Payload& p, std::string_view name, Nullable<bool>* out);

// `data-fz-args`: the element's render-time arguments as a JSON object of strings.
std::string args_json(const std::vector<std::pair<std::string_view, std::string>>& args);

inline std::string text_of(const Str& s) { return std::string(s.data(), s.size()); }

// The default layout (§1.7): doctype, charset, viewport, title, the page's collected styles in
// <head>, the live root in <body>, and the client script (cacheable, no inline script).
std::string default_page(std::string_view title, std::string_view styles, std::string_view body_html);
// The stylesheets and the client script of a page with live roots: the part of default_head a
// handler's own page needs before its first `live_embed` root.
std::string live_assets(std::string_view styles);
// What default_page puts in <head>: what a `layout=` function receives as `head`.
std::string default_head(std::string_view title, std::string_view styles);

// `live_test(Counter {...})` of `fitz test` (test_harness.cpp): the view mounted as a connected
// page, as a `LiveTest` value whose methods click, type and submit through the rendered tree.
Any live_test(std::unique_ptr<View> view, SourcePos pos);

// `on every 1s`: the duration in milliseconds ("500ms", "1s", "2m", "1h"); 0 when unreadable.
int64_t duration_ms(std::string_view text);

}  // namespace fitz::live::gen
