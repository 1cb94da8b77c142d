// The join token of a live root (views.md §2.1): the view name, its props and who it was
// rendered for, encrypted and authenticated with AES-256-GCM so props never leak to the page
// and cannot be forged. Pure functions over bytes; no I/O and no global state.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fitz::live {

// The AES-256 key. Derived with HKDF-SHA256 (RFC 5869) rather than a bare SHA-256 of the
// secret because FITZ_SECRET_KEY also keys the cookie HMACs: HKDF's `info` label separates the
// two uses (a key for one can never be the key for the other) and its extract step turns a
// secret of any length and entropy layout into a uniform key, which SHA-256 alone does not
// promise for structured input.
class TokenKey {
 public:
  static TokenKey derive(std::string_view secret);
  // For dev: a random key per process (the runtime warns, §2.1).
  static TokenKey random();
  const std::array<uint8_t, 32>& bytes() const { return k_; }

 private:
  std::array<uint8_t, 32> k_{};
};

struct TokenClaims {
  std::string view;        // the component name
  std::string props_json;  // the root's props as one JSON value
  std::string sid;         // the session id
  std::string uid;         // the user id; "" when anonymous
  int64_t iat = 0;         // issued at, Unix seconds
  int64_t exp = 0;         // expires at, Unix seconds
  // The page's route values (`ctx.params`, `ctx.query`), so a joined view sees what its GET saw.
  std::vector<std::pair<std::string, std::string>> params, query;
  bool operator==(const TokenClaims&) const = default;
};

enum class TokenError : uint8_t {
  None,
  Malformed,      // not our format: prefix, base64url, length
  Forged,         // authentication failed: tampered bytes or another key
  BadPayload,     // decrypted but not the JSON we write (cannot happen without the key)
  Expired,        // now >= exp
  NotYetValid,    // iat more than a minute in the future
};
const char* token_error_name(TokenError e);

// A token is "1." + base64url(nonce[12] || ciphertext || tag[16]); the "1" names the format
// and is also authenticated (it is the GCM additional data). Tokens over this size are
// rejected before decoding (they must fit in a 64 KiB join frame).
inline constexpr size_t kMaxTokenBytes = 48 * 1024;

// Encrypts the claims with a fresh random nonce. `props_json` is written as it is (the caller
// produces it with the runtime's JSON encoder).
std::string seal_token(const TokenClaims& claims, const TokenKey& key);

struct TokenResult {
  TokenError error = TokenError::None;
  TokenClaims claims;
  bool ok() const { return error == TokenError::None; }
};
// Never throws: every input is either accepted or one of the errors above.
TokenResult open_token(std::string_view token, const TokenKey& key, int64_t now_unix);

}  // namespace fitz::live
