// SCRAM-SHA-256 client, MD5 password hashing and base64, on OpenSSL's primitives (SHA-256,
// HMAC, PBKDF2, MD5, RAND_bytes). Secrets are wiped from memory once they are no longer needed.
#include "pg/scram.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <charconv>
#include <climits>
#include <vector>

namespace fitz::pg {
namespace {

using Digest = std::array<uint8_t, 32>;

Digest sha256(const uint8_t* data, std::size_t size) {
  Digest out{};
  unsigned int len = 0;
  EVP_Digest(data, size, out.data(), &len, EVP_sha256(), nullptr);
  return out;
}

Digest hmac_sha256(const uint8_t* key, std::size_t key_size, std::string_view message) {
  Digest out{};
  unsigned int len = 0;
  HMAC(EVP_sha256(), key, static_cast<int>(key_size), reinterpret_cast<const unsigned char*>(message.data()),
       message.size(), out.data(), &len);
  return out;
}

std::string md5_hex(std::string_view data) {
  unsigned char digest[16];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), digest, &len, EVP_md5(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(32);
  for (unsigned char b : digest) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 15]);
  }
  return out;
}

std::string_view as_view(const Digest& d) {
  return {reinterpret_cast<const char*>(d.data()), d.size()};
}

// saslname: '=' and ',' are escaped as "=3D" and "=2C" (RFC 5802 section 5.1).
std::string escape_saslname(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == '=') out += "=3D";
    else if (c == ',') out += "=2C";
    else out.push_back(c);
  }
  return out;
}

bool is_printable_nonce(std::string_view nonce) {
  for (char c : nonce)
    if (c < 0x21 || c > 0x7e || c == ',') return false;
  return true;
}

// Splits "a=...,b=..." into attributes; returns false on an attribute without "x=".
bool split_attributes(std::string_view message, std::vector<std::pair<char, std::string_view>>& out) {
  std::size_t pos = 0;
  for (;;) {
    std::size_t comma = message.find(',', pos);
    std::string_view part = message.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    if (part.size() < 2 || part[1] != '=') return false;
    out.emplace_back(part[0], part.substr(2));
    if (comma == std::string_view::npos) return true;
    pos = comma + 1;
  }
}

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::string base64_encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

Result<std::string> base64_decode(std::string_view text) {
  auto bad = [] { return Error::make(ErrorKind::Decode, sqlstate::kInvalidTextRepresentation, "invalid base64"); };
  if (text.size() % 4 != 0) return bad();
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    bool last = i + 4 == text.size();
    int v[4];
    int pad = 0;
    for (int k = 0; k < 4; ++k) {
      char c = text[i + k];
      if (c == '=' && last && k >= 2) {
        v[k] = 0;
        ++pad;
        continue;
      }
      if (pad > 0) return bad();  // data after padding
      v[k] = base64_value(c);
      if (v[k] < 0) return bad();
    }
    uint32_t triple = (uint32_t(v[0]) << 18) | (uint32_t(v[1]) << 12) | (uint32_t(v[2]) << 6) | uint32_t(v[3]);
    out.push_back(static_cast<char>(triple >> 16));
    if (pad < 2) out.push_back(static_cast<char>(triple >> 8));
    if (pad < 1) out.push_back(static_cast<char>(triple));
  }
  return out;
}

Result<std::string> random_nonce(std::size_t bytes) {
  std::string raw(bytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(raw.data()), static_cast<int>(raw.size())) != 1)
    return Error::make(ErrorKind::Auth, sqlstate::kInvalidAuthorization, "could not generate a random nonce");
  return base64_encode(raw);
}

std::string md5_stored_password(std::string_view user, std::string_view password) {
  std::string input;
  input.reserve(password.size() + user.size());
  input.append(password);
  input.append(user);
  std::string hex = md5_hex(input);
  OPENSSL_cleanse(input.data(), input.size());
  return "md5" + hex;
}

std::string md5_password(std::string_view user, std::string_view password, const std::array<uint8_t, 4>& salt) {
  std::string inner = md5_stored_password(user, password).substr(3);
  inner.append(reinterpret_cast<const char*>(salt.data()), salt.size());
  return "md5" + md5_hex(inner);
}

ScramClient::ScramClient(std::string_view user, std::string_view password, std::string nonce)
    : user_(user), password_(password), nonce_(std::move(nonce)) {}

ScramClient::~ScramClient() {
  if (!password_.empty()) OPENSSL_cleanse(password_.data(), password_.size());
  OPENSSL_cleanse(server_signature_.data(), server_signature_.size());
}

Result<ScramClient> ScramClient::with_random_nonce(std::string_view user, std::string_view password) {
  auto nonce = random_nonce();
  if (!nonce) return std::move(nonce).error();
  return ScramClient(user, password, std::move(*nonce));
}

Error ScramClient::fail(std::string message) {
  state_ = State::Failed;
  return Error::make(ErrorKind::Auth, sqlstate::kInvalidAuthorization, "SCRAM authentication failed: " + message);
}

std::string ScramClient::client_first() {
  client_first_bare_ = "n=" + escape_saslname(user_) + ",r=" + nonce_;
  state_ = State::AwaitingServerFirst;
  // gs2 header "n,,": no channel binding (this client does not offer SCRAM-SHA-256-PLUS).
  return "n,," + client_first_bare_;
}

Result<std::string> ScramClient::handle_server_first(std::string_view server_first) {
  if (state_ != State::AwaitingServerFirst) return fail("server-first-message out of order");
  if (!is_printable_nonce(nonce_) || nonce_.empty()) return fail("invalid client nonce");
  std::vector<std::pair<char, std::string_view>> attrs;
  if (!split_attributes(server_first, attrs)) return fail("malformed server-first-message");
  if (!attrs.empty() && attrs[0].first == 'm') return fail("unsupported mandatory extension");
  if (attrs.size() < 3 || attrs[0].first != 'r' || attrs[1].first != 's' || attrs[2].first != 'i')
    return fail("server-first-message must start with r=, s=, i=");

  std::string_view server_nonce = attrs[0].second;
  if (server_nonce.size() <= nonce_.size() || server_nonce.substr(0, nonce_.size()) != nonce_ ||
      !is_printable_nonce(server_nonce))
    return fail("server nonce does not extend the client nonce");

  auto salt = base64_decode(attrs[1].second);
  if (!salt || salt->empty()) return fail("invalid salt");

  std::string_view iter_text = attrs[2].second;
  int iterations = 0;
  auto [end, ec] = std::from_chars(iter_text.data(), iter_text.data() + iter_text.size(), iterations);
  if (ec != std::errc() || end != iter_text.data() + iter_text.size() || iterations < 1)
    return fail("invalid iteration count");

  Digest salted{};
  if (PKCS5_PBKDF2_HMAC(password_.data(), static_cast<int>(password_.size()),
                        reinterpret_cast<const unsigned char*>(salt->data()), static_cast<int>(salt->size()),
                        iterations, EVP_sha256(), static_cast<int>(salted.size()), salted.data()) != 1)
    return fail("key derivation failed");
  OPENSSL_cleanse(password_.data(), password_.size());
  password_.clear();

  std::string client_final = "c=biws,r=";  // biws = base64("n,,")
  client_final.append(server_nonce);
  std::string auth_message = client_first_bare_ + "," + std::string(server_first) + "," + client_final;

  Digest client_key = hmac_sha256(salted.data(), salted.size(), "Client Key");
  Digest stored_key = sha256(client_key.data(), client_key.size());
  Digest client_signature = hmac_sha256(stored_key.data(), stored_key.size(), auth_message);
  Digest proof{};
  for (std::size_t i = 0; i < proof.size(); ++i) proof[i] = client_key[i] ^ client_signature[i];
  Digest server_key = hmac_sha256(salted.data(), salted.size(), "Server Key");
  server_signature_ = hmac_sha256(server_key.data(), server_key.size(), auth_message);

  client_final += ",p=";
  client_final += base64_encode(as_view(proof));
  OPENSSL_cleanse(salted.data(), salted.size());
  OPENSSL_cleanse(client_key.data(), client_key.size());
  OPENSSL_cleanse(server_key.data(), server_key.size());
  state_ = State::AwaitingServerFinal;
  return client_final;
}

Status ScramClient::handle_server_final(std::string_view server_final) {
  if (state_ != State::AwaitingServerFinal) return fail("server-final-message out of order");
  std::vector<std::pair<char, std::string_view>> attrs;
  if (!split_attributes(server_final, attrs) || attrs.empty()) return fail("malformed server-final-message");
  if (attrs[0].first == 'e') return fail("server reported " + std::string(attrs[0].second));
  if (attrs[0].first != 'v') return fail("server-final-message has no verifier");
  auto signature = base64_decode(attrs[0].second);
  if (!signature || signature->size() != server_signature_.size() ||
      CRYPTO_memcmp(signature->data(), server_signature_.data(), server_signature_.size()) != 0)
    return fail("server signature does not match; the server does not know the password");
  state_ = State::Done;
  return {};
}

}  // namespace fitz::pg
