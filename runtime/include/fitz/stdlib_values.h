// The rest of the value half of the standard library: `rand` (SplitMix64, so a seeded sequence
// is the same on every platform and in every build), `fs` (files relative to the working
// directory), `num` (en-US / es-AR number formats) and the globals `to_json`,
// `bytes_from_b64`, `bytes_from_hex`. Modules are objects generated code calls through
// fitz::any_method, like `db` and `Date`.
#pragma once

#include <cstdint>

#include "fitz/any.h"

namespace fitz {

// SplitMix64: each step adds 0x9E3779B97F4A7C15 to the state, then mixes.
struct SplitMix64 {
  uint64_t state = 0;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // lo + next mod span, in 128 bits so lo..=hi may cover every Int. Precondition: lo <= hi.
  int64_t int_in(int64_t lo, int64_t hi) {
    unsigned __int128 span = (unsigned __int128)((__int128)hi - (__int128)lo) + 1;
    return int64_t((__int128)lo + (__int128)((unsigned __int128)next() % span));
  }
  double unit() { return double(next() >> 11) * 0x1.0p-53; }  // [0, 1)
};

Any rand_module();
Any fs_module();
Any num_module();
// `sql.now()` / `sql.raw("...")` as values: the ORM inlines them into UPDATE statements at
// compile time; a value that escapes elsewhere only prints as `<sql-expr NOW()>`.
Any sql_module();

// `to_json(x)` of Fitz (named apart from http::to_json, which ADL would otherwise compete with).
Str to_json_text(const Any& value);
Result<Bytes, Str> bytes_from_b64(const Str& text);
Result<Bytes, Str> bytes_from_hex(const Str& text);

}  // namespace fitz
