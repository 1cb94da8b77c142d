// Opening an AsyncConnection: for each server of the host list in turn, resolve, connect with a
// deadline (TCP_NODELAY on TCP), the SSLRequest and TLS handshake that sslmode asks for, the
// startup state machine until ReadyForQuery, then the target_session_attrs check; the first
// server that fits wins. Also the cancel request, which opens a second short-lived socket.
#include <netinet/in.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include "pg/async_conn.h"
#include "pg/host_failures.h"
#include "pg/session_attrs.h"
#include "pg/transport.h"

namespace fitz::pg {

namespace asio = boost::asio;
using asio::ip::tcp;
constexpr auto kAwait = asio::as_tuple(asio::use_awaitable);

namespace {

bool requires_tls(SslMode mode) {
  return mode == SslMode::Require || mode == SslMode::VerifyCa || mode == SslMode::VerifyFull;
}

// Connects the transport's socket (no TLS yet). `timed_out` is set by the caller's deadline
// timer, which closes the socket and so aborts whichever step is running.
asio::awaitable<Status> open_socket(Transport& t, const ConnInfo& info, const bool& timed_out,
                                    std::chrono::milliseconds timeout) {
  auto fail = [&](const boost::system::error_code& ec) -> Status {
    if (timed_out)
      return Error::connect("could not connect to " + info.where() + ": timed out after " +
                           std::to_string(timeout.count()) + " ms");
    return Error::connect("could not connect to " + info.where() + ": " + ec.message());
  };
  if (info.is_unix_socket()) {
    t.is_unix = true;
    auto [ec] = co_await t.unix_socket.async_connect(asio::local::stream_protocol::endpoint(info.unix_socket_path()),
                                                     kAwait);
    if (ec) co_return fail(ec);
    co_return Status{};
  }
  tcp::resolver resolver(t.tcp.get_executor());
  auto [rec, endpoints] = co_await resolver.async_resolve(info.host, std::to_string(info.port), kAwait);
  if (rec) {
    if (timed_out) co_return fail(rec);
    co_return Error::connect("could not resolve \"" + info.host + "\": " + rec.message());
  }
  auto [ec, endpoint] = co_await asio::async_connect(t.tcp, endpoints, kAwait);
  if (ec) co_return fail(ec);
  boost::system::error_code opt;
  t.tcp.set_option(tcp::no_delay(true), opt);
  co_return Status{};
}

template <class Stream>
asio::awaitable<boost::system::error_code> write_all(Stream& s, const std::string& bytes) {
  auto [ec, n] = co_await asio::async_write(s, asio::buffer(bytes), kAwait);
  co_return ec;
}

bool is_ip_literal(const std::string& host) {
  boost::system::error_code ec;
  asio::ip::make_address(host, ec);
  return !ec;
}

}  // namespace

// Runs the whole connect sequence as one coroutine on the connection's io_context.
class Connector {
 public:
  // One server: the socket, TLS, startup, and the check that the session is what `want` asks.
  static asio::awaitable<Status> run(std::shared_ptr<AsyncConnection> conn, std::shared_ptr<bool> timed_out,
                                     std::chrono::milliseconds timeout, TargetSessionAttrs want) {
    AsyncConnection& c = *conn;
    Transport& t = *c.transport_;
    const ConnInfo& info = c.info_;
    if (auto s = co_await open_socket(t, info, *timed_out, timeout); !s) co_return s;

    auto io_fail = [&](const boost::system::error_code& ec, std::string_view during) -> Status {
      if (*timed_out)
        return Error::connect("connecting to " + info.where() + " timed out after " + std::to_string(timeout.count()) +
                             " ms (" + std::string(during) + ")");
      return Error::connect("connection to " + info.where() + " failed " + std::string(during) + ": " + ec.message());
    };

    // TLS: the SSLRequest is answered with one byte, 'S' (go ahead) or 'N' (no TLS here).
    bool want_tls = requires_tls(info.sslmode) || info.sslmode == SslMode::Prefer;
    if (want_tls && !t.is_unix) {
      std::string request;
      encode_ssl_request(request);
      if (auto ec = co_await write_all(t.tcp, request)) co_return io_fail(ec, "sending the SSL request");
      char answer = 0;
      auto [ec, n] = co_await asio::async_read(t.tcp, asio::buffer(&answer, 1), kAwait);
      if (ec) co_return io_fail(ec, "waiting for the answer to the SSL request");
      if (answer == 'S') {
        namespace ssl = asio::ssl;
        t.tls_context = std::make_unique<ssl::context>(ssl::context::tls_client);
        t.tls_context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                                   ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
        bool verify = info.sslmode == SslMode::VerifyCa || info.sslmode == SslMode::VerifyFull;
        if (verify) {
          boost::system::error_code vec;
          t.tls_context->set_verify_mode(ssl::verify_peer, vec);
          if (!info.sslrootcert.empty())
            t.tls_context->load_verify_file(info.sslrootcert, vec);
          else
            t.tls_context->set_default_verify_paths(vec);
          if (vec)
            co_return Error::make(ErrorKind::Config, sqlstate::kUnableToConnect,
                                  "cannot load the root certificates" +
                                      (info.sslrootcert.empty() ? std::string() : " from " + info.sslrootcert) + ": " +
                                      vec.message());
        } else {
          t.tls_context->set_verify_mode(ssl::verify_none);
        }
        t.tls = std::make_unique<ssl::stream<tcp::socket&>>(t.tcp, *t.tls_context);
        if (info.sslmode == SslMode::VerifyFull) t.tls->set_verify_callback(ssl::host_name_verification(info.host));
        if (!is_ip_literal(info.host)) SSL_set_tlsext_host_name(t.tls->native_handle(), info.host.c_str());
        auto [hec] = co_await t.tls->async_handshake(ssl::stream_base::client, kAwait);
        if (hec) co_return io_fail(hec, "during the TLS handshake");
      } else if (answer == 'N') {
        if (requires_tls(info.sslmode))
          co_return Error::make(ErrorKind::Io, sqlstate::kUnableToConnect,
                                "sslmode=" + std::string(ssl_mode_name(info.sslmode)) + " but the server at " +
                                    info.where() + " does not accept TLS connections");
      } else {
        co_return Error::protocol("unexpected answer to the SSL request (byte " +
                                  std::to_string(static_cast<unsigned char>(answer)) + ")");
      }
    } else if (requires_tls(info.sslmode)) {
      co_return Error::make(ErrorKind::Config, sqlstate::kUnableToConnect,
                            "sslmode=" + std::string(ssl_mode_name(info.sslmode)) + " cannot be used over a Unix socket");
    }

    // Startup and authentication.
    StartupFlow flow(StartupConfig::from(info));
    std::string out;
    if (auto s = flow.start(out); !s) co_return s;
    if (auto s = co_await drive(c, flow, out, *timed_out, timeout, "startup"); !s) co_return s;
    if (!flow.ready()) co_return flow.error() ? *flow.error() : Error::protocol("startup did not complete");
    c.session_ = flow.take_session();

    // target_session_attrs: from the parameters the server reported, or by asking it.
    SessionCheck check = check_session(want, c.session_);
    if (check.verdict == SessionCheck::Verdict::NeedsQuery) {
      SimpleQuery query(check.query);
      out.clear();
      if (auto s = query.start(out); !s) co_return s;
      if (auto s = co_await drive(c, query, out, *timed_out, timeout, "the session check"); !s) co_return s;
      auto results = query.take_results();
      if (!results) co_return std::move(results).error();
      std::optional<std::string_view> value;
      if (!results->empty() && results->front().rows.size() == 1 && results->front().columns.size() == 1)
        value = results->front().rows.value(0, 0);
      if (!value) co_return Error::protocol("unexpected answer to \"" + std::string(check.query) + "\"");
      check = check_session_answer(want, *value);
    }
    if (check.rejected()) co_return Error::make(ErrorKind::Io, sqlstate::kUnableToConnect, check.reason);
    co_return Status{};
  }

  // Feeds the messages of one flow (startup, a simple query) until it is done, writing what it
  // produces.
  template <class Flow>
  static asio::awaitable<Status> drive(AsyncConnection& c, Flow& flow, std::string& out, const bool& timed_out,
                                       std::chrono::milliseconds timeout, std::string_view during) {
    Transport& t = *c.transport_;
    const ConnInfo& info = c.info_;
    auto io_fail = [&](const boost::system::error_code& ec, std::string_view step) -> Status {
      if (timed_out)
        return Error::connect("connecting to " + info.where() + " timed out after " + std::to_string(timeout.count()) +
                             " ms (" + std::string(step) + ")");
      return Error::connect("connection to " + info.where() + " failed " + std::string(step) + ": " + ec.message());
    };
    while (!flow.done()) {
      if (!out.empty()) {
        auto ec = co_await t.visit([&](auto& s) { return write_all(s, out); });
        if (ec) co_return io_fail(ec, "during " + std::string(during));
        out.clear();
      }
      auto message = c.reader_.next();
      if (!message) co_return std::move(message).error();
      if (!*message) {
        auto space = c.reader_.prepare(8192);
        auto [ec, n] = co_await t.visit(
            [&](auto& s) { return s.async_read_some(asio::buffer(space.data(), space.size()), kAwait); });
        if (ec) {
          if (ec == asio::error::eof && !timed_out)
            co_return Error::connect("the server at " + info.where() + " closed the connection during " +
                                     std::string(during));
          co_return io_fail(ec, "during " + std::string(during));
        }
        c.reader_.commit(n);
        continue;
      }
      if (const auto* param = std::get_if<ParameterStatus>(&**message))
        c.session_.parameters[std::string(param->name)] = std::string(param->value);
      if (auto s = flow.on_message(**message, out); !s) co_return s;
    }
    co_return Status{};
  }

  // Tries the servers in order (each with its own connect timeout, as libpq) until one opens
  // a session that fits target_session_attrs.
  static asio::awaitable<Status> run_hosts(asio::io_context& ioc, ConnInfo info, AsyncOptions options,
                                           std::shared_ptr<AsyncConnection::Ptr> opened) {
    auto timeout = info.connect_timeout ? std::chrono::duration_cast<std::chrono::milliseconds>(*info.connect_timeout)
                                        : options.connect_timeout;
    std::vector<HostPort> servers = info.hosts();
    HostFailures failures;
    for (TargetSessionAttrs want : connect_passes(info.target_session_attrs)) {
      failures.clear();  // the last pass's reasons are the ones that matter
      for (const HostPort& server : servers) {
        AsyncConnection::Ptr conn(new AsyncConnection(ioc, info.with_host(server), options));
        auto timed_out = std::make_shared<bool>(false);
        asio::steady_timer timer(ioc, timeout);
        timer.async_wait([conn, timed_out](const boost::system::error_code& ec) {
          if (ec) return;
          *timed_out = true;
          conn->transport_->close();
        });
        Status s = co_await run(conn, timed_out, timeout, want);
        timer.cancel();
        if (s) {
          *opened = std::move(conn);
          co_return Status{};
        }
        conn->close();  // a Terminate for a session that did not fit; nothing for a dead socket
        failures.add(server, std::move(s).error());
      }
    }
    co_return failures.error(info);
  }

  static asio::awaitable<Status> cancel(asio::io_context& ioc, ConnInfo info, int32_t process_id,
                                        std::string secret_key, std::chrono::milliseconds timeout) {
    Transport t(ioc);
    bool timed_out = false;
    if (auto s = co_await open_socket(t, info, timed_out, timeout); !s) co_return s;
    std::string request;
    encode_cancel_request(request, process_id, secret_key);
    auto ec = co_await t.visit([&](auto& s) { return write_all(s, request); });
    t.close();
    if (ec) co_return Error::connect("could not send the cancel request: " + ec.message());
    co_return Status{};
  }
};

void AsyncConnection::connect(asio::io_context& ioc, ConnInfo info, AsyncOptions options, ConnectHandler done) {
  // co_spawn needs a default-constructible result: the winner travels in `opened`.
  auto opened = std::make_shared<Ptr>();
  asio::co_spawn(ioc, Connector::run_hosts(ioc, std::move(info), std::move(options), opened),
                 [opened, done = std::move(done)](std::exception_ptr e, Status s) {
                   if (e) {
                     try {
                       std::rethrow_exception(e);
                     } catch (const std::exception& x) {
                       s = Error::connect(std::string("could not connect: ") + x.what());
                     }
                   }
                   if (!s) return done(std::move(s).error());
                   done(std::move(*opened));
                 });
}

void AsyncConnection::cancel(StatusHandler done) {
  asio::co_spawn(ioc_, Connector::cancel(ioc_, info_, session_.process_id, session_.secret_key, options_.connect_timeout),
                 [done = std::move(done)](std::exception_ptr e, Status s) {
                   if (e) s = Error::connect("could not send the cancel request");
                   done(std::move(s));
                 });
}

}  // namespace fitz::pg
