// The typed connection's non-template coroutines (fitz/ws_typed.h).
#include "fitz/ws_typed.h"

namespace fitz::ws::typed {

fitz::Task<fitz::Result<fitz::Any, fitz::Str>> recv(Conn c) {
  // No temporaries inside co_await operands: GCC 12 may destroy them twice.
  fitz::Task<fitz::Result<fitz::ws::Message, fitz::Str>> t = c.c.recv_message();
  fitz::Result<fitz::ws::Message, fitz::Str> m = co_await t;
  if (!m.is_ok()) co_return fitz::Result<fitz::Any, fitz::Str>(fitz::Err(m.error()));
  co_return c.dec ? c.dec(m.value()) : decode_bytes(m.value());
}

fitz::Task<fitz::Null> close(Conn c) {
  c.c.close(1000, fitz::Str());
  co_return fitz::null;
}

}  // namespace fitz::ws::typed
