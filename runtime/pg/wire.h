// Big-endian primitives shared by the message and codec code: appenders for an output buffer and
// a bounds-checked reader. Internal to fitz::pg; every read reports failure instead of overrunning.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace fitz::pg::wire {

inline void put_u8(std::string& out, uint8_t v) { out.push_back(static_cast<char>(v)); }
inline void put_u16(std::string& out, uint16_t v) {
  char b[2] = {static_cast<char>(v >> 8), static_cast<char>(v)};
  out.append(b, 2);
}
inline void put_i16(std::string& out, int16_t v) { put_u16(out, static_cast<uint16_t>(v)); }
inline void put_u32(std::string& out, uint32_t v) {
  char b[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
               static_cast<char>(v)};
  out.append(b, 4);
}
inline void put_i32(std::string& out, int32_t v) { put_u32(out, static_cast<uint32_t>(v)); }
inline void put_u64(std::string& out, uint64_t v) {
  put_u32(out, static_cast<uint32_t>(v >> 32));
  put_u32(out, static_cast<uint32_t>(v));
}
inline void put_i64(std::string& out, int64_t v) { put_u64(out, static_cast<uint64_t>(v)); }
inline void put_cstring(std::string& out, std::string_view s) {
  out.append(s);
  out.push_back('\0');
}

// Overwrites four bytes at `at` with a big-endian int32 (message length back-patching).
inline void patch_i32(std::string& out, std::size_t at, int32_t v) {
  auto u = static_cast<uint32_t>(v);
  out[at] = static_cast<char>(u >> 24);
  out[at + 1] = static_cast<char>(u >> 16);
  out[at + 2] = static_cast<char>(u >> 8);
  out[at + 3] = static_cast<char>(u);
}

inline uint16_t load_u16(const char* p) {
  return static_cast<uint16_t>((static_cast<uint8_t>(p[0]) << 8) | static_cast<uint8_t>(p[1]));
}
inline uint32_t load_u32(const char* p) {
  return (static_cast<uint32_t>(static_cast<uint8_t>(p[0])) << 24) |
         (static_cast<uint32_t>(static_cast<uint8_t>(p[1])) << 16) |
         (static_cast<uint32_t>(static_cast<uint8_t>(p[2])) << 8) |
         static_cast<uint32_t>(static_cast<uint8_t>(p[3]));
}
inline uint64_t load_u64(const char* p) {
  return (static_cast<uint64_t>(load_u32(p)) << 32) | load_u32(p + 4);
}

// Reads from a view without ever going past its end. Each read returns false (and leaves the
// position unchanged) when the data is too short.
class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}

  std::size_t remaining() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ == data_.size(); }
  std::string_view rest() const { return data_.substr(pos_); }

  bool u8(uint8_t& v) {
    if (remaining() < 1) return false;
    v = static_cast<uint8_t>(data_[pos_++]);
    return true;
  }
  bool i16(int16_t& v) {
    if (remaining() < 2) return false;
    v = static_cast<int16_t>(load_u16(data_.data() + pos_));
    pos_ += 2;
    return true;
  }
  bool u16(uint16_t& v) {
    if (remaining() < 2) return false;
    v = load_u16(data_.data() + pos_);
    pos_ += 2;
    return true;
  }
  bool i32(int32_t& v) {
    if (remaining() < 4) return false;
    v = static_cast<int32_t>(load_u32(data_.data() + pos_));
    pos_ += 4;
    return true;
  }
  bool u32(uint32_t& v) {
    if (remaining() < 4) return false;
    v = load_u32(data_.data() + pos_);
    pos_ += 4;
    return true;
  }
  bool i64(int64_t& v) {
    if (remaining() < 8) return false;
    v = static_cast<int64_t>(load_u64(data_.data() + pos_));
    pos_ += 8;
    return true;
  }
  // A NUL-terminated string; the view excludes the terminator.
  bool cstring(std::string_view& v) {
    std::size_t end = data_.find('\0', pos_);
    if (end == std::string_view::npos) return false;
    v = data_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return true;
  }
  bool bytes(std::size_t n, std::string_view& v) {
    if (remaining() < n) return false;
    v = data_.substr(pos_, n);
    pos_ += n;
    return true;
  }

 private:
  std::string_view data_;
  std::size_t pos_ = 0;
};

}  // namespace fitz::pg::wire
