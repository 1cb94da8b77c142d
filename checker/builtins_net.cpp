// The `http` rows of the built-in table (spec: stdlib.md §1): the module, its calls and the
// typed response. builtins.cpp appends them to its own rows, so checker, hover, completion and
// codegen read them like any other built-in.
#include "checker/builtins.h"

namespace fitz::checker {

namespace {

using R = BuiltinRule;

// clang-format off
const std::vector<BuiltinEntry>& net_entries() {
  static const std::vector<BuiltinEntry> rows = {
  {"HttpModule", "get", "(url: Str, headers?: Map<Str, Str>, timeout_ms?: Int) -> Future<Result<HttpClientResponse>>", "Sends a GET. A 4xx/5xx answer is `Ok`; only transport failures are `Err` (\"http: timeout calling ...\", \"http: could not connect to ...\", ...). One total deadline (`timeout_ms`, default 30000); redirects followed (at most 10).", true, false, "fitz_http_get"},
  {"HttpModule", "head", "(url: Str, headers?: Map<Str, Str>, timeout_ms?: Int) -> Future<Result<HttpClientResponse>>", "Sends a HEAD; the response body is \"\".", true, false, "fitz_http_head"},
  {"HttpModule", "delete", "(url: Str, headers?: Map<Str, Str>, timeout_ms?: Int) -> Future<Result<HttpClientResponse>>", "Sends a DELETE.", true, false, "fitz_http_delete"},
  {"HttpModule", "post", "(url: Str, body: B, headers?: Map<Str, Str>, timeout_ms?: Int) -> Future<Result<HttpClientResponse>>", "Sends a POST. A `Str` or `Bytes` body goes as is; anything else is sent as JSON with `Content-Type: application/json` (unless `headers` sets one).", true, false, "fitz_http_post", R::HttpBody},
  {"HttpModule", "put", "(url: Str, body: B, headers?: Map<Str, Str>, timeout_ms?: Int) -> Future<Result<HttpClientResponse>>", "Sends a PUT (body as for `post`).", true, false, "fitz_http_put", R::HttpBody},
  {"HttpModule", "request", "(method: Str, url: Str, headers?: Map<Str, Str>, body?: B, timeout_ms?: Int, follow_redirects?: Bool) -> Future<Result<HttpClientResponse>>", "Sends any method; `follow_redirects: false` gives a 3xx back as `Ok` with its `location` header.", true, false, "fitz_http_request", R::HttpBody},
  {"HttpModule", "request", "(opts: Map<Str, Any>) -> Future<Result<HttpClientResponse>>", "The map form: `method` and `url` (required), `headers`, `body`, `timeout_ms`, `follow_redirects`; a literal map is checked at compile time.", true, false, "fitz_http_request_map", R::HttpOptions},
  {"SmtpModule", "send", "(to: Str, subject: Str, body?: Str, body_text?: Str, body_html?: Str, from?: Str) -> Future<Result<SmtpResult>>", "Sends one mail to one mailbox (`\"Ana <a@x.io>\"` accepted) through SMTP_HOST (SMTP_PORT, SMTP_TLS starttls/implicit/none, SMTP_USER + SMTP_PASSWORD, SMTP_FROM, SMTP_TIMEOUT_MS). Text and HTML together go as multipart/alternative. Err(\"smtp: transient error: ...\") for a 4xx, \"smtp: permanent error: ...\" for a 5xx.", true, false, "fitz_smtp_send"},
  {"SmtpModule", "send", "(opts: Map<Str, Str>) -> Future<Result<SmtpResult>>", "The map form: `to`, `subject` (required), `body`/`body_text`, `body_html`, `from`; a literal map is checked at compile time.", true, false, "fitz_smtp_send_map", R::SmtpOptions},
  {"Response", "set_cookie", "(name: Str, value: Str, max_age_secs?: Int, http_only?: Bool, secure?: Bool, same_site?: Str, path?: Str, signed?: Bool) -> Response", "Adds a `Set-Cookie` header and returns the response (each cookie its own header). Defaults: no `Max-Age` (a session cookie), `http_only: true`, `secure: true`, `same_site: \"Lax\"` (or \"Strict\", \"None\", which needs `secure`), `path: \"/\"`. The value is percent-encoded where a cookie cannot hold a byte, and `@cookie` decodes it. `signed: true` appends an HMAC-SHA256 signature under `FITZ_SECRET_KEY` (a runtime error when it is unset). A name that is not a token is a runtime error.", false, true, "fitz_response_set_cookie", R::CookieOptions},
  {"Response", "clear_cookie", "(name: Str, path?: Str) -> Response", "Adds a `Set-Cookie` that deletes the cookie (`Max-Age=0`, an epoch `Expires`) at `path` (default `\"/\"`, which must match the path it was set with), and returns the response.", false, true, "fitz_response_clear_cookie", R::CookieOptions},
  {"HttpClientResponse", "ok", "() -> Bool", "Whether the status is 2xx.", false, false, "fitz_http_response_ok"},
  {"HttpClientResponse", "header", "(name: Str) -> Str?", "A response header by name (case-insensitive), or null.", false, false, "fitz_http_response_header"},
  {"HttpClientResponse", "body_bytes", "() -> Bytes", "The body exactly as received.", false, false, "fitz_http_response_body_bytes"},
  {"HttpClientResponse", "json", "() -> Result<T>", "The body decoded as the declared type it flows into (`let q: Quote = r.json()?`), with the request-body decoder: Err(\"http: json: field 'price': expected Float, found Str\").", false, false, "fitz_http_response_json", R::JsonTarget},
  };
  return rows;
}
// clang-format on

}  // namespace

const std::vector<BuiltinEntry>& net_builtin_entries() { return net_entries(); }

}  // namespace fitz::checker
