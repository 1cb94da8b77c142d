// GET /_fitz/live.js: the client embedded at build time (cmake/embed_text.cmake), served with
// a content-hash ETag and immutable caching for the versioned URL the layout writes.
#include "fitz/live/server.h"

namespace fitz::live {

std::string_view embedded_live_js();
std::string_view embedded_live_js_sha256();

std::string_view client_script() { return embedded_live_js(); }
std::string_view client_script_hash() { return embedded_live_js_sha256().substr(0, 16); }

http::Response client_script_response(const http::Request& req) {
  // Built with append: GCC 12 reports a false -Wrestrict for `"literal" + std::string`.
  std::string etag = std::string("\"").append(client_script_hash()).append("\"");
  Nullable<Str> v = req.query("v"_s);
  bool versioned = !v.is_null() && v.value().as<std::string_view>() == client_script_hash();
  Nullable<Str> inm = req.header("if-none-match"_s);
  bool fresh = !inm.is_null() && (inm.value().as<std::string_view>() == etag ||
                                  inm.value().as<std::string_view>() == std::string("W/").append(etag));
  http::Response r = fresh ? http::Response::empty(304)
                           : http::Response::text(200, Str::from(client_script()),
                                                  Str::lit("text/javascript; charset=utf-8"));
  r.set_header(Str::lit("ETag"), Str::from(etag));
  // An unversioned or mismatched URL must be revalidated, else a page could keep an old client.
  r.set_header(Str::lit("Cache-Control"), versioned ? Str::lit("public, max-age=31536000, immutable")
                                                     : Str::lit("no-cache"));
  return r;
}

}  // namespace fitz::live
