// Hashing of untrusted bytes: SipHash-1-3 under a key drawn once per process, so a client cannot
// choose map keys that all land in one probe sequence (a fixed hash let one 1 MB JSON body of
// colliding keys cost seconds of CPU). Maps keep insertion order, so no output depends on the key.
#include <sys/random.h>

#include <cstring>
#include <ctime>

#include "fitz/runtime.h"

namespace fitz::detail {

namespace {

inline uint64_t rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

struct Sip {
  uint64_t v0, v1, v2, v3;
  void round() {
    v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32);
    v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;
    v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;
    v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32);
  }
  void absorb(uint64_t m) {
    v3 ^= m;
    round();  // one compression round: the "1" of SipHash-1-3
    v0 ^= m;
  }
};

}  // namespace

HashKey HashKey::random() noexcept {
  HashKey k{};
  uint64_t words[2];
  size_t got = 0;
  while (got < sizeof words) {
    ssize_t n = getrandom(reinterpret_cast<char*>(words) + got, sizeof words - got, 0);
    if (n <= 0) break;
    got += size_t(n);
  }
  if (got < sizeof words) {
    // No entropy source (a very old kernel or a seccomp filter): fall back to the clock and the
    // address space layout, weaker but still unknown to a remote client.
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    words[0] = mix64(uint64_t(ts.tv_nsec) ^ (uint64_t(ts.tv_sec) << 30) ^ reinterpret_cast<uintptr_t>(&k));
    words[1] = mix64(words[0] ^ reinterpret_cast<uintptr_t>(&HashKey::random));
  }
  k.k0 = words[0];
  k.k1 = words[1];
  return k;
}

uint64_t siphash13(const HashKey& key, const char* p, size_t n) noexcept {
  Sip s{key.k0 ^ 0x736f6d6570736575ULL, key.k1 ^ 0x646f72616e646f6dULL, key.k0 ^ 0x6c7967656e657261ULL,
        key.k1 ^ 0x7465646279746573ULL};
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t m;
    std::memcpy(&m, p + i, 8);
    s.absorb(m);
  }
  uint64_t last = uint64_t(n) << 56;
  uint64_t tail = 0;
  std::memcpy(&tail, p + i, n - i);
  s.absorb(last | tail);
  s.v2 ^= 0xff;
  s.round();
  s.round();
  s.round();
  return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

uint64_t hash_bytes(const char* p, size_t n) noexcept { return siphash13(hash_key(), p, n); }

}  // namespace fitz::detail
