// `DateTime` and `Uuid`, the claim helpers of services (`"exp": DateTime.now().timestamp() +
// 3600`, `"jti": Uuid.v4()`). Generated code reaches them through the module objects, like
// `db` and `jwt`: fitz::any_method(fitz::datetime_module(), "now", {}, pos).
//
//   DateTime.now()           a DateTime (UTC, microsecond precision) held in Any
//   dt.timestamp()           Int: seconds since 1970-01-01 00:00:00 UTC
//   print(dt)                2026-11-30T15:24:13Z
//   Uuid.v4()                Str: a random version 4 UUID, "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx"
#pragma once

#include "fitz/any.h"

namespace fitz {

Any datetime_module();
Any uuid_module();
// A DateTime of `unix_micros` microseconds since the epoch (tests, other runtimes).
Any datetime_from_unix_micros(int64_t unix_micros);
// The microseconds since the epoch of a DateTime held in `v`; false when `v` holds another value
// (query parameters send a DateTime as timestamptz).
bool datetime_unix_micros(const Any& v, int64_t* unix_micros);

}  // namespace fitz
