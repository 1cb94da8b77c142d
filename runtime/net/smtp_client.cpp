// One SMTP session as an Asio coroutine bounded by one deadline (SMTP_TIMEOUT_MS, 30 s by
// default): replies are parsed by smtp_message.cpp, the stream is a TCP socket that may turn
// into TLS after STARTTLS.
#include "net/smtp_client.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <openssl/x509.h>
#include <unistd.h>

#include <chrono>
#include <optional>

namespace fitz::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using boost::system::error_code;

namespace {

struct SmtpSession {
  asio::io_context& ioc;
  SmtpSend job;
  std::chrono::steady_clock::time_point deadline;
  ssl::context tls{ssl::context::tls_client};
  std::optional<beast::tcp_stream> plain;
  std::optional<beast::ssl_stream<beast::tcp_stream>> secure;
  std::string inbuf;
  std::string error;  // set once; every step after a failure is skipped

  SmtpSession(asio::io_context& c, SmtpSend j) : ioc(c), job(std::move(j)) {
    error_code ec;
    tls.set_default_verify_paths(ec);
    tls.set_verify_mode(ssl::verify_peer);
    deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(job.config.timeout_ms);
  }
  beast::tcp_stream& lowest() { return secure ? beast::get_lowest_layer(*secure) : *plain; }

  void io_failed(const error_code& ec, const std::string& during) {
    if (!error.empty()) return;
    if (ec == beast::error::timeout)
      error = "smtp: timeout after " + std::to_string(job.config.timeout_ms) + " ms (" + during + ")";
    else if (ec == asio::error::eof || ec == asio::error::connection_reset)
      error = "smtp: the server closed the connection (" + during + ")";
    else
      error = "smtp: " + during + ": " + ec.message();
  }

  asio::awaitable<void> write(std::string text, std::string during) {
    if (!error.empty()) co_return;
    error_code ec;
    lowest().expires_at(deadline);
    if (secure)
      co_await asio::async_write(*secure, asio::buffer(text), asio::redirect_error(asio::use_awaitable, ec));
    else
      co_await asio::async_write(*plain, asio::buffer(text), asio::redirect_error(asio::use_awaitable, ec));
    if (ec) io_failed(ec, during);
  }

  asio::awaitable<SmtpReply> reply(std::string during) {
    SmtpReply r;
    while (error.empty()) {
      size_t used = parse_reply(inbuf, &r);
      if (used == SIZE_MAX) {
        error = "smtp: server rejected mail: unparsable reply (" + during + ")";
        break;
      }
      if (used > 0) {
        inbuf.erase(0, used);
        co_return r;
      }
      // read_some, not read_until "\n": a multi-line reply already has a "\n" buffered.
      error_code ec;
      char chunk[4096];
      size_t n = 0;
      lowest().expires_at(deadline);
      if (secure)
        n = co_await secure->async_read_some(asio::buffer(chunk), asio::redirect_error(asio::use_awaitable, ec));
      else
        n = co_await plain->async_read_some(asio::buffer(chunk), asio::redirect_error(asio::use_awaitable, ec));
      inbuf.append(chunk, n);
      if (ec) io_failed(ec, during);
    }
    co_return SmtpReply{};
  }

  // A command whose reply must have the expected code (or `also`). GCC 12 cannot pass an
  // initializer_list or a string literal into a coroutine parameter, hence ints and strings.
  asio::awaitable<SmtpReply> command(std::string line, int ok, int also, std::string during) {
    if (!line.empty()) co_await write(line + "\r\n", during);
    SmtpReply r = co_await reply(during);
    if (!error.empty()) co_return r;
    if (r.code == ok || (also && r.code == also)) co_return r;
    if (r.code >= 500) error = "smtp: permanent error: " + r.text();
    else if (r.code >= 400) error = "smtp: transient error: " + r.text();
    else error = "smtp: server rejected mail: unexpected reply to " + during + ": " + r.text();
    co_return r;
  }

  asio::awaitable<bool> handshake() {
    SSL* native = secure->native_handle();
    error_code ec;
    if (!is_ip(job.config.host)) SSL_set_tlsext_host_name(native, job.config.host.c_str());
    secure->set_verify_callback(ssl::host_name_verification(job.config.host));
    lowest().expires_at(deadline);
    co_await secure->async_handshake(ssl::stream_base::client, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      long verify = SSL_get_verify_result(native);
      if (ec == beast::error::timeout) io_failed(ec, std::string("TLS handshake"));
      else error = "smtp: TLS handshake failed: " + std::string(verify != X509_V_OK ? X509_verify_cert_error_string(verify) : ec.message());
      co_return false;
    }
    co_return true;
  }

  static bool is_ip(const std::string& h) {
    error_code ec;
    asio::ip::make_address(h, ec);
    return !ec;
  }

  static std::string ehlo_name() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0 || !name[0]) return "localhost";
    return name;
  }

  static bool offers(const SmtpReply& ehlo, std::string_view ext, std::string_view arg = {}) {
    for (const std::string& l : ehlo.lines) {
      std::string up;
      for (char c : l) up.push_back(c >= 'a' && c <= 'z' ? char(c - 32) : c);
      if (up.rfind(ext, 0) != 0) continue;
      if (arg.empty() || up.find(arg) != std::string::npos) return true;
    }
    return false;
  }

  asio::awaitable<std::string> run() {
    error_code ec;
    tcp::resolver resolver(ioc);
    auto results = co_await resolver.async_resolve(job.config.host, std::to_string(job.config.port),
                                                   asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return "smtp: cannot resolve `" + job.config.host + "`: " + ec.message();
    beast::tcp_stream stream(ioc);
    stream.expires_at(deadline);
    co_await stream.async_connect(results, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      io_failed(ec, std::string("connect"));
      co_return error;
    }
    if (job.config.tls == SmtpTls::Implicit) {
      secure.emplace(std::move(stream), tls);
      if (!co_await handshake()) co_return error;
    } else {
      plain.emplace(std::move(stream));
    }
    co_await command(std::string(), 220, 0, std::string("greeting"));
    std::string name = ehlo_name();
    SmtpReply ehlo = co_await command("EHLO " + name, 250, 0, std::string("EHLO"));
    if (!error.empty()) co_return error;
    if (job.config.tls == SmtpTls::StartTls) {
      if (!offers(ehlo, "STARTTLS")) co_return "smtp: the server does not offer STARTTLS (SMTP_TLS=starttls requires it)";
      co_await command(std::string("STARTTLS"), 220, 0, std::string("STARTTLS"));
      if (!error.empty()) co_return error;
      secure.emplace(std::move(*plain), tls);
      plain.reset();
      inbuf.clear();
      if (!co_await handshake()) co_return error;
      ehlo = co_await command("EHLO " + name, 250, 0, std::string("EHLO"));
    }
    if (!error.empty()) co_return error;
    if (!job.config.user.empty()) {
      if (!secure && job.config.tls != SmtpTls::None)
        co_return "smtp: refusing to send credentials without TLS (set SMTP_TLS=none to allow it)";
      if (offers(ehlo, "AUTH", "PLAIN") || !offers(ehlo, "AUTH", "LOGIN")) {
        std::string token = std::string(1, '\0') + job.config.user + std::string(1, '\0') + job.config.password;
        co_await command("AUTH PLAIN " + base64(token), 235, 0, std::string("AUTH PLAIN"));
      } else {
        co_await command(std::string("AUTH LOGIN"), 334, 0, std::string("AUTH LOGIN"));
        co_await command(base64(job.config.user), 334, 0, std::string("AUTH LOGIN"));
        co_await command(base64(job.config.password), 235, 0, std::string("AUTH LOGIN"));
      }
    }
    co_await command("MAIL FROM:<" + job.from + ">", 250, 0, std::string("MAIL FROM"));
    co_await command("RCPT TO:<" + job.to + ">", 250, 251, std::string("RCPT TO"));
    co_await command(std::string("DATA"), 354, 0, std::string("DATA"));
    co_await write(job.data + ".\r\n", std::string("DATA"));
    co_await command(std::string(), 250, 0, std::string("end of DATA"));
    if (!error.empty()) co_return error;
    co_await write(std::string("QUIT\r\n"), std::string("QUIT"));  // the mail is accepted; QUIT's answer changes nothing
    co_return std::string();
  }
};

}  // namespace

void smtp_send(asio::io_context& ioc, SmtpSend send, std::function<void(std::string)> done) {
  auto session = std::make_shared<SmtpSession>(ioc, std::move(send));
  asio::co_spawn(ioc, session->run(), [session, done = std::move(done)](std::exception_ptr e, std::string err) {
    if (e) err = "smtp: internal error";
    done(std::move(err));
  });
}

}  // namespace fitz::net
