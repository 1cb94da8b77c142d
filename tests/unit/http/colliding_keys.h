// The hash-flooding attack on the runtime's former fixed string hash, as a client would mount
// it: 16-byte keys whose second 8-byte block cancels the state left by the first, so every key
// has the same hash. Tests post these keys and check that today's keyed hash spreads them.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_set>
#include <vector>

namespace fitz::http::test_support {

// The state of the former hash after the first block of a 16-byte key.
inline uint64_t former_hash_state(const char* block1) {
  uint64_t h = 0x243F6A8885A308D3ULL ^ (16 * 0x9E3779B97F4A7C15ULL);
  uint64_t w;
  std::memcpy(&w, block1, 8);
  h = (h ^ w) * 0xFF51AFD7ED558CCDULL;
  return h ^ (h >> 29);
}

// The former hash of a 16-byte key (the finalisation is a bijection of the state after the
// second block, so equal states mean equal hashes).
inline uint64_t former_hash_16(const std::string& key) {
  uint64_t h = former_hash_state(key.data());
  uint64_t w;
  std::memcpy(&w, key.data() + 8, 8);
  h = (h ^ w) * 0xFF51AFD7ED558CCDULL;
  return h ^ (h >> 29);
}

// `count` distinct printable keys (no `"` or `\`, so they go into JSON as they are) with one
// former hash.
inline std::vector<std::string> colliding_keys(size_t count) {
  const uint64_t target = 0x4141414141414141ULL;  // the second block of the first key
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;  // a first block drawn twice would repeat a key
  uint64_t seed = 0x9E3779B97F4A7C15ULL;
  auto printable = [](unsigned char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; };
  while (out.size() < count) {
    char key[17] = {};
    for (int i = 0; i < 8; ++i) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      key[i] = char('0' + (seed >> 58) % 75);  // '0'..'z'
    }
    uint64_t need = former_hash_state(key) ^ target;
    std::memcpy(key + 8, &need, 8);
    bool ok = true;
    for (int i = 0; i < 16; ++i) ok &= printable(static_cast<unsigned char>(key[i]));
    if (ok && seen.emplace(key, 16).second) out.emplace_back(key, 16);
  }
  return out;
}

inline std::string json_object_of(const std::vector<std::string>& keys) {
  std::string body = "{";
  for (size_t i = 0; i < keys.size(); ++i) body += (i ? ",\"" : "\"") + keys[i] + "\":" + std::to_string(i);
  return body + "}";
}

}  // namespace fitz::http::test_support
