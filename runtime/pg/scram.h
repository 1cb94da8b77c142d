// Password authentication without I/O: the SCRAM-SHA-256 client (RFC 5802 / RFC 7677) as a
// three-step state machine, plus the MD5 and cleartext password responses. The startup flow
// (startup.h) drives these; tests drive them directly with the RFC 7677 vector.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "pg/error.h"

namespace fitz::pg {

inline constexpr std::string_view kScramSha256 = "SCRAM-SHA-256";

// SASLprep (RFC 4013) is approximated as the identity. That is exact for every ASCII password
// (the server falls back to the raw bytes when SASLprep rejects a password, which again is the
// identity); non-ASCII passwords that NFKC normalisation would change are not supported.
class ScramClient {
 public:
  enum class State : uint8_t { Initial, AwaitingServerFirst, AwaitingServerFinal, Done, Failed };

  // `nonce` must be printable ASCII without ','; real connections use random_nonce().
  // Postgres ignores the SCRAM user name (it uses the startup user), so it is usually empty.
  ScramClient(std::string_view user, std::string_view password, std::string nonce);
  ~ScramClient();
  ScramClient(ScramClient&&) noexcept = default;
  ScramClient& operator=(ScramClient&&) noexcept = default;

  // A client with a fresh nonce of 18 random bytes (base64, 24 characters).
  static Result<ScramClient> with_random_nonce(std::string_view user, std::string_view password);

  // client-first-message, e.g. "n,,n=user,r=<nonce>". Moves to AwaitingServerFirst.
  std::string client_first();
  // Parses server-first-message (r, s, i), derives the keys and returns client-final-message
  // with the proof. Moves to AwaitingServerFinal.
  Result<std::string> handle_server_first(std::string_view server_first);
  // Verifies the server signature in server-final-message ("v=..."); an "e=..." or a wrong
  // signature is an error. Moves to Done.
  Status handle_server_final(std::string_view server_final);

  State state() const { return state_; }

 private:
  Error fail(std::string message);

  State state_ = State::Initial;
  std::string user_;
  std::string password_;
  std::string nonce_;
  std::string client_first_bare_;
  std::array<uint8_t, 32> server_signature_{};
};

// A base64 random nonce of `bytes` bytes from the OpenSSL CSPRNG.
Result<std::string> random_nonce(std::size_t bytes = 18);

// The response to AuthenticationMD5Password: "md5" + md5hex(md5hex(password + user) + salt).
std::string md5_password(std::string_view user, std::string_view password,
                         const std::array<uint8_t, 4>& salt);
// md5hex(password + user) prefixed with "md5": what pg_authid stores for an MD5 role.
std::string md5_stored_password(std::string_view user, std::string_view password);

// Base64 as SCRAM uses it (standard alphabet, padded). decode is strict: any character outside
// the alphabet, bad padding or a bad length is an error.
std::string base64_encode(std::string_view bytes);
Result<std::string> base64_decode(std::string_view text);

}  // namespace fitz::pg
