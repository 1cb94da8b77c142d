// The HTML serializer of live-view node trees: what SSR puts inside a live root and what the
// `full`, `replace`, `insert` and `kinsert` frames carry (views.md §1.4, §2.2).
#pragma once

#include <string>
#include <string_view>

#include "fitz/live/node.h"

namespace fitz::live {

// Appends `s` with & < > " ' escaped (&amp; &lt; &gt; &quot; &#39;), for text and attributes.
void escape_html(std::string_view s, std::string& out);

// Writes the node as HTML: text escaped, Html raw, every attribute double-quoted and escaped,
// URL attributes filtered, invalid attribute names dropped, void elements without a closing
// tag or children, a keyed element with `data-fz-key="<key>"` (how the client finds `{"k"}`
// path segments), a scoped one with `data-s-<h>=""`.
void write_html(const Node& n, std::string& out);
std::string to_html(const Node& n);
// The children only: the inner HTML of a live root.
std::string inner_html(const Node& n);

bool is_void_element(std::string_view tag);

}  // namespace fitz::live
