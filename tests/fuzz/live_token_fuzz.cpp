// libFuzzer target for live-view join tokens (fitz/live/token.h). Mode byte 0: the rest is a
// token, opened under a fixed key: it never opens (forging needs the key) and never throws.
// Otherwise the rest is split into claims, sealed, and must open to the same claims; then one
// byte chosen by the input is changed and the token must no longer open.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fitz/live/token.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fitz::live;
  static const TokenKey key = TokenKey::derive("fuzz secret");
  static const TokenKey other = TokenKey::derive("another secret");
  constexpr int64_t now = 1'800'000'000;
  if (size == 0) return 0;
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] % 2 == 0) {
    TokenResult r = open_token(rest, key, now);
    if (r.ok()) std::abort();
    if (r.error != TokenError::Malformed && r.error != TokenError::Forged) std::abort();
    return 0;
  }
  // Claims from the input: text fields split at NUL bytes; props stay a fixed valid JSON value
  // (the sealer writes them as given, and only the runtime's JSON encoder produces them).
  TokenClaims c;
  std::string* fields[] = {&c.view, &c.sid, &c.uid};
  size_t f = 0;
  for (char ch : rest) {
    if (ch == '\0' && f < 2) {
      ++f;
      continue;
    }
    fields[f]->push_back(ch);
  }
  // Text fields hold whatever the caller passes; the JSON writer must keep them intact unless
  // they are not UTF-8 (the reader refuses those: BadPayload, never a crash).
  c.props_json = R"({"k":[1,"x"]})";
  c.iat = now;
  c.exp = now + 60;
  std::string t = seal_token(c, key);
  TokenResult r = open_token(t, key, now);
  if (r.ok() && !(r.claims == c)) std::abort();
  if (!r.ok() && r.error != TokenError::BadPayload) std::abort();
  if (open_token(t, other, now).ok()) std::abort();
  size_t at = 2 + (size_t(data[0]) * 131 + size) % (t.size() - 2);
  t[at] = t[at] == 'A' ? 'B' : 'A';
  if (open_token(t, key, now).ok()) std::abort();
  return 0;
}
