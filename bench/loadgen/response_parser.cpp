#include "response_parser.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace fitz::loadgen {

namespace {

bool iequals_prefix(std::string_view line, std::string_view name) {
  if (line.size() < name.size()) return false;
  for (size_t i = 0; i < name.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(line[i])) != name[i]) return false;
  return true;
}

std::string_view trim(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\r')) v.remove_suffix(1);
  return v;
}

}  // namespace

size_t ResponseParser::feed(const char* data, size_t n) {
  size_t used = 0;
  while (used < n && state != State::Done && state != State::Error) {
    std::string_view rest(data + used, n - used);
    switch (state) {
      case State::Head: {
        size_t end = rest.find("\r\n\r\n");
        if (end == std::string_view::npos) return used;
        parse_head(rest.substr(0, end + 2));
        used += end + 4;
        break;
      }
      case State::Body: {
        size_t take = static_cast<size_t>(std::min<uint64_t>(remaining, rest.size()));
        remaining -= take;
        used += take;
        if (remaining == 0) state = State::Done;
        break;
      }
      case State::ChunkSize: {
        size_t eol = rest.find("\r\n");
        if (eol == std::string_view::npos) return used;
        std::string_view hex = rest.substr(0, eol);
        if (size_t semi = hex.find(';'); semi != std::string_view::npos) hex = hex.substr(0, semi);
        hex = trim(hex);
        uint64_t size = 0;
        auto r = std::from_chars(hex.data(), hex.data() + hex.size(), size, 16);
        if (r.ec != std::errc() || hex.empty()) {
          state = State::Error;
          return used;
        }
        used += eol + 2;
        remaining = size;
        state = size == 0 ? State::Trailer : State::ChunkData;
        break;
      }
      case State::ChunkData: {
        size_t take = static_cast<size_t>(std::min<uint64_t>(remaining, rest.size()));
        remaining -= take;
        used += take;
        if (remaining == 0) state = State::ChunkCrlf;
        break;
      }
      case State::ChunkCrlf: {
        if (rest.size() < 2) return used;
        if (rest.substr(0, 2) != "\r\n") {
          state = State::Error;
          return used;
        }
        used += 2;
        state = State::ChunkSize;
        break;
      }
      case State::Trailer: {
        size_t eol = rest.find("\r\n");
        if (eol == std::string_view::npos) return used;
        used += eol + 2;
        if (eol == 0) state = State::Done;
        break;
      }
      default: return used;
    }
  }
  return used;
}

void ResponseParser::parse_head(std::string_view head) {
  // "HTTP/1.1 200 OK\r\n" then headers, each ending in \r\n.
  size_t eol = head.find("\r\n");
  std::string_view line = head.substr(0, eol);
  if (line.size() < 12 || line.substr(0, 5) != "HTTP/") {
    state = State::Error;
    return;
  }
  bool http10 = line.substr(5, 3) == "1.0";
  auto r = std::from_chars(line.data() + 9, line.data() + 12, status);
  if (r.ec != std::errc() || status < 100 || status > 599) {
    state = State::Error;
    return;
  }
  bool chunked = false, have_length = false, keep_alive = false;
  uint64_t length = 0;
  size_t pos = eol + 2;
  while (pos < head.size()) {
    size_t e = head.find("\r\n", pos);
    if (e == std::string_view::npos) e = head.size();
    std::string_view h = head.substr(pos, e - pos);
    pos = e + 2;
    size_t colon = h.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view value = trim(h.substr(colon + 1));
    if (iequals_prefix(h, "content-length:")) {
      auto rr = std::from_chars(value.data(), value.data() + value.size(), length);
      if (rr.ec != std::errc()) {
        state = State::Error;
        return;
      }
      have_length = true;
    } else if (iequals_prefix(h, "transfer-encoding:")) {
      chunked = value.find("chunked") != std::string_view::npos;
    } else if (iequals_prefix(h, "connection:")) {
      if (iequals_prefix(value, "close")) close = true;
      if (iequals_prefix(value, "keep-alive")) keep_alive = true;
    }
  }
  if (http10 && !keep_alive) close = true;
  if (status < 200 || status == 204 || status == 304) {
    state = status < 200 ? State::Head : State::Done;  // 1xx: the real response follows
    return;
  }
  if (chunked) {
    state = State::ChunkSize;
  } else if (have_length) {
    remaining = length;
    state = length == 0 ? State::Done : State::Body;
  } else {
    state = State::Error;  // read-until-close bodies are not something a benchmarked server sends
  }
}

}  // namespace fitz::loadgen
