// Codecs for the scalar types: bool, integers, floats, text, bytea, json/jsonb and uuid.
// Numeric, dates/timestamps and arrays are in codecs_numeric.cpp, codecs_time.cpp and
// codecs_array.cpp.
#include "pg/codecs.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <limits>

#include "pg/codecs_internal.h"
#include "pg/wire.h"

namespace fitz::pg {

namespace codec_detail {

Error text_error(std::string_view type, std::string_view text) {
  std::string shown(text.substr(0, 64));
  return Error::make(ErrorKind::Decode, sqlstate::kInvalidTextRepresentation,
                     "invalid input for " + std::string(type) + ": \"" + shown + "\"");
}

Error binary_error(std::string_view type, std::string_view why) {
  return Error::make(ErrorKind::Decode, sqlstate::kInvalidBinaryRepresentation,
                     "invalid binary " + std::string(type) + ": " + std::string(why));
}

Error length_error(std::string_view type, std::size_t expected, std::size_t got) {
  return binary_error(type, "expected " + std::to_string(expected) + " bytes, got " + std::to_string(got));
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

template <class Int>
Result<Int> parse_int(std::string_view text, std::string_view type) {
  Int v{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec == std::errc::result_out_of_range)
    return Error::make(ErrorKind::Decode, sqlstate::kNumericOutOfRange,
                       "value \"" + std::string(text.substr(0, 64)) + "\" is out of range for " + std::string(type));
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return text_error(type, text);
  return v;
}
template Result<int16_t> parse_int<int16_t>(std::string_view, std::string_view);
template Result<int32_t> parse_int<int32_t>(std::string_view, std::string_view);
template Result<int64_t> parse_int<int64_t>(std::string_view, std::string_view);

}  // namespace codec_detail

using namespace codec_detail;

namespace {

template <class Int>
void append_int(std::string& out, Int v) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

template <class Float>
Result<Float> parse_float(std::string_view text, std::string_view type) {
  if (text == "NaN") return std::numeric_limits<Float>::quiet_NaN();
  if (text == "Infinity") return std::numeric_limits<Float>::infinity();
  if (text == "-Infinity") return -std::numeric_limits<Float>::infinity();
  Float v{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec == std::errc::result_out_of_range)
    return Error::make(ErrorKind::Decode, sqlstate::kNumericOutOfRange,
                       "value \"" + std::string(text.substr(0, 64)) + "\" is out of range for " + std::string(type));
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return text_error(type, text);
  return v;
}

template <class Float>
void append_float(std::string& out, Float v) {
  if (std::isnan(v)) { out += "NaN"; return; }
  if (std::isinf(v)) { out += v > 0 ? "Infinity" : "-Infinity"; return; }
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

bool is_text_type(Oid type) {
  return type == oid::kText || type == oid::kVarchar || type == oid::kName || type == oid::kBpchar ||
         type == oid::kUnknown || type == oid::kChar || type == oid::kXml || type == oid::kJson;
}

constexpr char kHexDigits[] = "0123456789abcdef";

}  // namespace

std::string format_float(double value) {
  std::string out;
  append_float(out, value);
  return out;
}

std::string type_name(Oid type) {
  switch (type) {
    case oid::kUnspecified: return "unspecified";
    case oid::kBool: return "bool";
    case oid::kBytea: return "bytea";
    case oid::kChar: return "char";
    case oid::kName: return "name";
    case oid::kInt8: return "int8";
    case oid::kInt2: return "int2";
    case oid::kInt4: return "int4";
    case oid::kText: return "text";
    case oid::kOid: return "oid";
    case oid::kJson: return "json";
    case oid::kXml: return "xml";
    case oid::kFloat4: return "float4";
    case oid::kFloat8: return "float8";
    case oid::kUnknown: return "unknown";
    case oid::kBoolArray: return "bool[]";
    case oid::kInt2Array: return "int2[]";
    case oid::kInt4Array: return "int4[]";
    case oid::kTextArray: return "text[]";
    case oid::kVarcharArray: return "varchar[]";
    case oid::kInt8Array: return "int8[]";
    case oid::kFloat8Array: return "float8[]";
    case oid::kBpchar: return "bpchar";
    case oid::kVarchar: return "varchar";
    case oid::kDate: return "date";
    case oid::kTime: return "time";
    case oid::kTimestamp: return "timestamp";
    case oid::kTimestamptz: return "timestamptz";
    case oid::kInterval: return "interval";
    case oid::kNumeric: return "numeric";
    case oid::kUuid: return "uuid";
    case oid::kJsonb: return "jsonb";
    default: return "oid " + std::to_string(type);
  }
}

// ---- bool ---------------------------------------------------------------------------------

bool Codec<bool>::accepts(Oid type) { return type == oid::kBool; }
Status Codec<bool>::encode_text(std::string& out, const bool& v) {
  out.push_back(v ? 't' : 'f');
  return {};
}
Status Codec<bool>::encode_binary(std::string& out, const bool& v) {
  out.push_back(v ? '\1' : '\0');
  return {};
}
Result<bool> Codec<bool>::decode_text(std::string_view t) {
  if (t == "t" || t == "true") return true;
  if (t == "f" || t == "false") return false;
  return text_error("bool", t);
}
Result<bool> Codec<bool>::decode_binary(std::string_view b) {
  if (b.size() != 1) return length_error("bool", 1, b.size());
  if (b[0] != 0 && b[0] != 1) return binary_error("bool", "byte is neither 0 nor 1");
  return b[0] == 1;
}

// ---- integers -----------------------------------------------------------------------------

bool Codec<int16_t>::accepts(Oid type) { return type == oid::kInt2; }
Status Codec<int16_t>::encode_text(std::string& out, const int16_t& v) { append_int(out, v); return {}; }
Status Codec<int16_t>::encode_binary(std::string& out, const int16_t& v) { wire::put_i16(out, v); return {}; }
Result<int16_t> Codec<int16_t>::decode_text(std::string_view t) { return parse_int<int16_t>(t, "int2"); }
Result<int16_t> Codec<int16_t>::decode_binary(std::string_view b) {
  if (b.size() != 2) return length_error("int2", 2, b.size());
  return static_cast<int16_t>(wire::load_u16(b.data()));
}

bool Codec<int32_t>::accepts(Oid type) { return type == oid::kInt4 || type == oid::kInt2; }
Status Codec<int32_t>::encode_text(std::string& out, const int32_t& v) { append_int(out, v); return {}; }
Status Codec<int32_t>::encode_binary(std::string& out, const int32_t& v) { wire::put_i32(out, v); return {}; }
Result<int32_t> Codec<int32_t>::decode_text(std::string_view t) { return parse_int<int32_t>(t, "int4"); }
Result<int32_t> Codec<int32_t>::decode_binary(std::string_view b) {
  if (b.size() == 2) return static_cast<int32_t>(static_cast<int16_t>(wire::load_u16(b.data())));
  if (b.size() != 4) return length_error("int4", 4, b.size());
  return static_cast<int32_t>(wire::load_u32(b.data()));
}

bool Codec<int64_t>::accepts(Oid type) {
  return type == oid::kInt8 || type == oid::kInt4 || type == oid::kInt2 || type == oid::kOid;
}
Status Codec<int64_t>::encode_text(std::string& out, const int64_t& v) { append_int(out, v); return {}; }
Status Codec<int64_t>::encode_binary(std::string& out, const int64_t& v) { wire::put_i64(out, v); return {}; }
Result<int64_t> Codec<int64_t>::decode_text(std::string_view t) { return parse_int<int64_t>(t, "int8"); }
Result<int64_t> Codec<int64_t>::decode_binary(std::string_view b) {
  if (b.size() == 2) return static_cast<int64_t>(static_cast<int16_t>(wire::load_u16(b.data())));
  if (b.size() == 4) return static_cast<int64_t>(static_cast<int32_t>(wire::load_u32(b.data())));
  if (b.size() != 8) return length_error("int8", 8, b.size());
  return static_cast<int64_t>(wire::load_u64(b.data()));
}

// ---- floats -------------------------------------------------------------------------------

bool Codec<float>::accepts(Oid type) { return type == oid::kFloat4; }
Status Codec<float>::encode_text(std::string& out, const float& v) { append_float(out, v); return {}; }
Status Codec<float>::encode_binary(std::string& out, const float& v) {
  wire::put_u32(out, std::bit_cast<uint32_t>(v));
  return {};
}
Result<float> Codec<float>::decode_text(std::string_view t) { return parse_float<float>(t, "float4"); }
Result<float> Codec<float>::decode_binary(std::string_view b) {
  if (b.size() != 4) return length_error("float4", 4, b.size());
  return std::bit_cast<float>(wire::load_u32(b.data()));
}

bool Codec<double>::accepts(Oid type) { return type == oid::kFloat8 || type == oid::kFloat4; }
Status Codec<double>::encode_text(std::string& out, const double& v) { append_float(out, v); return {}; }
Status Codec<double>::encode_binary(std::string& out, const double& v) {
  wire::put_u64(out, std::bit_cast<uint64_t>(v));
  return {};
}
Result<double> Codec<double>::decode_text(std::string_view t) { return parse_float<double>(t, "float8"); }
Result<double> Codec<double>::decode_binary(std::string_view b) {
  if (b.size() == 4) return static_cast<double>(std::bit_cast<float>(wire::load_u32(b.data())));
  if (b.size() != 8) return length_error("float8", 8, b.size());
  return std::bit_cast<double>(wire::load_u64(b.data()));
}

// ---- text ---------------------------------------------------------------------------------

bool Codec<std::string>::accepts(Oid type) { return is_text_type(type); }
Status Codec<std::string>::encode_text(std::string& out, const std::string& v) { out.append(v); return {}; }
Status Codec<std::string>::encode_binary(std::string& out, const std::string& v) { out.append(v); return {}; }
Result<std::string> Codec<std::string>::decode_text(std::string_view t) { return std::string(t); }
Result<std::string> Codec<std::string>::decode_binary(std::string_view b) { return std::string(b); }

// ---- bytea --------------------------------------------------------------------------------

bool Codec<Bytea>::accepts(Oid type) { return type == oid::kBytea; }
Status Codec<Bytea>::encode_text(std::string& out, const Bytea& v) {
  out.reserve(out.size() + 2 + 2 * v.bytes.size());
  out += "\\x";
  for (char c : v.bytes) {
    auto b = static_cast<uint8_t>(c);
    out.push_back(kHexDigits[b >> 4]);
    out.push_back(kHexDigits[b & 15]);
  }
  return {};
}
Status Codec<Bytea>::encode_binary(std::string& out, const Bytea& v) { out.append(v.bytes); return {}; }
Result<Bytea> Codec<Bytea>::decode_text(std::string_view t) {
  Bytea out;
  if (t.size() >= 2 && t[0] == '\\' && t[1] == 'x') {
    // Hex format; the server's input also allows whitespace between pairs.
    out.bytes.reserve((t.size() - 2) / 2);
    for (std::size_t i = 2; i < t.size();) {
      char c = t[i];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') { ++i; continue; }
      if (i + 1 >= t.size()) return text_error("bytea", t);
      int hi = hex_value(t[i]), lo = hex_value(t[i + 1]);
      if (hi < 0 || lo < 0) return text_error("bytea", t);
      out.bytes.push_back(static_cast<char>(hi << 4 | lo));
      i += 2;
    }
    return out;
  }
  // Escape format (bytea_output = 'escape'): \\ and \ooo; everything else is literal.
  for (std::size_t i = 0; i < t.size();) {
    if (t[i] != '\\') { out.bytes.push_back(t[i++]); continue; }
    if (i + 1 < t.size() && t[i + 1] == '\\') { out.bytes.push_back('\\'); i += 2; continue; }
    if (i + 3 < t.size() && t[i + 1] >= '0' && t[i + 1] <= '3' && t[i + 2] >= '0' && t[i + 2] <= '7' &&
        t[i + 3] >= '0' && t[i + 3] <= '7') {
      out.bytes.push_back(static_cast<char>((t[i + 1] - '0') * 64 + (t[i + 2] - '0') * 8 + (t[i + 3] - '0')));
      i += 4;
      continue;
    }
    return text_error("bytea", t);
  }
  return out;
}
Result<Bytea> Codec<Bytea>::decode_binary(std::string_view b) { return Bytea{std::string(b)}; }

// ---- json / jsonb -------------------------------------------------------------------------

bool Codec<Json>::accepts(Oid type) { return type == oid::kJson; }
Status Codec<Json>::encode_text(std::string& out, const Json& v) { out.append(v.text); return {}; }
Status Codec<Json>::encode_binary(std::string& out, const Json& v) { out.append(v.text); return {}; }
Result<Json> Codec<Json>::decode_text(std::string_view t) { return Json{std::string(t)}; }
Result<Json> Codec<Json>::decode_binary(std::string_view b) { return Json{std::string(b)}; }

bool Codec<Jsonb>::accepts(Oid type) { return type == oid::kJsonb; }
Status Codec<Jsonb>::encode_text(std::string& out, const Jsonb& v) { out.append(v.text); return {}; }
Status Codec<Jsonb>::encode_binary(std::string& out, const Jsonb& v) {
  out.push_back('\1');  // jsonb binary format version
  out.append(v.text);
  return {};
}
Result<Jsonb> Codec<Jsonb>::decode_text(std::string_view t) { return Jsonb{std::string(t)}; }
Result<Jsonb> Codec<Jsonb>::decode_binary(std::string_view b) {
  if (b.empty()) return binary_error("jsonb", "missing version byte");
  if (b[0] != 1) return binary_error("jsonb", "unsupported version " + std::to_string(static_cast<uint8_t>(b[0])));
  return Jsonb{std::string(b.substr(1))};
}

// ---- uuid ---------------------------------------------------------------------------------

bool Codec<Uuid>::accepts(Oid type) { return type == oid::kUuid; }
Status Codec<Uuid>::encode_text(std::string& out, const Uuid& v) {
  for (std::size_t i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kHexDigits[v.bytes[i] >> 4]);
    out.push_back(kHexDigits[v.bytes[i] & 15]);
  }
  return {};
}
Status Codec<Uuid>::encode_binary(std::string& out, const Uuid& v) {
  out.append(reinterpret_cast<const char*>(v.bytes.data()), v.bytes.size());
  return {};
}
Result<Uuid> Codec<Uuid>::decode_text(std::string_view t) {
  // Canonical 8-4-4-4-12 or 32 bare hex digits, either case, optionally in braces.
  std::string_view s = t;
  if (s.size() >= 2 && s.front() == '{' && s.back() == '}') s = s.substr(1, s.size() - 2);
  bool hyphens = s.size() == 36;
  if (!hyphens && s.size() != 32) return text_error("uuid", t);
  Uuid out;
  std::size_t pos = 0;
  for (std::size_t i = 0; i < 16; ++i) {
    if (hyphens && (i == 4 || i == 6 || i == 8 || i == 10)) {
      if (s[pos] != '-') return text_error("uuid", t);
      ++pos;
    }
    int hi = hex_value(s[pos]), lo = hex_value(s[pos + 1]);
    if (hi < 0 || lo < 0) return text_error("uuid", t);
    out.bytes[i] = static_cast<uint8_t>(hi << 4 | lo);
    pos += 2;
  }
  return out;
}
Result<Uuid> Codec<Uuid>::decode_binary(std::string_view b) {
  if (b.size() != 16) return length_error("uuid", 16, b.size());
  Uuid out;
  for (std::size_t i = 0; i < 16; ++i) out.bytes[i] = static_cast<uint8_t>(b[i]);
  return out;
}

}  // namespace fitz::pg
