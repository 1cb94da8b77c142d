// multipart/form-data: the boundary parameter, well-formed bodies (text and file parts, a
// preamble, binary content), every malformed shape (a 400 message, never a read past the
// body), and Binder's map bodies; plus the trace ids begin_request gives a request.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "http/internal.h"

namespace fitz::http {
namespace {

std::string s(const Str& x) { return std::string(x.data(), x.size()); }
std::string s(Text x) { return std::string(x.data, x.size); }

bool parse(const std::string& body, std::vector<MultipartPart>* parts, std::string* err) {
  return parse_multipart(Text(body.data(), body.size()), "XyZ", parts, err);
}

TEST(Multipart, Boundary) {
  std::string b;
  EXPECT_TRUE(multipart_boundary(Text("multipart/form-data; boundary=abc"), &b));
  EXPECT_EQ(b, "abc");
  EXPECT_TRUE(multipart_boundary(Text("multipart/form-data; charset=x; boundary=\"a b;c\""), &b));
  EXPECT_EQ(b, "a b;c");
  EXPECT_FALSE(multipart_boundary(Text("multipart/form-data"), &b));
  EXPECT_FALSE(multipart_boundary(Text("multipart/form-data; boundary="), &b));
  EXPECT_FALSE(multipart_boundary(Text("multipart/form-data; boundary=\"unterminated"), &b));
  EXPECT_FALSE(multipart_boundary(Text(("multipart/form-data; boundary=" + std::string(71, 'a')).c_str()), &b));
}

TEST(Multipart, TextAndFileParts) {
  std::string body =
      "preamble\r\n--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHello\r\nWorld\r\n"
      "--XyZ\r\ncontent-disposition: form-data; name=\"doc\"; filename=\"a.bin\"\r\nContent-Type: "
      "application/octet-stream\r\n\r\n";
  body += std::string("\0\xff\r\n--Xy", 8);
  body += "\r\n--XyZ--\r\nepilogue";
  std::vector<MultipartPart> parts;
  std::string err;
  ASSERT_TRUE(parse(body, &parts, &err)) << err;
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(s(parts[0].name), "title");
  EXPECT_FALSE(parts[0].is_file);
  EXPECT_EQ(s(parts[0].data), "Hello\r\nWorld");
  EXPECT_EQ(s(parts[1].name), "doc");
  EXPECT_TRUE(parts[1].is_file);
  EXPECT_EQ(s(parts[1].filename.value()), "a.bin");
  EXPECT_EQ(s(parts[1].content_type.value()), "application/octet-stream");
  EXPECT_EQ(s(parts[1].data), std::string("\0\xff\r\n--Xy", 8));
}

TEST(Multipart, MalformedBodiesAreErrors) {
  const char* cases[][2] = {
      {"", "no part starts with the boundary"},
      {"--XyZ", "a boundary line does not end with CRLF (or the closing boundary is missing)"},
      {"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n", "a part's headers do not end"},
      {"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end", "the closing boundary is missing"},
      {"--XyZ\r\nContent-Disposition: form-data\r\n\r\nx\r\n--XyZ--", "a part has no name"},
      {"--XyZ\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nx\r\n--XyZ--",
       "a part's Content-Disposition is not form-data"},
      {"--XyZ\r\nX-Other: 1\r\n\r\nx\r\n--XyZ--", "a part has no Content-Disposition"},
      {"--XyZ\r\nbroken header\r\n\r\nx\r\n--XyZ--", "a part header has no ':'"},
      {"--XyZ\r\nContent-Disposition: form-data; name=\"t\"\r\n\r\n\xc3\x28\r\n--XyZ--",
       "part 't' is not valid UTF-8 text"},
  };
  for (const auto& c : cases) {
    std::vector<MultipartPart> parts;
    std::string err;
    EXPECT_FALSE(parse(c[0], &parts, &err)) << c[0];
    EXPECT_EQ(err, c[1]) << c[0];
  }
  std::string many;
  for (int i = 0; i < 1001; ++i) many += "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n";
  many += "--XyZ--";
  std::vector<MultipartPart> parts;
  std::string err;
  EXPECT_FALSE(parse(many, &parts, &err));
  EXPECT_EQ(err, "more than 1000 parts");
}

Request multipart_request(const char* content_type, const std::string& body) {
  Request r;
  r.target = Text("/up");
  EXPECT_TRUE(detail::split_target(r));
  r.headers.push_back(Header{Text("Content-Type"), Text(content_type, std::strlen(content_type))});
  r.body = Text(body.data(), body.size());
  return r;
}

TEST(Multipart, BinderMaps) {
  std::string body =
      "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--XyZ\r\nContent-Disposition: form-data; "
      "name=\"f\"; filename=\"x.txt\"\r\n\r\nabc\r\n--XyZ--\r\n";
  Request r = multipart_request("multipart/form-data; boundary=XyZ", body);
  Binder b(r);
  ASSERT_TRUE(b.is_multipart());
  Map<Str, Any> m = b.body_multipart();
  ASSERT_FALSE(b.failed()) << s(b.error().body);
  EXPECT_EQ(s(m.at(Str::lit("a"), {}).str_value()), "1");
  Any f = m.at(Str::lit("f"), {});
  std::string shown = s(to_str(f));
  EXPECT_EQ(shown.rfind("File {", 0), 0u) << shown;
  EXPECT_NE(shown.find("\"x.txt\""), std::string::npos) << shown;
  EXPECT_NE(shown.find("content_type: null"), std::string::npos) << shown;

  Binder text(r);
  text.body_form();
  ASSERT_TRUE(text.failed());
  EXPECT_EQ(text.error().status, 400);
  EXPECT_EQ(s(text.error().body), "{\"error\":\"multipart part 'f' is a file; a Map<Str, Any> body receives files\"}");

  Request nb = multipart_request("multipart/form-data", body);
  Binder nob(nb);
  nob.body_multipart();
  EXPECT_EQ(s(nob.error().body), "{\"error\":\"multipart/form-data body without a valid boundary\"}");
}

TEST(Trace, RequestsGetTraceIdsOrKeepTraceparent) {
  App app;
  Request r;
  r.target = Text("/x");
  r.headers.push_back(Header{Text("traceparent"), Text("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")});
  Response resp = app.handle(r);
  EXPECT_EQ(r.trace.trace_hi, 0x0af7651916cd43ddULL);
  EXPECT_EQ(r.trace.trace_lo, 0x8448eb211c80319cULL);
  EXPECT_NE(r.trace.span, 0u);
  EXPECT_EQ(s(r.trace.request_id), s(r.request_id));

  Request bad;
  bad.target = Text("/x");
  bad.headers.push_back(Header{Text("traceparent"), Text("00-00000000000000000000000000000000-b7ad6b7169203331-01")});
  app.handle(bad);
  EXPECT_TRUE(bad.trace.active());
  EXPECT_NE(bad.trace.trace_hi | bad.trace.trace_lo, 0u);

  App quiet;
  quiet.config().observability = false;
  Request q;
  q.target = Text("/x");
  quiet.handle(q);
  EXPECT_FALSE(q.trace.active());
  EXPECT_TRUE(q.request_id.empty());
}

}  // namespace
}  // namespace fitz::http
