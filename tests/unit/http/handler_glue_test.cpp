// The handler glue generated programs include (fitz/http/handler_glue.h): Request/Response
// conversions over stand-ins for the generated structs, Err answers, the answers of handler
// results (values, null, nullable, Result, Response), and health results.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "fitz/http/handler_glue.h"

namespace fitz::http::glue {
namespace {

// Shaped like codegen's fzb::T_Request / fzb::T_Response (Gen::emit_builtin_structs).
struct FakeRequest {
  static constexpr const char* fitz_name = "Request";
  static constexpr const char* fitz_field_names[] = {"method", "path", "headers"};
  fitz::Str fld_method{};
  fitz::Str fld_path{};
  fitz::Map<fitz::Str, fitz::Str> fld_headers{};
  auto fitz_fields() const { return std::tie(fld_method, fld_path, fld_headers); }
  auto fitz_fields() { return std::tie(fld_method, fld_path, fld_headers); }
};
struct FakeResponse {
  static constexpr const char* fitz_name = "Response";
  static constexpr const char* fitz_field_names[] = {"status", "content_type", "headers", "body", "body_bytes"};
  int64_t fld_status = 200;
  fitz::Str fld_content_type = fitz::Str::lit("application/json");
  fitz::Map<fitz::Str, fitz::Str> fld_headers{};
  fitz::Nullable<fitz::Str> fld_body{};
  fitz::Nullable<fitz::Bytes> fld_body_bytes{};
  auto fitz_fields() const { return std::tie(fld_status, fld_content_type, fld_headers, fld_body, fld_body_bytes); }
  auto fitz_fields() { return std::tie(fld_status, fld_content_type, fld_headers, fld_body, fld_body_bytes); }
};
// An error value with a status field, like `type ApiError { status: Int, reason: Str }`.
struct ApiError {
  static constexpr const char* fitz_name = "ApiError";
  static constexpr const char* fitz_field_names[] = {"status", "reason"};
  int64_t fld_status = 0;
  fitz::Str fld_reason{};
  auto fitz_fields() const { return std::tie(fld_status, fld_reason); }
  auto fitz_fields() { return std::tie(fld_status, fld_reason); }
};

std::string s(const fitz::Str& x) { return std::string(x.data(), x.size()); }

TEST(HandlerGlue, RequestAsCopiesMethodPathAndLowercasedHeaders) {
  Request r;
  r.method = Method::Post;
  r.path = fitz::Str::lit("/users/7");
  r.headers.push_back(Header{Text("X-Trace-Id"), Text("abc")});
  fitz::Ref<FakeRequest> o = request_as<FakeRequest>(r);
  EXPECT_EQ(s(o->fld_method), "POST");
  EXPECT_EQ(s(o->fld_path), "/users/7");
  ASSERT_TRUE(o->fld_headers.has(fitz::Str::lit("x-trace-id")));
}

TEST(HandlerGlue, ResponseRoundTrip) {
  Response r = Response::text(201, fitz::Str::lit("a,b"), fitz::Str::lit("text/csv"));
  r.set_header(fitz::Str::lit("x-served-by"), fitz::Str::lit("glue"));
  fitz::Ref<FakeResponse> o = response_as<FakeResponse>(r);
  EXPECT_EQ(o->fld_status, 201);
  EXPECT_EQ(s(o->fld_content_type), "text/csv");
  ASSERT_TRUE(o->fld_body.has_value());
  EXPECT_EQ(s(o->fld_body.value()), "a,b");
  Response back = response_from(o);
  EXPECT_EQ(back.status, 201);
  EXPECT_EQ(s(back.body), "a,b");
  EXPECT_EQ(s(back.content_type), "text/csv");
}

TEST(HandlerGlue, ResponseFromClampsStatusAndPrefersBytes) {
  auto o = fitz::make<FakeResponse>();
  o->fld_status = 42;
  o->fld_body = fitz::Str::lit("text");
  o->fld_body_bytes = fitz::Bytes("raw", 3);
  Response r = response_from(o);
  EXPECT_EQ(r.status, 500);
  EXPECT_EQ(s(r.body), "raw");
  Response null_answer = response_from(fitz::Ref<FakeResponse>());
  EXPECT_EQ(null_answer.status, 200);
  EXPECT_EQ(s(null_answer.body), "null");
}

TEST(HandlerGlue, ErrResponses) {
  Response msg = err_response(fitz::Str::lit("boom"));
  EXPECT_EQ(msg.status, 500);
  EXPECT_EQ(s(msg.body), "{\"error\":\"boom\"}");
  Response db = err_response(fitz::Str::lit("database unavailable: connection refused"));
  EXPECT_EQ(db.status, 503);
  EXPECT_EQ(s(db.body), "{\"error\":\"database unavailable\"}");
  auto e = fitz::make<ApiError>();
  e->fld_status = 410;
  e->fld_reason = fitz::Str::lit("gone");
  Response with_status = err_response(e);
  EXPECT_EQ(with_status.status, 410);
  EXPECT_EQ(s(with_status.body), "{\"status\":410,\"reason\":\"gone\"}");
  e->fld_status = 5000;
  EXPECT_EQ(err_response(e).status, 500);
  Response other = err_response(int64_t(7));
  EXPECT_EQ(other.status, 500);
  EXPECT_EQ(s(other.body), "{\"error\":7}");
}

TEST(HandlerGlue, OutOfHandlerResults) {
  Out value = out<FakeResponse>(int64_t(3));
  ASSERT_FALSE(value.none);
  EXPECT_EQ(value.r.status, 200);
  EXPECT_EQ(s(value.r.body), "3");
  EXPECT_TRUE(out<FakeResponse>(fitz::Null{}).none);
  EXPECT_TRUE(out<FakeResponse>(fitz::Nullable<int64_t>()).none);
  EXPECT_EQ(s(out<FakeResponse>(fitz::Nullable<int64_t>(5)).r.body), "5");
  fitz::Result<int64_t, fitz::Str> ok = fitz::Ok(int64_t(9));
  EXPECT_EQ(s(out<FakeResponse>(ok).r.body), "9");
  fitz::Result<int64_t, fitz::Str> err = fitz::Err(fitz::Str::lit("no"));
  Out failed = out<FakeResponse>(err);
  EXPECT_EQ(failed.r.status, 500);
  auto resp = fitz::make<FakeResponse>();
  resp->fld_status = 204;
  EXPECT_EQ(out<FakeResponse>(resp).r.status, 204);
  // A handler that returns nothing answers `null`.
  Response fin = finish(Out::pass());
  EXPECT_EQ(fin.status, 200);
  EXPECT_EQ(s(fin.body), "null");
  Out from_err = fitz::Err(fitz::Str::lit("bad"));
  EXPECT_EQ(finish(from_err).status, 500);
}

TEST(HandlerGlue, HealthAndOptionalAny) {
  EXPECT_TRUE(healthy(true));
  EXPECT_FALSE(healthy(false));
  EXPECT_FALSE(healthy(fitz::Result<bool, fitz::Str>(fitz::Err(fitz::Str::lit("down")))));
  EXPECT_TRUE(healthy(fitz::Result<bool, fitz::Str>(fitz::Ok(false))));  // an Ok is healthy whatever it holds
  EXPECT_TRUE(opt_any(fitz::Nullable<int64_t>()).is_null());
  EXPECT_FALSE(opt_any(fitz::Nullable<int64_t>(1)).is_null());
}

}  // namespace
}  // namespace fitz::http::glue
