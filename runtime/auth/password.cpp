// `hash.password` / `hash.verify`: Argon2id through libargon2 (the reference implementation),
// with the parameters of the spec (m=19456 KiB, t=2, p=1) and OpenSSL's random salt.
#include <argon2.h>
#include <openssl/rand.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "fitz/auth.h"

namespace fitz::auth {

namespace {
constexpr uint32_t kMemoryKiB = 19456;
constexpr uint32_t kTime = 2;
constexpr uint32_t kLanes = 1;
constexpr size_t kSaltLen = 16;
constexpr size_t kHashLen = 32;
// Limits for strings given to verify: generous for any real deployment, small enough that a
// hostile string cannot exhaust memory or CPU.
constexpr uint64_t kMaxMemoryKiB = 1u << 20;  // 1 GiB
constexpr uint64_t kMaxTime = 64;
constexpr uint64_t kMaxLanes = 64;
constexpr size_t kMaxPhcLen = 512;

// Reads `key=<digits>` at *p; advances past it.
bool read_param(const char** p, const char* end, char key, uint64_t* out) {
  const char* s = *p;
  if (end - s < 3 || s[0] != key || s[1] != '=') return false;
  s += 2;
  uint64_t v = 0;
  const char* start = s;
  while (s < end && *s >= '0' && *s <= '9' && s - start < 10) v = v * 10 + uint64_t(*s++ - '0');
  if (s == start) return false;
  *out = v;
  *p = s;
  return true;
}

// "$argon2id$v=19$m=..,t=..,p=..$salt$hash" with parameters within the limits above.
bool sane_phc(const Str& phc) {
  static constexpr char kPrefix[] = "$argon2id$v=19$";
  size_t plen = sizeof kPrefix - 1;
  if (phc.size() > kMaxPhcLen || phc.size() < plen || std::memcmp(phc.data(), kPrefix, plen) != 0)
    return false;
  const char* p = phc.data() + plen;
  const char* end = phc.data() + phc.size();
  uint64_t m = 0, t = 0, l = 0;
  if (!read_param(&p, end, 'm', &m) || p >= end || *p++ != ',') return false;
  if (!read_param(&p, end, 't', &t) || p >= end || *p++ != ',') return false;
  if (!read_param(&p, end, 'p', &l) || p >= end || *p != '$') return false;
  return m >= 8 && m <= kMaxMemoryKiB && t >= 1 && t <= kMaxTime && l >= 1 && l <= kMaxLanes;
}
}  // namespace

Str hash_password(const Str& password) {
  unsigned char salt[kSaltLen];
  if (RAND_bytes(salt, int(kSaltLen)) != 1) runtime_error(SourcePos{}, "hash.password: the system random source failed");
  size_t len = argon2_encodedlen(kTime, kMemoryKiB, kLanes, kSaltLen, kHashLen, Argon2_id);
  std::string encoded(len, '\0');
  int rc = argon2id_hash_encoded(kTime, kMemoryKiB, kLanes, password.data(), password.size(), salt,
                                 kSaltLen, kHashLen, encoded.data(), len);
  if (rc != ARGON2_OK) runtime_error(SourcePos{}, Str((std::string("hash.password: ") + argon2_error_message(rc)).c_str()));
  return Str(encoded.c_str());
}

bool verify_password(const Str& password, const Str& phc) {
  if (!sane_phc(phc)) return false;
  // argon2id_verify recomputes the hash with the string's salt and parameters and compares
  // in constant time.
  return argon2id_verify(phc.c_str(), password.data(), password.size()) == ARGON2_OK;
}

}  // namespace fitz::auth
