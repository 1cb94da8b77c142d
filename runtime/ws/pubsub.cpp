// Broadcasts across replicas (FITZ_WS_PUBSUB=postgres): every broadcast is delivered to this
// process's clients directly and published with pg_notify on the channel `fitz_ws`; each
// replica LISTENs on one connection and delivers what other replicas published to its own
// clients. A notification payload is at most 8000 bytes, so a message travels base64-encoded
// in chunks that fit, and the receivers reassemble them (notifications of one session arrive in
// order). The Postgres work runs on a thread of its own with its own Asio loop; a lost
// connection is re-established every second, and broadcasts made while it is down reach this
// replica's clients only.
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <random>
#include <thread>

#include "pg/async_conn.h"
#include "pg/codecs.h"
#include "ws/internal.h"

namespace fitz::ws::detail {

namespace {

constexpr const char kChannel[] = "fitz_ws";
constexpr size_t kMaxPayload = 7900;         // under NOTIFY's 8000-byte limit, header included
constexpr int64_t kPartialTtlMs = 30000;      // an incomplete message is dropped after this
constexpr size_t kMaxPartials = 256;

const char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string b64_encode(std::string_view in) {
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t v = uint32_t(uint8_t(in[i])) << 16 | uint32_t(uint8_t(in[i + 1])) << 8 | uint8_t(in[i + 2]);
    out += kB64[v >> 18];
    out += kB64[(v >> 12) & 63];
    out += kB64[(v >> 6) & 63];
    out += kB64[v & 63];
  }
  if (i < in.size()) {
    uint32_t v = uint32_t(uint8_t(in[i])) << 16;
    if (i + 1 < in.size()) v |= uint32_t(uint8_t(in[i + 1])) << 8;
    out += kB64[v >> 18];
    out += kB64[(v >> 12) & 63];
    out += i + 1 < in.size() ? kB64[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

bool b64_decode(std::string_view in, std::string* out) {
  if (in.size() % 4) return false;
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  for (size_t i = 0; i < in.size(); i += 4) {
    int a = val(in[i]), b = val(in[i + 1]);
    if (a < 0 || b < 0) return false;
    uint32_t v = uint32_t(a) << 18 | uint32_t(b) << 12;
    int pad = 0;
    for (int k = 2; k < 4; ++k) {
      char c = in[i + k];
      if (c == '=') {
        if (i + 4 != in.size()) return false;
        ++pad;
        continue;
      }
      if (pad) return false;
      int x = val(c);
      if (x < 0) return false;
      v |= uint32_t(x) << (6 * (3 - k));
    }
    out->push_back(char(v >> 16));
    if (pad < 2) out->push_back(char((v >> 8) & 255));
    if (pad < 1) out->push_back(char(v & 255));
  }
  return true;
}

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void log_line(const char* level, const std::string& msg) {
  std::string line = std::string("{\"level\":\"") + level + "\",\"msg\":\"websocket pubsub: ";
  for (char c : msg) {
    if (c == '"' || c == '\\') line += '\\';
    if (uint8_t(c) < 0x20) continue;
    line += c;
  }
  line += "\"}\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace

// Wire format of one notification:  fz1 ORIGIN MSGID SEQ COUNT KIND PATHLEN PATH DATA
// (KIND t or b, PATH exactly PATHLEN bytes, DATA this chunk's base64).
struct PubSub::Impl {
  asio::io_context ioc;
  asio::executor_work_guard<asio::io_context::executor_type> work{ioc.get_executor()};
  asio::steady_timer timer{ioc};
  pg::ConnInfo info;
  Deliver deliver;
  int64_t max_bytes = 0;
  std::string origin;
  std::atomic<uint64_t> next_msg{1};
  std::shared_ptr<pg::AsyncConnection> conn;  // the loop thread only
  // Set when the loop has run out of work, so shutdown waits no longer than it has to.
  std::mutex ran_out_mutex;
  std::condition_variable ran_out_cv;
  bool ran_out = false;
  bool connecting = false, listening = false, warned = false;
  struct Partial {
    std::string path, data;
    bool binary = false;
    uint64_t next = 0, count = 0;
    int64_t at = 0;
  };
  std::unordered_map<std::string, Partial> partials;
  std::thread thread;

  void connect() {
    if (connecting) return;
    connecting = true;
    pg::AsyncConnection::connect(ioc, info, pg::AsyncOptions{}, [this](pg::Result<pg::AsyncConnection::Ptr> r) {
      connecting = false;
      if (!r) {
        if (!warned) log_line("warn", "cannot connect to Postgres (retrying every second): " + r.error().summary());
        warned = true;
        return;
      }
      conn = std::move(r).value();
      conn->on_notification([this](std::string_view channel, std::string_view payload) {
        if (channel == kChannel) receive(payload);
      });
      conn->simple_query(std::string("LISTEN ") + kChannel, [this](pg::Result<std::vector<pg::QueryResult>> q) {
        if (!q) {
          log_line("error", "LISTEN failed: " + q.error().summary());
          return;
        }
        // Said once per connection: until then this replica neither hears nor reaches the others.
        log_line("info", warned ? "connected again, listening" : "listening");
        listening = true;
        warned = false;
      });
    });
  }

  // Every second: reconnect when the connection is gone.
  void watch() {
    timer.expires_after(std::chrono::seconds(1));
    timer.async_wait([this](beast::error_code ec) {
      if (ec) return;
      if (conn && conn->is_broken()) {
        log_line("warn", "connection lost: " + std::string(conn->broken_error() ? conn->broken_error()->summary() : ""));
        warned = true;
        conn.reset();
        listening = false;
      }
      if (!conn) connect();
      int64_t now = now_ms();
      for (auto it = partials.begin(); it != partials.end();)
        it = now - it->second.at > kPartialTtlMs ? partials.erase(it) : std::next(it);
      watch();
    });
  }

  void send(std::vector<std::string> notes) {
    if (!conn || conn->is_broken()) return;  // this replica's clients got it already
    for (std::string& n : notes) {
      pg::Param params[2] = {pg::Param::text(kChannel), pg::Param::text(std::move(n))};
      conn->query("SELECT pg_notify($1, $2)", params, pg::QueryOptions{}, [](pg::Result<pg::QueryResult> r) {
        if (!r) log_line("error", "pg_notify failed: " + r.error().summary());
      });
    }
  }

  void receive(std::string_view payload) {
    // Header fields up to PATHLEN, then the path and the data.
    std::string_view rest = payload;
    std::string_view f[7];
    for (auto& field : f) {
      size_t sp = rest.find(' ');
      if (sp == std::string_view::npos) return;
      field = rest.substr(0, sp);
      rest.remove_prefix(sp + 1);
    }
    if (f[0] != "fz1" || f[1] == origin) return;  // another format, or this replica's own
    auto num = [](std::string_view s, uint64_t* out) {
      if (s.empty() || s.size() > 19) return false;
      uint64_t v = 0;
      for (char c : s) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + uint64_t(c - '0');
      }
      *out = v;
      return true;
    };
    uint64_t seq = 0, count = 0, plen = 0;
    if (!num(f[3], &seq) || !num(f[4], &count) || !num(f[6], &plen) || count == 0 || seq >= count) return;
    if (rest.size() < plen + 1 || rest[plen] != ' ') return;
    std::string path(rest.substr(0, plen));
    std::string_view data = rest.substr(plen + 1);
    bool binary = f[5] == "b";
    std::string key = std::string(f[1]) + ":" + std::string(f[2]);
    Partial* p = nullptr;
    if (count > 1 || seq > 0) {
      auto it = partials.find(key);
      if (seq == 0) {
        if (partials.size() >= kMaxPartials) return;
        p = &partials[key];
        *p = Partial{path, {}, binary, 0, count, now_ms()};
      } else if (it == partials.end() || it->second.next != seq || it->second.count != count) {
        if (it != partials.end()) partials.erase(it);  // a chunk went missing
        return;
      } else {
        p = &it->second;
      }
    }
    std::string bytes;
    if (!b64_decode(data, &bytes)) {
      if (p) partials.erase(key);
      return;
    }
    if (p) {
      if (int64_t(p->data.size() + bytes.size()) > max_bytes) {
        partials.erase(key);
        return;
      }
      p->data += bytes;
      if (++p->next < p->count) return;
      bytes = std::move(p->data);
      path = std::move(p->path);
      binary = p->binary;
      partials.erase(key);
    }
    auto out = std::make_shared<Payload>();
    out->data = std::move(bytes);
    out->binary = binary;
    deliver(path, std::move(out));
  }
};

PubSub::PubSub(pg::ConnInfo info, int64_t max_bytes, Deliver deliver) : impl_(std::make_unique<Impl>()) {
  impl_->info = std::move(info);
  impl_->deliver = std::move(deliver);
  impl_->max_bytes = max_bytes;
  std::random_device rd;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%08x%08x", rd(), rd());
  impl_->origin = buf;
  Impl* im = impl_.get();
  asio::post(im->ioc, [im] {
    im->connect();
    im->watch();
  });
  impl_->thread = std::thread([im] {
    im->ioc.run();
    std::lock_guard<std::mutex> lock(im->ran_out_mutex);
    im->ran_out = true;
    im->ran_out_cv.notify_all();
  });
}

PubSub::~PubSub() {
  Impl* im = impl_.get();
  asio::post(im->ioc, [im] {
    im->timer.cancel();
    if (im->conn) im->conn->close();
    im->conn.reset();
    im->work.reset();
  });
  // Whatever is still pending after half a second is abandoned: nothing waits on it. A loop
  // that runs out of work before then (the usual case) ends the wait at once.
  std::thread stopper([im] {
    std::unique_lock<std::mutex> lock(im->ran_out_mutex);
    if (!im->ran_out_cv.wait_for(lock, std::chrono::milliseconds(500), [im] { return im->ran_out; })) im->ioc.stop();
  });
  if (im->thread.joinable()) im->thread.join();
  stopper.join();
}

bool PubSub::publish(const Str& path, const PayloadPtr& p) {
  if (int64_t(p->data.size()) > impl_->max_bytes) return false;
  std::string data = b64_encode(p->data);
  uint64_t msg = impl_->next_msg.fetch_add(1);
  std::string head_tail = std::string(p->binary ? "b " : "t ") + std::to_string(path.size()) + " " +
                          std::string(path.data(), path.size()) + " ";
  // The header is at most ~60 bytes beside the path; chunks are whole base64 quads.
  size_t room = kMaxPayload > head_tail.size() + 80 ? kMaxPayload - head_tail.size() - 80 : 0;
  room -= room % 4;
  if (room == 0) return false;
  size_t count = data.empty() ? 1 : (data.size() + room - 1) / room;
  std::vector<std::string> notes;
  notes.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    std::string n = "fz1 " + impl_->origin + " " + std::to_string(msg) + " " + std::to_string(i) + " " +
                    std::to_string(count) + " " + head_tail;
    n.append(data, i * room, room);
    notes.push_back(std::move(n));
  }
  Impl* im = impl_.get();
  asio::post(im->ioc, [im, notes = std::move(notes)]() mutable { im->send(std::move(notes)); });
  return true;
}

Str configure_pubsub(HubState& st) {
  const char* mode = std::getenv("FITZ_WS_PUBSUB");
  if (!mode || !*mode || std::strcmp(mode, "none") == 0) return Str();
  if (std::strcmp(mode, "postgres") != 0)
    return Str((std::string("FITZ_WS_PUBSUB must be `postgres` or `none`, not `") + mode + "`").c_str());
  const char* url = std::getenv("FITZ_WS_PUBSUB_URL");
  if (!url || !*url) url = std::getenv("DATABASE_URL");
  if (!url || !*url) return Str::lit("FITZ_WS_PUBSUB=postgres needs FITZ_WS_PUBSUB_URL (or DATABASE_URL)");
  auto info = pg::parse_conninfo(url);
  if (!info) return Str(("FITZ_WS_PUBSUB_URL: " + info.error().message).c_str());
  HubState* s = &st;
  st.pubsub = std::make_unique<PubSub>(std::move(info).value(), st.cfg.max_outbox_bytes,
                                       [s](const std::string& path, PayloadPtr p) {
                                         if (path.rfind("relay:", 0) == 0) {
                                           size_t colon = path.find(':', 6);
                                           if (colon == std::string::npos) return;
                                           Hub::RelayFn fn;
                                           {
                                             std::lock_guard<std::mutex> lock(s->relays_mu);
                                             auto it = s->relays.find(path.substr(6, colon - 6));
                                             if (it == s->relays.end()) return;
                                             fn = it->second;
                                           }
                                           fn(path.substr(colon + 1), p->data);
                                           return;
                                         }
                                         if (Endpoint* e = s->find(path.c_str())) broadcast(*e, std::move(p));
                                       });
  return Str();
}

}  // namespace fitz::ws::detail
