// The benchmark service written against the public fitz::http API the way generated code
// uses it: GET /health and POST /echo with a typed body (decoded, then encoded back).
#include <cstring>

#include "fitz/http.h"

namespace bench {
struct Msg {
  static constexpr const char* fitz_name = "Msg";
  static constexpr const char* fitz_field_names[] = {"text", "n"};
  fitz::Str text;
  int64_t n = 0;
  auto fitz_fields() const { return std::tie(text, n); }
  auto fitz_fields() { return std::tie(text, n); }
};
}  // namespace bench

template <> struct fitz::http::JsonDecode<fitz::Ref<bench::Msg>> {
  static bool read(JsonReader& r, fitz::Ref<bench::Msg>* out) {
    static const Text names[] = {"text", "n"};
    bench::Msg v;
    uint64_t seen = 0;
    if (!r.begin_object()) return false;
    if (!read_fields(r, names, 2, &seen, [&](size_t i) { return i == 0 ? r.read(&v.text) : r.read(&v.n); }))
      return false;
    if ((seen & 3) != 3) {
      r.fail_missing((seen & 1) ? "n" : "text");
      return false;
    }
    *out = fitz::make<bench::Msg>(v.text, v.n);
    return true;
  }
};

int main(int argc, char** argv) {
  using namespace fitz::http;
  App app;
  app.config().banner = false;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--no-log") == 0) app.config().access_log = false;
  app.get("/health", [](Request&) { return Response::json(200, fitz::Str::lit("{\"status\":\"ok\"}")); });
  app.get("/plaintext", [](Request&) { return Response::text(200, fitz::Str::lit("Hello, World!"), fitz::Str::lit("text/plain")); });
  app.post("/echo", [](Request& req) {
    Binder b(req);
    auto msg = b.body_json<fitz::Ref<bench::Msg>>("Msg");
    if (b.failed()) return b.error();
    return Response::json_value(200, msg);
  });
  return app.run();
}
