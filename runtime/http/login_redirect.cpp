// `@server(login_path=)`: a browser asking for a guarded page without credentials is sent to
// the login page with `?next=` rather than shown a JSON 401. Which requests count as a browser
// is read from Accept, so API clients (JSON, or no Accept) keep the 401.
#include <cstdlib>
#include <cstring>
#include <string>

#include "fitz/http.h"

namespace fitz::http {

namespace {

// The quality `accept` gives `type/subtype`: the most specific matching range wins
// (RFC 9110 §12.5.1); 0 when nothing matches.
double accept_quality(Text accept, Text type, Text subtype) {
  double best_q = 0;
  int best_rank = -1;
  const char* p = accept.data;
  const char* end = p + accept.size;
  while (p < end) {
    const char* stop = static_cast<const char*>(std::memchr(p, ',', size_t(end - p)));
    if (!stop) stop = end;
    const char* semi = static_cast<const char*>(std::memchr(p, ';', size_t(stop - p)));
    const char* range_end = semi ? semi : stop;
    while (p < range_end && (*p == ' ' || *p == '\t')) ++p;
    const char* e = range_end;
    while (e > p && (e[-1] == ' ' || e[-1] == '\t')) --e;
    Text range(p, size_t(e - p));
    const char* slash = static_cast<const char*>(std::memchr(range.data, '/', range.size));
    double q = 1;
    for (const char* a = semi; a && a < stop;) {
      const char* next = static_cast<const char*>(std::memchr(a + 1, ';', size_t(stop - a - 1)));
      const char* pe = next ? next : stop;
      const char* k = a + 1;
      while (k < pe && (*k == ' ' || *k == '\t')) ++k;
      if (pe - k >= 2 && (k[0] == 'q' || k[0] == 'Q') && k[1] == '=') {
        std::string v(k + 2, size_t(pe - k - 2));
        char* conv_end = nullptr;
        double parsed = std::strtod(v.c_str(), &conv_end);
        q = conv_end != v.c_str() && parsed >= 0 && parsed <= 1 ? parsed : 0;
      }
      a = next;
    }
    if (slash) {
      Text t(range.data, size_t(slash - range.data));
      Text st(slash + 1, size_t(range.data + range.size - slash - 1));
      int rank = -1;
      if (t.iequals(type) && st.iequals(subtype)) rank = 2;
      else if (t.iequals(type) && st == Text("*")) rank = 1;
      else if (t == Text("*") && st == Text("*")) rank = 0;
      if (rank > best_rank) {
        best_rank = rank;
        best_q = q;
      }
    }
    p = stop < end ? stop + 1 : end;
  }
  return best_q;
}

bool is_unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~' || c == '/';
}

}  // namespace

bool accept_prefers_html(Text accept) {
  return accept_quality(accept, Text("text"), Text("html")) > accept_quality(accept, Text("application"), Text("json"));
}

Response login_redirect(const Request& req, Response denied, Text login_path) {
  Text accept;
  if (denied.status != 401 || !req.header_text(Text("accept"), &accept) || !accept_prefers_html(accept)) return denied;
  static constexpr char kHex[] = "0123456789ABCDEF";
  Buf loc;
  loc.append(login_path.data, login_path.size);
  loc.lit("?next=");
  // The path and query as sent (still percent-encoded), encoded once more so the whole of it is
  // one query value; `%` itself is encoded, so decoding `next` gives the original back.
  auto add = [&](Text t) {
    for (size_t i = 0; i < t.size; ++i) {
      auto c = static_cast<unsigned char>(t.data[i]);
      if (is_unreserved(c)) {
        loc.push(char(c));
      } else {
        loc.push('%');
        loc.push(kHex[c >> 4]);
        loc.push(kHex[c & 15]);
      }
    }
  };
  add(req.raw_path);
  if (!req.raw_query.empty()) {
    add(Text("?"));
    add(req.raw_query);
  }
  Response r = Response::text(302, Str::lit("redirecting to the login page\n"));
  r.set_header(Str::lit("Location"), loc.take());
  r.set_header(Str::lit("Cache-Control"), Str::lit("no-store"));
  return r;
}

}  // namespace fitz::http
