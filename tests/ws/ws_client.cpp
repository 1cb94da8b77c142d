// fitz_ws_client: a scriptable WebSocket client for the end-to-end tests of compiled services
// (tests/e2e/ws.sh). Every read and write has a socket timeout, so a server bug fails a test
// instead of hanging it.
//
//   fitz_ws_client PORT PATH [options] STEP...      one connection, steps in order
//     options: --protocol P (Sec-WebSocket-Protocol offer), --auth V (Authorization header)
//     steps:   send:TEXT  big:N (a JSON message of N bytes)  bin:TEXT (a binary frame)  recv (prints "text ..." / "binary ..." /
//              "closed CODE")  close  raw:HEX (bytes written as is, e.g. a malformed frame)
//              sleep:MS  closed (reads until the end, prints "closed CODE")
//   An upgrade the server refuses prints "http STATUS" and exits 0.
//
//   fitz_ws_client fanout PORT PATH CLIENTS MESSAGES BYTES
//     CLIENTS connections to PATH; the first sends MESSAGES text messages of about BYTES bytes
//     (a JSON {"text": ...}); the endpoint is expected to broadcast each to every client. Prints
//     deliveries, seconds and messages/second once every client received every message.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "../unit/ws/client.h"

using namespace fitz::ws::test_support;

namespace {

std::string unhex(const std::string& h) {
  std::string out;
  for (size_t i = 0; i + 1 < h.size(); i += 2) out += char(std::strtol(h.substr(i, 2).c_str(), nullptr, 16));
  return out;
}

int one(int port, const std::string& path, int argc, char** argv, int i) {
  std::string protocol, auth;
  for (; i + 1 < argc; i += 2) {
    std::string o = argv[i];
    if (o == "--protocol") protocol = argv[i + 1];
    else if (o == "--auth") auth = argv[i + 1];
    else break;
  }
  Client c;
  if (!c.connect(port, path, protocol, auth, 10000)) {
    if (c.handshake_status) {
      std::printf("http %d\n", c.handshake_status);
      return 0;
    }
    std::printf("connect failed: %s\n", c.handshake_error.message().c_str());
    return 1;
  }
  if (!c.accepted_protocol.empty()) std::printf("protocol %s\n", c.accepted_protocol.c_str());
  for (; i < argc; ++i) {
    std::string step = argv[i];
    if (step.rfind("send:", 0) == 0) {
      if (!c.send_text(step.substr(5))) std::printf("send failed\n");
    } else if (step.rfind("big:", 0) == 0) {
      // A JSON message of N bytes: {"text":"xxx..."}
      size_t n = size_t(std::atol(step.c_str() + 4));
      std::string m = "{\"text\":\"" + std::string(n > 12 ? n - 12 : 1, 'x') + "\"}";
      if (!c.send_text(m)) std::printf("send failed\n");
    } else if (step.rfind("bin:", 0) == 0) {
      if (!c.send_binary(step.substr(4))) std::printf("send failed\n");
    } else if (step == "recv") {
      std::string s;
      bool binary = false;
      if (c.read(&s, &binary)) {
        if (s.size() > 200) s = s.substr(0, 60) + "...(" + std::to_string(s.size()) + " bytes)";
        std::printf("%s %s\n", binary ? "binary" : "text", s.c_str());
      }
      else
        std::printf("closed %d\n", int(c.ws.reason().code));
    } else if (step == "closed") {
      std::printf("closed %d\n", c.read_until_closed());
    } else if (step == "close") {
      beast::error_code ec;
      c.ws.close(bws::close_code::normal, ec);
    } else if (step.rfind("raw:", 0) == 0) {
      std::string bytes = unhex(step.substr(4));
      beast::error_code ec;
      asio::write(c.ws.next_layer(), asio::buffer(bytes), ec);
    } else if (step.rfind("sleep:", 0) == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(step.c_str() + 6)));
    } else {
      std::fprintf(stderr, "unknown step %s\n", step.c_str());
      return 2;
    }
    std::fflush(stdout);
  }
  return 0;
}

// Every client reads on its own thread; the first also sends.
int fanout(int port, const std::string& path, int clients, int messages, int bytes) {
  std::vector<std::unique_ptr<Client>> cs;
  for (int i = 0; i < clients; ++i) {
    auto c = std::make_unique<Client>();
    if (!c->connect(port, path, "", "", 30000)) {
      std::printf("connect %d failed\n", i);
      return 1;
    }
    cs.push_back(std::move(c));
  }
  std::string text(size_t(std::max(bytes - 12, 1)), 'x');
  std::string msg = "{\"text\":\"" + text + "\"}";
  std::vector<int> got(size_t(clients), 0);
  std::vector<std::thread> readers;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < clients; ++i)
    readers.emplace_back([&, i] {
      std::string s;
      while (got[size_t(i)] < messages && cs[size_t(i)]->read(&s)) ++got[size_t(i)];
    });
  for (int m = 0; m < messages; ++m)
    if (!cs[0]->send_text(msg)) break;
  for (auto& t : readers) t.join();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  long total = 0;
  for (int g : got) total += g;
  std::printf("deliveries %ld of %ld seconds %.3f messages_per_second %.0f\n", total, long(clients) * messages, secs,
              double(total) / secs);
  return total == long(clients) * messages ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 7 && std::string(argv[1]) == "fanout")
    return fanout(std::atoi(argv[2]), argv[3], std::atoi(argv[4]), std::atoi(argv[5]), std::atoi(argv[6]));
  if (argc < 3) {
    std::fprintf(stderr, "usage: fitz_ws_client PORT PATH [--protocol P] [--auth V] STEP...\n"
                         "       fitz_ws_client fanout PORT PATH CLIENTS MESSAGES BYTES\n");
    return 2;
  }
  return one(std::atoi(argv[1]), argv[2], argc, argv, 3);
}
