// The benchmark service written against the public fitz::http API the way generated code
// uses it: GET /health and POST /echo with a typed body (decoded, then encoded back), and
// GET /users/{id} straight on the Postgres client (runtime/pg): one pool per worker loop, one
// prepared query, the row encoded by the same JSON writer. It is what a C++ programmer would
// write by hand with this runtime, so Fitz against it is what the language costs.
#include <boost/asio/io_context.hpp>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "fitz/http.h"
#include "pg/conninfo.h"
#include "pg/pool.h"
#include "pg/task_await.h"

namespace bench {
struct Msg {
  static constexpr const char* fitz_name = "Msg";
  static constexpr const char* fitz_field_names[] = {"text", "n"};
  fitz::Str text;
  int64_t n = 0;
  auto fitz_fields() const { return std::tie(text, n); }
  auto fitz_fields() { return std::tie(text, n); }
};

struct User {
  static constexpr const char* fitz_name = "User";
  static constexpr const char* fitz_field_names[] = {"id", "name", "email", "created_at"};
  int64_t id = 0;
  fitz::Str name, email, created_at;
  auto fitz_fields() const { return std::tie(id, name, email, created_at); }
  auto fitz_fields() { return std::tie(id, name, email, created_at); }
};

namespace pg = fitz::pg;

// Connections belong to the loop that reads them: one pool per HTTP worker.
std::shared_ptr<pg::Pool> worker_pool() {
  thread_local std::shared_ptr<pg::Pool> pool;
  if (!pool) {
    const char* url = std::getenv("DATABASE_URL");
    auto info = pg::parse_conninfo(url ? url : "postgres://fitz:fitz@127.0.0.1:5432/fitz");
    if (!info) return nullptr;
    auto* ioc = static_cast<boost::asio::io_context*>(fitz::scheduler().io_context());
    pool = pg::Pool::create(*ioc, std::move(*info), pg::PoolOptions::from_env());
  }
  return pool;
}

constexpr std::string_view kUserSql =
    "SELECT id, name, email, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') "
    "FROM users WHERE id = $1";

fitz::Str str_of(std::optional<std::string_view> v) { return v ? fitz::Str(v->data(), v->size()) : fitz::Str(); }

fitz::Task<fitz::http::Response> get_user(fitz::http::Request& req) {
  using fitz::http::Response;
  fitz::http::Binder b(req);
  int64_t id = b.path_int(0, "id");
  if (b.failed()) co_return b.error();
  auto pool = worker_pool();
  if (!pool) co_return Response::error(500, "invalid DATABASE_URL");
  pg::AcquireAwait acquire{pool, std::nullopt};
  auto lease = co_await acquire;
  if (!lease) co_return Response::error(503, "database unavailable");
  pg::Param param = pg::Param::text(std::to_string(id), pg::oid::kInt8);
  pg::RoundAwait query{&**lease, kUserSql, std::span<const pg::Param>(&param, 1), std::nullopt};
  auto rows = co_await query;
  if (!rows) co_return Response::error(503, "database unavailable");
  if (rows->size() == 0) co_return Response::error(404, "user not found");
  const pg::RowSet& r = rows->rows;
  co_return Response::json_value(200, fitz::make<User>(int64_t(std::strtoll(std::string(r.value(0, 0).value_or("0")).c_str(), nullptr, 10)),
                                                       str_of(r.value(0, 1)), str_of(r.value(0, 2)), str_of(r.value(0, 3))));
}
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
  app.get("/users/{id}", &bench::get_user);
  return app.run();
}
