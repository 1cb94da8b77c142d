// libFuzzer target for the Postgres protocol layer (runtime/pg), which a hostile or broken
// server feeds. The first byte picks the part under test:
//   0  the backend byte stream through MessageReader, in chunks, every frame decoded
//   1  decode_message for one type byte and body
//   2  a value codec (type and format from the second byte): a decoded value, encoded again,
//      must decode to a value that encodes to the same bytes
//   3  text helpers: array literals, command tags, base64
//   4  the SCRAM-SHA-256 client on server-first and server-final messages (split at NUL)
// Every failure must be an Error with a message, never a crash or an out-of-bounds read.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "pg/codecs.h"
#include "pg/messages.h"
#include "pg/scram.h"

namespace {

using namespace fitz::pg;

[[noreturn]] void fail(const char* what, std::string_view a, std::string_view b) {
  std::fprintf(stderr, "pg oracle: %s\n--- first (%zu bytes)\n--- second (%zu bytes)\n", what, a.size(), b.size());
  __builtin_trap();
}

template <class T> void check_error(const Result<T>& r) {
  if (!r.ok() && r.error().message.empty()) __builtin_trap();
}

void touch(const BackendMessage& m, size_t row_bytes) {
  if (message_name(m).empty()) __builtin_trap();
  (void)is_async_message(m);
  if (const auto* row = std::get_if<DataRow>(&m)) {
    size_t n = 0;
    for (auto v : *row) n += v ? v->size() : 0;
    if (row->values().size() != row->size() || n > row_bytes) __builtin_trap();
  } else if (const auto* cc = std::get_if<CommandComplete>(&m)) {
    (void)command_tag_rows(cc->tag);
  }
}

void stream(std::string_view in, size_t chunk) {
  MessageReader reader;
  for (size_t pos = 0; pos < in.size(); pos += chunk) {
    std::string_view piece = in.substr(pos, chunk);
    if (pos % 2 == 0) {
      reader.append(piece);
    } else {
      auto span = reader.prepare(piece.size());
      std::memcpy(span.data(), piece.data(), piece.size());
      reader.commit(piece.size());
    }
    for (;;) {
      auto next = reader.next();
      check_error(next);
      if (!next.ok() || !next.value()) break;
      touch(*next.value(), in.size());
    }
  }
}

template <class T> void codec(std::string_view in, Format format) {
  auto first = decode<T>(in, format);
  check_error(first);
  if (!first) return;
  std::string a;
  auto s = encode(a, *first, format);
  if (!s) return;  // values that decode but cannot be sent back (e.g. out of range) may refuse
  auto second = decode<T>(a, format);
  if (!second) fail("an encoded value does not decode", in, a);
  std::string b;
  if (!encode(b, *second, format)) fail("a decoded value does not encode", a, b);
  if (a != b) fail("codec round trip changed the value", a, b);
}

void codecs(uint8_t sel, std::string_view in) {
  Format f = sel & 1 ? Format::Binary : Format::Text;
  switch ((sel >> 1) % 17) {
    case 0: codec<bool>(in, f); break;
    case 1: codec<int16_t>(in, f); break;
    case 2: codec<int32_t>(in, f); break;
    case 3: codec<int64_t>(in, f); break;
    case 4: codec<float>(in, f); break;
    case 5: codec<double>(in, f); break;
    case 6: codec<std::string>(in, f); break;
    case 7: codec<Bytea>(in, f); break;
    case 8: codec<Numeric>(in, f); break;
    case 9: codec<Json>(in, f); break;
    case 10: codec<Jsonb>(in, f); break;
    case 11: codec<Uuid>(in, f); break;
    case 12: codec<Date>(in, f); break;
    case 13: codec<Timestamp>(in, f); break;
    case 14: codec<Timestamptz>(in, f); break;
    case 15: codec<Int8Array>(in, f); break;
    default: codec<TextArray>(in, f); break;
  }
}

void text_helpers(std::string_view in) {
  check_error(parse_text_array(in));
  (void)command_tag_rows(in);
  auto bytes = base64_decode(in);
  check_error(bytes);
  if (bytes) {
    auto again = base64_decode(base64_encode(*bytes));
    if (!again || *again != *bytes) fail("base64 round trip", *bytes, again ? *again : "");
  }
  std::string out;
  append_array_element(out, in);
  auto parsed = parse_text_array("{" + out + "}");
  if (!parsed || parsed->size() != 1 || !(*parsed)[0] || *(*parsed)[0] != in) fail("array element round trip", in, out);
}

// PBKDF2 runs the server's iteration count; Postgres defaults to 4096. Larger counts only make
// a run slow, so they are left out of fuzzing (the count parser still sees them when invalid).
bool cheap_iterations(std::string_view first) {
  size_t i = first.find(",i=");
  if (i == std::string_view::npos) return true;
  std::string_view digits = first.substr(i + 3);
  size_t n = 0;
  while (n < digits.size() && digits[n] >= '0' && digits[n] <= '9') ++n;
  return n < 5 || (n == 5 && digits.substr(0, 5) <= "20000");
}

void scram(std::string_view in) {
  size_t nul = in.find('\0');
  std::string_view first = in.substr(0, nul);
  std::string_view final_msg = nul == std::string_view::npos ? std::string_view() : in.substr(nul + 1);
  if (!cheap_iterations(first)) return;
  ScramClient client("user", "pencil", "rOprNGfwEbeRWgbNEkqO");
  (void)client.client_first();
  auto proof = client.handle_server_first(first);
  check_error(proof);
  if (!proof) return;
  auto done = client.handle_server_final(final_msg);
  check_error(done);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  std::string_view in(reinterpret_cast<const char*>(data) + 2, size - 2);
  switch (data[0] % 5) {
    case 0: stream(in, size_t(data[1] % 64) + 1); break;
    case 1: {
      auto m = decode_message(char(data[1]), in);
      check_error(m);
      if (m) touch(*m, in.size());
      break;
    }
    case 2: codecs(data[1], in); break;
    case 3: text_helpers(in); break;
    default: scram(in); break;
  }
  return 0;
}
