// Value codecs between C++ types and the Postgres text and binary formats, type OIDs as named
// constants, and Param, the encoded form of one query parameter. Pure functions; every decoder
// validates its input and returns an error value for anything malformed.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "pg/error.h"
#include "pg/messages.h"

namespace fitz::pg {

namespace oid {
inline constexpr Oid kUnspecified = 0;  // let the server infer the parameter type
inline constexpr Oid kBool = 16;
inline constexpr Oid kBytea = 17;
inline constexpr Oid kChar = 18;
inline constexpr Oid kName = 19;
inline constexpr Oid kInt8 = 20;
inline constexpr Oid kInt2 = 21;
inline constexpr Oid kInt4 = 23;
inline constexpr Oid kText = 25;
inline constexpr Oid kOid = 26;
inline constexpr Oid kJson = 114;
inline constexpr Oid kXml = 142;
inline constexpr Oid kFloat4 = 700;
inline constexpr Oid kFloat8 = 701;
inline constexpr Oid kUnknown = 705;
inline constexpr Oid kBoolArray = 1000;
inline constexpr Oid kInt2Array = 1005;
inline constexpr Oid kInt4Array = 1007;
inline constexpr Oid kTextArray = 1009;
inline constexpr Oid kVarcharArray = 1015;
inline constexpr Oid kInt8Array = 1016;
inline constexpr Oid kFloat8Array = 1022;
inline constexpr Oid kBpchar = 1042;
inline constexpr Oid kVarchar = 1043;
inline constexpr Oid kDate = 1082;
inline constexpr Oid kTime = 1083;
inline constexpr Oid kTimestamp = 1114;
inline constexpr Oid kTimestamptz = 1184;
inline constexpr Oid kInterval = 1186;
inline constexpr Oid kNumeric = 1700;
inline constexpr Oid kUuid = 2950;
inline constexpr Oid kJsonb = 3802;
}  // namespace oid

// ---- Value types for Postgres types without an obvious C++ counterpart -------------------

struct Bytea {
  std::string bytes;
  bool operator==(const Bytea&) const = default;
};
// A numeric kept as its decimal text ("-12.500", "NaN", "Infinity"), exact at any precision.
struct Numeric {
  std::string text;
  bool operator==(const Numeric&) const = default;
};
struct Json {
  std::string text;
  bool operator==(const Json&) const = default;
};
struct Jsonb {
  std::string text;
  bool operator==(const Jsonb&) const = default;
};
struct Uuid {
  std::array<uint8_t, 16> bytes{};
  bool operator==(const Uuid&) const = default;
};

// Calendar values in the proleptic Gregorian calendar; year 0 is 1 BC, as in ISO 8601.
struct CivilDate {
  int64_t year = 2000;
  unsigned month = 1;
  unsigned day = 1;
  bool operator==(const CivilDate&) const = default;
};
int64_t days_from_civil(const CivilDate& date);  // days since 2000-01-01
CivilDate civil_from_days(int64_t days);

inline constexpr int64_t kMicrosPerDay = 86'400'000'000;
inline constexpr int64_t kUnixEpochDays = -10957;  // 1970-01-01 relative to 2000-01-01

// date: days since 2000-01-01; INT32_MIN/INT32_MAX are -infinity/infinity.
struct Date {
  int32_t days = 0;
  static constexpr int32_t kNegInfinity = INT32_MIN;
  static constexpr int32_t kInfinity = INT32_MAX;
  static Date from_civil(const CivilDate& date) { return {static_cast<int32_t>(days_from_civil(date))}; }
  bool operator==(const Date&) const = default;
};
// timestamp (without time zone): microseconds since 2000-01-01 00:00:00.
// INT64_MIN/INT64_MAX are -infinity/infinity.
struct Timestamp {
  int64_t micros = 0;
  static constexpr int64_t kNegInfinity = INT64_MIN;
  static constexpr int64_t kInfinity = INT64_MAX;
  bool operator==(const Timestamp&) const = default;
};
// timestamptz: microseconds since 2000-01-01 00:00:00 UTC. Text is written in UTC ("+00").
struct Timestamptz {
  int64_t micros = 0;
  static constexpr int64_t kNegInfinity = INT64_MIN;
  static constexpr int64_t kInfinity = INT64_MAX;
  static Timestamptz from_unix_micros(int64_t unix_micros) {
    return {unix_micros + kUnixEpochDays * kMicrosPerDay};
  }
  int64_t unix_micros() const { return micros - kUnixEpochDays * kMicrosPerDay; }
  bool operator==(const Timestamptz&) const = default;
};

using Int8Array = std::vector<std::optional<int64_t>>;
using TextArray = std::vector<std::optional<std::string>>;

// ---- Codecs -------------------------------------------------------------------------------
// Codec<T> provides:
//   static constexpr Oid oid;                         the type T is sent as
//   static bool accepts(Oid type);                    column types T can be read from
//   static Status encode_text(std::string&, const T&);
//   static Status encode_binary(std::string&, const T&);
//   static Result<T> decode_text(std::string_view);
//   static Result<T> decode_binary(std::string_view);
// Encoders append to the buffer (and leave it unchanged on error).

template <class T>
struct Codec;

#define FITZ_PG_CODEC(Type, TypeOid)                                \
  template <>                                                       \
  struct Codec<Type> {                                              \
    static constexpr Oid oid = TypeOid;                             \
    static bool accepts(Oid type);                                  \
    static Status encode_text(std::string& out, const Type& value);   \
    static Status encode_binary(std::string& out, const Type& value); \
    static Result<Type> decode_text(std::string_view bytes);        \
    static Result<Type> decode_binary(std::string_view bytes);      \
  };

FITZ_PG_CODEC(bool, oid::kBool)
FITZ_PG_CODEC(int16_t, oid::kInt2)
FITZ_PG_CODEC(int32_t, oid::kInt4)
FITZ_PG_CODEC(int64_t, oid::kInt8)  // decodes int2 and int4 too (by length in binary)
FITZ_PG_CODEC(float, oid::kFloat4)
FITZ_PG_CODEC(double, oid::kFloat8)  // decodes float4 too
FITZ_PG_CODEC(std::string, oid::kText)  // text, varchar, name, bpchar; any column in text format
FITZ_PG_CODEC(Bytea, oid::kBytea)
FITZ_PG_CODEC(Numeric, oid::kNumeric)
FITZ_PG_CODEC(Json, oid::kJson)
FITZ_PG_CODEC(Jsonb, oid::kJsonb)
FITZ_PG_CODEC(Uuid, oid::kUuid)
FITZ_PG_CODEC(Date, oid::kDate)
FITZ_PG_CODEC(Timestamp, oid::kTimestamp)
FITZ_PG_CODEC(Timestamptz, oid::kTimestamptz)
FITZ_PG_CODEC(Int8Array, oid::kInt8Array)  // decodes int2[] and int4[] too
FITZ_PG_CODEC(TextArray, oid::kTextArray)  // decodes varchar[], name[], bpchar[] too

#undef FITZ_PG_CODEC

template <class T>
Status encode(std::string& out, const T& value, Format format) {
  return format == Format::Binary ? Codec<T>::encode_binary(out, value) : Codec<T>::encode_text(out, value);
}
template <class T>
Result<T> decode(std::string_view bytes, Format format) {
  return format == Format::Binary ? Codec<T>::decode_binary(bytes) : Codec<T>::decode_text(bytes);
}

// "int8", "text[]", ... or "oid 12345" for types without a constant here.
std::string type_name(Oid type);

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

// Decodes one column value of type `type`: checks that T can be read from that type (any type
// can be read as std::string in text format), maps NULL to nullopt for std::optional<U> and to an
// error otherwise.
template <class T>
Result<T> decode_value(std::optional<std::string_view> value, Format format, Oid type) {
  if constexpr (is_optional<T>::value) {
    if (!value) return T{};
    auto inner = decode_value<typename T::value_type>(value, format, type);
    if (!inner) return std::move(inner).error();
    return T{std::move(*inner)};
  } else {
    bool text_as_string = std::is_same_v<T, std::string> && format == Format::Text;
    if (!text_as_string && !Codec<T>::accepts(type))
      return Error::make(ErrorKind::Decode, sqlstate::kDataException,
                         "cannot read a " + type_name(type) + " column as " + type_name(Codec<T>::oid));
    if (!value)
      return Error::make(ErrorKind::Decode, sqlstate::kNullValueNotAllowed,
                         "unexpected NULL (read the column as an optional)");
    return decode<T>(*value, format);
  }
}

// ---- Parameters ---------------------------------------------------------------------------

// One encoded query parameter: its type OID (0 lets the server infer it), format and bytes.
struct Param {
  Oid type = oid::kUnspecified;
  Format format = Format::Text;
  std::optional<std::string> value;  // nullopt is SQL NULL

  static Param null(Oid type = oid::kUnspecified) { return {type, Format::Text, std::nullopt}; }
  static Param text(std::string value, Oid type = oid::kUnspecified) {
    return {type, Format::Text, std::move(value)};
  }
};

// Encodes `value` as a typed parameter in `format` (binary by default).
template <class T>
Result<Param> to_param(const T& value, Format format = Format::Binary) {
  if constexpr (is_optional<T>::value) {
    if (!value) return Param::null(Codec<typename T::value_type>::oid);
    return to_param(*value, format);
  } else {
    Param p{Codec<T>::oid, format, std::string()};
    if (auto s = encode(*p.value, value, format); !s) return std::move(s).error();
    return p;
  }
}

// ---- Text helpers shared with tests and the runtime ---------------------------------------

// Canonical text of a float as Postgres writes it (shortest round trip, NaN, Infinity).
std::string format_float(double value);
// The 1-D array literal parser behind the text array codecs: `{a,"b c",NULL}`. Quoted "NULL" is a
// string; unquoted NULL (any case) is SQL NULL.
Result<std::vector<std::optional<std::string>>> parse_text_array(std::string_view text);
// Appends a text array element, quoting it when Postgres would.
void append_array_element(std::string& out, std::string_view element);

}  // namespace fitz::pg
