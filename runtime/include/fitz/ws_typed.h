// Typed WebSocket connections for generated programs: `WsConn<In, Out>` is a `Conn` (the
// runtime handle, fitz/ws.h, plus its endpoint's decoder and encoders), `recv` decodes In with
// the request-body decoder (a wrong message is an Err with the reason; the connection stays
// open), `send`/`broadcast` encode a value of its static type (Bytes as a binary frame), and
// `ws_broadcast(path, v)` reaches every client of a path. Generated code includes this after
// fitz/ws.h and calls it as `fzws::` (an alias of fitz::ws::typed); the JSON codecs of user
// types it instantiates are generated before the first use.
#pragma once

#include <string>
#include <type_traits>

#include "fitz/ws.h"

namespace fitz::ws::typed {
using Decoder = fitz::Result<fitz::Any, fitz::Str> (*)(const fitz::ws::Message&);
template <class T> fitz::Result<fitz::Any, fitz::Str> decode(const fitz::ws::Message& m) {
  if (m.binary) return fitz::Err(fitz::Str::lit("expected a text (JSON) message, got binary"));
  fitz::http::JsonReader r(m.data.data(), m.data.size());
  T out{};
  if (!fitz::http::from_json(r, &out)) return fitz::Err(fitz::Str::lit("message: ") + r.error());
  return fitz::Ok(fitz::to_any(out));
}
inline fitz::Result<fitz::Any, fitz::Str> decode_bytes(const fitz::ws::Message& m) {
  return fitz::Ok(fitz::to_any(fitz::Bytes(m.data.data(), m.data.size())));
}

// A message typed Any (what `recv` hands over) is encoded as the endpoint's Out or In type
// when it holds one, so a received message goes back out as the same JSON.
using Encoder = bool (*)(const fitz::Any&, fitz::Str*);

// `WsConn<In, Out>` / `WsConn<Bytes>`.
struct Conn {
  fitz::ws::Conn c;
  Decoder dec = nullptr;  // null: WsConn<Bytes>
  Encoder enc_out = nullptr, enc_in = nullptr;
};

// Only the server's own hub; set while it serves (ws_broadcast outside a server does nothing).
inline fitz::ws::Hub*& hub() {
  static fitz::ws::Hub* h = nullptr;
  return h;
}

template <class T> fitz::Str json(const T& v) {
  if constexpr (requires(fitz::http::JsonWriter& w, const T& x) { fitz::http::JsonEncode<T>::write(w, x); })
    return fitz::http::to_json(v);
  else
    return fitz::http::to_json(fitz::to_any(v));
}
template <class T> bool encode_as(const fitz::Any& a, fitz::Str* out) {
  T v{};
  if (!fitz::try_from_any<T>(a, &v)) return false;
  *out = json(v);
  return true;
}
template <class T> fitz::Str json_for(const Conn& c, const T& v) {
  if constexpr (std::is_same_v<T, fitz::Any>) {
    fitz::Str s;
    if (c.enc_out && c.enc_out(v, &s)) return s;
    if (c.enc_in && c.enc_in(v, &s)) return s;
  }
  return json(v);
}
// Bytes go out as a binary frame, anything else as JSON text.
template <class T> bool as_bytes(const T& v, fitz::Bytes* out) {
  if constexpr (std::is_same_v<T, fitz::Bytes>) {
    *out = v;
    return true;
  } else if constexpr (std::is_same_v<T, fitz::Any>) {
    auto b = v.as_bytes();
    if (!b.is_ok()) return false;
    *out = b.value();
    return true;
  } else {
    return false;
  }
}

// Defined in the ws library, as are the runtime's other non-template coroutines: GCC 12 emits an
// inline coroutine in every translation unit that includes it at -O0, used or not.
fitz::Task<fitz::Result<fitz::Any, fitz::Str>> recv(Conn c);
fitz::Task<fitz::Null> close(Conn c);

// `recv` as the checker types it: Result<In>. The endpoint decoded the message as its In type
// (a malformed one is already an Err with the reason); a helper that takes `WsConn<Any>` gets
// it as Any.
template <class T> fitz::Task<fitz::Result<T, fitz::Str>> recv_as(Conn c) {
  fitz::Task<fitz::Result<fitz::Any, fitz::Str>> t = recv(c);
  fitz::Result<fitz::Any, fitz::Str> m = co_await t;
  if (!m.is_ok()) co_return fitz::Result<T, fitz::Str>(fitz::Err(m.error()));
  if constexpr (std::is_same_v<T, fitz::Any>) {
    co_return fitz::Result<T, fitz::Str>(fitz::Ok(m.value()));
  } else {
    T v{};
    if (!fitz::try_from_any<T>(m.value(), &v)) {
      co_return fitz::Result<T, fitz::Str>(fitz::Err(fitz::Str::lit("message: not of the connection's type")));
    }
    co_return fitz::Result<T, fitz::Str>(fitz::Ok(std::move(v)));
  }
}
template <class T> fitz::Task<fitz::Null> send(Conn c, T v) {
  fitz::Bytes b;
  if (as_bytes(v, &b)) c.c.send_bytes(b);
  else c.c.send_text(json_for(c, v));
  co_return fitz::null;
}
template <class T> fitz::Task<fitz::Null> broadcast(Conn c, T v) {
  fitz::Bytes b;
  if (as_bytes(v, &b)) c.c.broadcast_bytes(b);
  else c.c.broadcast_text(json_for(c, v));
  co_return fitz::null;
}
// ws_broadcast(path, message)
template <class T> fitz::Null broadcast_path(const fitz::Str& path, const T& v) {
  fitz::ws::Hub* h = hub();
  if (!h) return fitz::null;
  std::string p(path.data(), path.size());
  fitz::Bytes b;
  if (as_bytes(v, &b)) h->broadcast_bytes(p.c_str(), b);
  else h->broadcast_text(p.c_str(), json(v));
  return fitz::null;
}
}  // namespace fitz::ws::typed
