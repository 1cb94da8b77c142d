// URL parsing, Location resolution, NO_PROXY matching and the redirect policy of the `http`
// client: the rules the end-to-end test can only reach one case at a time.
#include <gtest/gtest.h>

#include "net/client.h"
#include "net/url.h"

namespace fitz::net::test_support {
namespace {

Url net_url_of(const char* text) {
  UrlResult r = parse_url(text);
  EXPECT_TRUE(r.url.has_value()) << text << ": " << r.error;
  return r.url.value_or(Url{});
}

TEST(NetUrl, ParsesSchemeHostPortAndTarget) {
  Url u = net_url_of("HTTPS://API.Example.com:8443/v1/items?q=1#frag");
  EXPECT_EQ(u.scheme, "https");
  EXPECT_EQ(u.host, "api.example.com");
  EXPECT_EQ(u.port, 8443);
  EXPECT_EQ(u.target, "/v1/items?q=1");
  EXPECT_EQ(u.authority(), "api.example.com:8443");
  Url d = net_url_of("http://localhost");
  EXPECT_EQ(d.port, 80);
  EXPECT_EQ(d.target, "/");
  EXPECT_EQ(d.authority(), "localhost");
  Url q = net_url_of("http://h?x=1");
  EXPECT_EQ(q.target, "/?x=1");
  Url v6 = net_url_of("http://[::1]:9000/a");
  EXPECT_EQ(v6.host, "::1");
  EXPECT_EQ(v6.authority(), "[::1]:9000");
  Url cred = net_url_of("https://user:pw@h.io/");
  EXPECT_EQ(cred.userinfo, "user:pw");
  EXPECT_EQ(cred.host, "h.io");
}

TEST(NetUrl, RejectsWhatCannotBeSent) {
  EXPECT_EQ(parse_url("ftp://h/x").error, "unsupported scheme `ftp`");
  EXPECT_FALSE(parse_url("example.com/x").url);
  EXPECT_FALSE(parse_url("http:///x").url);
  EXPECT_FALSE(parse_url("http://h:0/").url);
  EXPECT_FALSE(parse_url("http://h:65536/").url);
  EXPECT_FALSE(parse_url("http://h:12a/").url);
  EXPECT_FALSE(parse_url("http://exa mple.com/").url);
  EXPECT_FALSE(parse_url("http://h/a\r\nX-Injected: 1").url);
  EXPECT_FALSE(parse_url("http://[::1/").url);
}

TEST(NetUrl, ResolvesLocations) {
  Url base = net_url_of("http://a.io:8080/dir/page?x=1");
  EXPECT_EQ(resolve_location(base, "/top").url->target, "/top");
  EXPECT_EQ(resolve_location(base, "next").url->target, "/dir/next");
  EXPECT_EQ(resolve_location(base, "?y=2").url->target, "/dir/page?y=2");
  Url other = *resolve_location(base, "https://b.io/z").url;
  EXPECT_EQ(other.host, "b.io");
  EXPECT_EQ(other.port, 443);
  Url scheme_relative = *resolve_location(base, "//c.io/w").url;
  EXPECT_EQ(scheme_relative.scheme, "http");
  EXPECT_EQ(scheme_relative.host, "c.io");
  EXPECT_EQ(resolve_location(base, "/p").url->port, 8080);
  EXPECT_FALSE(resolve_location(base, "gopher://x/").url);
}

TEST(NetProxy, HonoursNoProxy) {
  ProxyConfig c{"http://proxy:3128", "proxy2:8080", "localhost, .internal.io,10.0.0.1:8080"};
  auto p = proxy_for(c, net_url_of("http://api.example.com/"));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->host, "proxy");
  EXPECT_EQ(p->port, 3128);
  auto s = proxy_for(c, net_url_of("https://api.example.com/"));
  ASSERT_TRUE(s);  // a bare host:port is an http:// proxy
  EXPECT_EQ(s->host, "proxy2");
  EXPECT_EQ(s->scheme, "http");
  EXPECT_FALSE(proxy_for(c, net_url_of("http://localhost:9/")));
  EXPECT_FALSE(proxy_for(c, net_url_of("http://svc.internal.io/")));
  EXPECT_FALSE(proxy_for(c, net_url_of("http://internal.io/")));
  EXPECT_TRUE(proxy_for(c, net_url_of("http://notinternal.io/")));
  EXPECT_FALSE(proxy_for(c, net_url_of("http://10.0.0.1:8080/")));
  EXPECT_TRUE(proxy_for(c, net_url_of("http://10.0.0.1:8081/")));
  EXPECT_FALSE(proxy_for(ProxyConfig{"http://p:1", "", "*"}, net_url_of("http://x/")));
  EXPECT_FALSE(proxy_for(ProxyConfig{"http://p:1", "", ""}, net_url_of("https://x/")));
}

TEST(NetRedirect, MethodsBodiesAndCredentials) {
  for (int s : {301, 302, 303, 307, 308}) EXPECT_TRUE(is_redirect(s));
  for (int s : {200, 300, 304, 305, 400}) EXPECT_FALSE(is_redirect(s));
  EXPECT_EQ(redirect_step(302, "POST").method, "GET");
  EXPECT_FALSE(redirect_step(303, "PUT").keep_body);
  EXPECT_EQ(redirect_step(301, "HEAD").method, "HEAD");
  EXPECT_EQ(redirect_step(307, "POST").method, "POST");
  EXPECT_TRUE(redirect_step(308, "PUT").keep_body);
  Url a = net_url_of("https://a.io/x"), a2 = net_url_of("https://a.io/y"), b = net_url_of("https://b.io/x");
  EXPECT_TRUE(keeps_credentials(a, a2));
  EXPECT_FALSE(keeps_credentials(a, b));
  EXPECT_FALSE(keeps_credentials(a, net_url_of("http://a.io/x")));
  EXPECT_FALSE(keeps_credentials(a, net_url_of("https://a.io:444/x")));
  EXPECT_TRUE(is_credential_header("authorization"));
  EXPECT_TRUE(is_credential_header("cookie"));
  EXPECT_FALSE(is_credential_header("accept"));
}

TEST(NetUrl, ProxyCredentialsBecomeBasicAuthorization) {
  ProxyConfig c{"http://alice:p%40ss%3Aword@proxy:3128", "", ""};
  auto p = proxy_for(c, net_url_of("http://api.example.com/"));
  ASSERT_TRUE(p);
  // base64("alice:p@ss:word"): the user info is percent-decoded first.
  EXPECT_EQ(proxy_authorization(*p), "Basic YWxpY2U6cEBzczp3b3Jk");
  EXPECT_EQ(proxy_authorization(net_url_of("http://proxy:3128/")), "");
}

TEST(NetBodyText, ReplacesInvalidUtf8AndConvertsLatin1) {
  EXPECT_EQ(body_text("caf\xc3\xa9", "text/plain"), "caf\xc3\xa9");
  EXPECT_EQ(body_text("a\xff" "b", "text/plain"), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(body_text("caf\xe9", "text/plain; charset=ISO-8859-1"), "caf\xc3\xa9");
  EXPECT_EQ(body_text("\xed\xa0\x80", ""), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
}

}  // namespace
}  // namespace fitz::net::test_support
