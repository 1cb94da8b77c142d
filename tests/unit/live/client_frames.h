// The frames a page sends (views.md §2.2) and what the tests read back from the server's, for
// the LiveConnection unit tests: one spelling of the protocol, so a change to it is made once.
#pragma once

#include <cstdint>
#include <regex>
#include <string>
#include <string_view>

#include "fitz/live/token.h"

namespace fitz::live::testing {

// A join token for `view` issued at `now_ms`, valid for `ttl_secs`.
inline std::string token_for(const TokenKey& key, std::string view, int64_t now_ms, std::string props = "{}",
                             std::string uid = "", int64_t ttl_secs = 3600) {
  int64_t now = now_ms / 1000;
  TokenClaims claims;
  claims.view = std::move(view);
  claims.props_json = std::move(props);
  claims.sid = "sid";
  claims.uid = std::move(uid);
  claims.iat = now;
  claims.exp = now + ttl_secs;
  return seal_token(claims, key);
}

inline std::string join_frame(std::string_view tok, std::string_view v = "fz-1") {
  return R"({"t":"join","v":")" + std::string(v) + R"(","tok":")" + std::string(tok) + R"(","rev":0})";
}

inline std::string ev_frame(int64_t ref, int64_t c, std::string_view e, std::string_view p = "{}",
                            std::string_view v = "fz-1") {
  return R"({"t":"ev","v":")" + std::string(v) + R"(","ref":)" + std::to_string(ref) + R"(,"c":)" +
         std::to_string(c) + R"(,"e":")" + std::string(e) + R"(","p":)" + std::string(p) + "}";
}

inline std::string resync_frame(std::string_view v = "fz-1") {
  return R"({"t":"resync","v":")" + std::string(v) + R"("})";
}

// The first component number in a frame's (escaped) HTML; 0 when there is none.
inline int64_t first_component(const std::string& frame) {
  std::smatch m;
  if (!std::regex_search(frame, m, std::regex(R"(data-fz-c=\\"(\d+)\\")"))) return 0;
  return std::stoll(m[1]);
}

// The number on the element whose id is `id` (rendered right after its data-fz-c); -1 when absent.
inline int64_t component_with_id(const std::string& frame, const std::string& id) {
  std::smatch m;
  if (!std::regex_search(frame, m, std::regex(R"(data-fz-c=\\"(\d+)\\" id=\\")" + id + R"(\\")"))) return -1;
  return std::stoll(m[1]);
}

}  // namespace fitz::live::testing
