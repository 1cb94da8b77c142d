// fitz_live_test_server: the real HTTP and WebSocket runtimes with live views mounted, for the
// browser tests (tests/browser/test/server.test.js). Serves `/` (a Counter) and `/text` (a
// Text view showing a hostile string and a javascript: link), `/clock` (a Clock ticking every
// second), `/chat?room=R&name=N[&track=0]` (a Chat room) and `/metrics` (with the
// `fitz_live_active_timers` gauge), and prints "listening PORT" once accepting on an ephemeral
// port of 127.0.0.1.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fitz/http/cookies.h"
#include "fitz/live/server.h"
#include "test_views.h"

using namespace fitz;

namespace {

// FITZ_LIVE_TEST_HB_MS: the client's heartbeat, for tests that shorten the presence timeout.
std::string page(const std::string& title, const std::string& root) {
  const char* hb = std::getenv("FITZ_LIVE_TEST_HB_MS");
  std::string hb_attr = hb ? " data-fz-hb=\"" + std::to_string(std::atoi(hb)) + "\"" : "";
  return "<!doctype html><html><head><meta charset=\"utf-8\"><title>" + title +
         "</title><script src=\"/_fitz/live.js?v=" + std::string(live::client_script_hash()) + "\"" + hb_attr +
         " defer></script></head><body>" + root + "</body></html>";
}

std::unique_ptr<live::View> make_chat(std::string_view props, std::string* error) {
  http::JsonReader r(props.data(), props.size());
  std::string room, name;
  bool track = true;
  http::Text key;
  bool ok = r.begin_object();
  while (ok && r.next_key(&key)) {
    Str v;
    if (key == http::Text("room") && (ok = r.read_str(&v))) room = v.as<std::string>();
    else if (key == http::Text("name") && (ok = r.read_str(&v))) name = v.as<std::string>();
    else if (key == http::Text("track")) ok = r.read_bool(&track);
    else if (ok) ok = r.skip_value();
  }
  if (!ok || !r.ok()) {
    *error = "Chat props: " + r.error().as<std::string>();
    return nullptr;
  }
  return std::make_unique<live::testing::Chat>(std::move(room), std::move(name), track);
}

std::string query_param(const http::Request& req, const char* name, const char* fallback) {
  Nullable<Str> v = req.query(http::Text(name, std::strlen(name)));
  return v.is_null() ? std::string(fallback) : v.value().as<std::string>();
}

// The test's notion of a user: the plain `uid` cookie (a real app verifies a signed session),
// as the JSON string the runtime expects.
std::string user_of(std::string_view cookie_header) {
  std::vector<http::CookiePair> pairs;
  http::parse_cookie_header(http::Text(cookie_header.data(), cookie_header.size()), &pairs);
  for (const http::CookiePair& p : pairs)
    if (p.name == http::Text("uid")) {
      Str json = http::to_json(p.value.str());
      return json.as<std::string>();
    }
  return "";
}

std::unique_ptr<live::View> make_text(std::string_view props, std::string* error) {
  http::JsonReader r(props.data(), props.size());
  std::string text, url;
  http::Text key;
  bool ok = r.begin_object();
  while (ok && r.next_key(&key)) {
    Str v;
    if (key == http::Text("text") && r.read_str(&v)) text = v.as<std::string>();
    else if (key == http::Text("url") && r.read_str(&v)) url = v.as<std::string>();
    else ok = r.skip_value();
  }
  if (!ok) {
    *error = "TextView props: " + r.error().as<std::string>();
    return nullptr;
  }
  return std::make_unique<live::testing::TextView>(std::move(text), std::move(url));
}

}  // namespace

// FITZ_LIVE_TEST_PORT (default: any free port) and FITZ_LIVE_TEST_BUILD (the build id) let a
// test restart the server as a rebuilt one, on the same port, with a per-process key as in dev.
// FITZ_LIVE_PRESENCE_TIMEOUT_MS shortens the heartbeat silence that drops presence.
int main() {
  const char* port = std::getenv("FITZ_LIVE_TEST_PORT");
  const char* build = std::getenv("FITZ_LIVE_TEST_BUILD");
  http::ServerConfig config;
  config.port = port ? std::atoi(port) : 0;
  config.banner = false;
  config.access_log = false;
  config.threads = 2;
  config.prometheus = true;  // /metrics: fitz_live_active_timers
  http::App app(config);
  ws::Hub hub(app);

  live::ViewRegistry views;
  views.add("Counter", [](std::string_view, std::string*) { return std::make_unique<live::testing::Counter>(); });
  views.add("TextView", make_text);
  views.add("Clock", [](std::string_view, std::string*) { return std::make_unique<live::testing::Clock>(); });
  views.add("Chat", make_chat);
  views.add("Saver", [](std::string_view, std::string*) { return std::make_unique<live::testing::Saver>(); });
  live::LiveConfig lc;
  lc.key = build ? live::TokenKey::random() : live::TokenKey::derive("fitz live test server secret");
  if (build) lc.build_id = build;
  if (const char* t = std::getenv("FITZ_LIVE_PRESENCE_TIMEOUT_MS")) lc.presence_timeout_ms = std::atoll(t);
  lc.user_of = user_of;
  std::shared_ptr<live::Live> lv = live::mount(app, hub, views, lc);

  auto serve = [lv](http::Request& req, const char* title, const char* view, std::string props) {
    std::string error;
    std::string root = lv->render_root(req, view, props, &error);
    if (root.empty()) return http::Response::error(500, http::Text(error.data(), error.size()));
    return http::Response::text(200, Str::from(page(title, root)), Str::lit("text/html; charset=utf-8"));
  };
  app.get("/", [serve](http::Request& req) { return serve(req, "Counter", "Counter", "{}"); });
  app.get("/text", [serve](http::Request& req) {
    std::string props = "{\"text\":" + http::to_json(Str::lit("\"><img src=x onerror=alert(1)>")).as<std::string>() +
                        ",\"url\":\"javascript:alert(1)\"}";
    return serve(req, "Text", "TextView", props);
  });

  // Two roots on one page, so one socket: a slow async save beside a counter.
  app.get("/two", [lv](http::Request& req) {
    std::string error;
    std::string roots = lv->render_root(req, "Saver", "{}", &error, "fz-1") + lv->render_root(req, "Counter", "{}", &error, "fz-2");
    if (!error.empty()) return http::Response::error(500, http::Text(error.data(), error.size()));
    return http::Response::text(200, Str::from(page("Two", roots)), Str::lit("text/html; charset=utf-8"));
  });
  app.get("/clock", [serve](http::Request& req) { return serve(req, "Clock", "Clock", "{}"); });
  app.get("/chat", [serve](http::Request& req) {
    std::string props = "{\"room\":" + http::to_json(Str::from(query_param(req, "room", "lobby"))).as<std::string>() +
                        ",\"name\":" + http::to_json(Str::from(query_param(req, "name", "anon"))).as<std::string>() +
                        ",\"track\":" + (query_param(req, "track", "1") == "0" ? "false" : "true") + "}";
    return serve(req, "Chat", "Chat", props);
  });

  if (Str e = hub.configure_from_env(); !e.empty()) {
    std::fprintf(stderr, "fitz_live_test_server: %.*s\n", static_cast<int>(e.size()), e.data());
    return 1;
  }

  Str error;
  if (!app.start(&error)) {
    std::fprintf(stderr, "fitz_live_test_server: %.*s\n", static_cast<int>(error.size()), error.data());
    return 1;
  }
  std::printf("listening %d\n", app.port());
  std::fflush(stdout);
  app.wait();
  return 0;
}
