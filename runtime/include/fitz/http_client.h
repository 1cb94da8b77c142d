// The `http` built-in of Fitz programs: an outbound HTTP/1.1 client (`http.get`, `head`,
// `delete`, `post`, `put`, `request`) whose calls are futures of `Result<HttpClientResponse>`
// running on the program's event loop. Generated code reaches the module and the response
// through Any; `r.json()` decodes by the type the checker resolved (`json_as<T>`), with the
// handler body decoder and its field paths. The implementation is libfitz_net (runtime/net/).
#pragma once

#include "fitz/http/json.h"
#include "fitz/runtime.h"

namespace fitz {

// The value of the built-in `http`.
Any http_module();

namespace net {

// The raw body of an HttpClientResponse (a runtime error for anything else).
Str response_body(const Any& response, SourcePos pos);

// `r.json()` flowing into T: "http: json: not valid JSON at ..." or "http: json: field 'a.b':
// expected Float, found Str".
template <class T> Result<T, Str> json_as(const Any& response, SourcePos pos) {
  Str body = response_body(response, pos);
  http::JsonReader reader(body.data(), body.size());
  T out{};
  if (http::from_json(reader, &out)) return Result<T, Str>::ok(std::move(out));
  Str why = reader.error();
  std::string text = "http: json: ";
  text.append(why.data(), why.size());
  return Result<T, Str>::err(Str::from(text));
}

}  // namespace net
}  // namespace fitz
