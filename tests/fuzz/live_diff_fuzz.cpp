// libFuzzer target for the live-view differ (fitz/live/diff.h): the input drives the building
// of two node trees (elements, texts, attributes, keyed rows, template identities from a small
// range so that siblings match, collide and repeat); applying diff(a, b) to a must
// give b, the ops must serialize to JSON the runtime's reader accepts, and the HTML never
// carries a `javascript:` URL, an `on*` attribute or markup from text or attribute values.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "fitz/http/json.h"
#include "fitz/live/diff.h"
#include "fitz/live/html.h"

namespace {

using namespace fitz::live;

struct Bytes {
  const uint8_t* p;
  size_t n;
  uint8_t next() {
    if (n == 0) return 0;
    --n;
    return *p++;
  }
};

// One byte: no identity (site 0, a hand-built tree) or one of a few sites and iterations.
void identity(Bytes& in, Node& n) {
  uint8_t b = in.next();
  if (b % 3 != 0) n.at(uint32_t(b % 7), uint64_t(b / 7 % 3));
}

Node build(Bytes& in, int depth) {
  static const char* kTags[] = {"div", "ul", "li", "input", "option", "p", "a", "span"};
  static const char* kAttrs[] = {"class", "value", "checked", "selected", "href", "title", "onclick", "data-x"};
  static const char* kValues[] = {"", "a", "javascript:alert(1)", "\"><img src=x onerror=alert(1)>", "/x", "b"};
  Node n = el(kTags[in.next() % 8]);
  identity(in, n);
  for (int i = in.next() % 3; i > 0; --i) n.attr(kAttrs[in.next() % 8], kValues[in.next() % 6]);
  if (depth == 0) return n;
  uint8_t shape = in.next();
  if (shape % 4 == 0) {  // a keyed list; duplicate keys are possible on purpose
    for (int i = in.next() % 8; i > 0; --i) {
      uint8_t k = in.next() % 12;
      Node row = build(in, depth - 1);
      row.with_key(k % 2 ? Key::integer(k) : Key::str("k" + std::to_string(k)));
      n.child(std::move(row));
    }
    return n;
  }
  for (int i = shape % 5; i > 0; --i) {
    uint8_t c = in.next();
    if (c % 5 == 0) {
      Node t = text(c % 2 ? "<b>t</b>" : "t&" + std::to_string(c));
      identity(in, t);
      n.child(std::move(t));
    } else if (c % 17 == 1) {
      n.child(html_raw("<i>raw</i>"));
    } else {
      n.child(build(in, depth - 1));
    }
  }
  if (shape % 7 == 3) n.mark_static();
  return n;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes in{data, size};
  Node a = el("div"), b = el("div");
  for (int i = in.next() % 4; i > 0; --i) a.child(build(in, 3));
  for (int i = in.next() % 4; i > 0; --i) b.child(build(in, 3));
  DiffResult r = diff(a, b);
  std::string json = ops_to_json(r.ops);
  fitz::http::JsonReader reader(json.data(), json.size());
  if (!reader.skip_value() || !reader.finish()) std::abort();
  if (r.needs_full) return 0;
  Node c = a;
  std::string err;
  if (!apply_ops(r.ops, c, &err)) std::abort();
  struct Walk {
    static bool any_static(const Node& n) {
      if (n.is_static) return true;
      for (const Node& k : n.children)
        if (any_static(k)) return true;
      return false;
    }
  };
  // Static flags promise equal subtrees, a promise this builder does not keep: trees with
  // them are only applied, not compared.
  if (!Walk::any_static(a) && !Walk::any_static(b) && !equivalent(c, b)) std::abort();
  std::string html = to_html(b);
  if (html.find("href=\"javascript:") != std::string::npos) std::abort();
  if (html.find(" onclick=") != std::string::npos) std::abort();
  if (html.find("<img") != std::string::npos) std::abort();
  return 0;
}
