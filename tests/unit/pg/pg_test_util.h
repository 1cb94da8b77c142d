// Helpers for the Postgres protocol tests: byte strings written by hand, framed backend
// messages, and splitting a frontend byte stream into (type, body) pairs.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fitz::pg::test_support {

// bytes({'Q', 0, 0, 0, 13}): each element is one byte.
inline std::string bytes(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) out.push_back(static_cast<char>(v));
  return out;
}

// Text including its NUL terminator.
inline std::string cstr(std::string_view text) {
  std::string out(text);
  out.push_back('\0');
  return out;
}

inline std::string be16(int v) { return bytes({(v >> 8) & 0xff, v & 0xff}); }
inline std::string be32(int64_t v) {
  auto u = static_cast<uint32_t>(v);
  return bytes({static_cast<int>(u >> 24), static_cast<int>((u >> 16) & 0xff), static_cast<int>((u >> 8) & 0xff),
                static_cast<int>(u & 0xff)});
}
inline std::string be64(int64_t v) {
  auto u = static_cast<uint64_t>(v);
  return be32(static_cast<int64_t>(u >> 32)) + be32(static_cast<int64_t>(u & 0xffffffffu));
}

// A framed message: type byte, int32 length (including itself), body.
inline std::string frame(char tag, std::string_view body) {
  std::string out(1, tag);
  out += be32(static_cast<int64_t>(body.size() + 4));
  out.append(body);
  return out;
}

// Splits a stream of typed frontend messages (not the untyped startup packets).
inline std::vector<std::pair<char, std::string>> split_frontend(std::string_view stream) {
  std::vector<std::pair<char, std::string>> out;
  while (stream.size() >= 5) {
    auto len = (static_cast<uint32_t>(static_cast<uint8_t>(stream[1])) << 24) |
               (static_cast<uint32_t>(static_cast<uint8_t>(stream[2])) << 16) |
               (static_cast<uint32_t>(static_cast<uint8_t>(stream[3])) << 8) |
               static_cast<uint32_t>(static_cast<uint8_t>(stream[4]));
    if (len < 4 || stream.size() < 1 + len) break;
    out.emplace_back(stream[0], std::string(stream.substr(5, len - 4)));
    stream.remove_prefix(1 + len);
  }
  return out;
}

inline std::string frontend_tags(std::string_view stream) {
  std::string tags;
  for (auto& [tag, body] : split_frontend(stream)) tags.push_back(tag);
  return tags;
}

}  // namespace fitz::pg::test_support
