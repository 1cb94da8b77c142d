// Codecs for one-dimensional int8[] and text[]. Binary: ndim, has-null flag, element OID, then
// (size, lower bound) per dimension and (length, bytes) per element with -1 for NULL. Text: the
// `{a,"b c",NULL}` literal with double-quote and backslash quoting.
#include "pg/ascii_space.h"
#include "pg/codecs.h"
#include "pg/codecs_internal.h"
#include "pg/wire.h"

namespace fitz::pg {
using namespace codec_detail;

namespace {

constexpr int32_t kMaxDimensions = 6;  // the server's MAXDIM


bool iequals_null(std::string_view s) {
  return s.size() == 4 && (s[0] == 'N' || s[0] == 'n') && (s[1] == 'U' || s[1] == 'u') &&
         (s[2] == 'L' || s[2] == 'l') && (s[3] == 'L' || s[3] == 'l');
}

template <class Element>
void encode_binary_array(std::string& out, Oid element_oid, const std::vector<std::optional<Element>>& values,
                         void (*put)(std::string&, const Element&)) {
  bool has_null = false;
  for (const auto& v : values) has_null = has_null || !v;
  wire::put_i32(out, values.empty() ? 0 : 1);
  wire::put_i32(out, has_null ? 1 : 0);
  wire::put_u32(out, element_oid);
  if (values.empty()) return;
  wire::put_i32(out, static_cast<int32_t>(values.size()));
  wire::put_i32(out, 1);  // lower bound
  for (const auto& v : values) {
    if (!v) {
      wire::put_i32(out, -1);
      continue;
    }
    std::size_t at = out.size();
    wire::put_i32(out, 0);
    put(out, *v);
    wire::patch_i32(out, at, static_cast<int32_t>(out.size() - at - 4));
  }
}

// Reads the header of a binary array and calls `element` for each (possibly NULL) element.
template <class F>
Status decode_binary_array(std::string_view b, std::string_view type, Oid& element_oid, F element) {
  wire::Reader r(b);
  int32_t ndim = 0, flags = 0;
  if (!r.i32(ndim) || !r.i32(flags) || !r.u32(element_oid)) return binary_error(type, "truncated header");
  if (ndim < 0 || ndim > kMaxDimensions) return binary_error(type, "invalid number of dimensions");
  if (flags != 0 && flags != 1) return binary_error(type, "invalid flags");
  if (ndim == 0) {
    if (!r.at_end()) return binary_error(type, "trailing bytes after an empty array");
    return {};
  }
  if (ndim > 1)
    return Error::make(ErrorKind::Unsupported, sqlstate::kFeatureNotSupported,
                       "multidimensional arrays are not supported");
  int32_t size = 0, lower = 0;
  if (!r.i32(size) || !r.i32(lower) || size < 0) return binary_error(type, "invalid dimension");
  if (static_cast<std::size_t>(size) > r.remaining() / 4) return binary_error(type, "more elements than bytes");
  for (int32_t i = 0; i < size; ++i) {
    int32_t length = 0;
    if (!r.i32(length) || length < -1) return binary_error(type, "invalid element length");
    if (length == -1) {
      if (auto s = element(std::optional<std::string_view>{}); !s) return s;
      continue;
    }
    std::string_view bytes;
    if (!r.bytes(static_cast<std::size_t>(length), bytes)) return binary_error(type, "element runs past the value");
    if (auto s = element(std::optional<std::string_view>{bytes}); !s) return s;
  }
  if (!r.at_end()) return binary_error(type, "trailing bytes");
  return {};
}

}  // namespace

Result<std::vector<std::optional<std::string>>> parse_text_array(std::string_view text) {
  std::vector<std::optional<std::string>> out;
  std::string_view t = text;
  std::size_t i = 0;
  auto bad = [&] { return text_error("array", text); };
  auto skip_space = [&] { while (i < t.size() && is_ascii_space(t[i])) ++i; };
  skip_space();
  // Optional dimension decoration "[lo:hi]=" written when the lower bound is not 1.
  if (i < t.size() && t[i] == '[') {
    std::size_t eq = t.find('=', i);
    if (eq == std::string_view::npos) return bad();
    if (t.find('[', i + 1) < eq) return Error::make(ErrorKind::Unsupported, sqlstate::kFeatureNotSupported,
                                                    "multidimensional arrays are not supported");
    i = eq + 1;
    skip_space();
  }
  if (i >= t.size() || t[i] != '{') return bad();
  ++i;
  skip_space();
  if (i < t.size() && t[i] == '}') {
    ++i;
  } else {
    for (;;) {
      skip_space();
      if (i >= t.size()) return bad();
      if (t[i] == '{')
        return Error::make(ErrorKind::Unsupported, sqlstate::kFeatureNotSupported,
                           "multidimensional arrays are not supported");
      std::string element;
      bool quoted = false, escaped = false;
      if (t[i] == '"') {
        quoted = true;
        ++i;
        for (;;) {
          if (i >= t.size()) return bad();
          char c = t[i++];
          if (c == '"') break;
          if (c == '\\') {
            if (i >= t.size()) return bad();
            c = t[i++];
          }
          element.push_back(c);
        }
        skip_space();
      } else {
        std::size_t keep = 0;  // length up to the last non-space or escaped character
        for (;;) {
          if (i >= t.size()) return bad();
          char c = t[i];
          if (c == ',' || c == '}') break;
          if (c == '"' || c == '{') return bad();
          ++i;
          if (c == '\\') {
            if (i >= t.size()) return bad();
            element.push_back(t[i++]);
            escaped = true;
            keep = element.size();
            continue;
          }
          element.push_back(c);
          if (!is_ascii_space(c)) keep = element.size();
        }
        element.resize(keep);
        if (element.empty() && !escaped) return bad();
      }
      if (!quoted && !escaped && iequals_null(element)) out.emplace_back(std::nullopt);
      else out.emplace_back(std::move(element));
      if (i >= t.size()) return bad();
      if (t[i] == ',') { ++i; continue; }
      if (t[i] == '}') { ++i; break; }
      return bad();
    }
  }
  skip_space();
  if (i != t.size()) return bad();
  return out;
}

void append_array_element(std::string& out, std::string_view element) {
  bool quote = element.empty() || iequals_null(element);
  for (char c : element)
    if (c == '{' || c == '}' || c == ',' || c == '"' || c == '\\' || is_ascii_space(c)) quote = true;
  if (!quote) {
    out.append(element);
    return;
  }
  out.push_back('"');
  for (char c : element) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('"');
}

// ---- int8[] -------------------------------------------------------------------------------

bool Codec<Int8Array>::accepts(Oid type) {
  return type == oid::kInt8Array || type == oid::kInt4Array || type == oid::kInt2Array;
}
Status Codec<Int8Array>::encode_text(std::string& out, const Int8Array& v) {
  out.push_back('{');
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out.push_back(',');
    if (v[i]) (void)Codec<int64_t>::encode_text(out, *v[i]);
    else out += "NULL";
  }
  out.push_back('}');
  return {};
}
Status Codec<Int8Array>::encode_binary(std::string& out, const Int8Array& v) {
  encode_binary_array<int64_t>(out, oid::kInt8, v, [](std::string& o, const int64_t& x) { wire::put_i64(o, x); });
  return {};
}
Result<Int8Array> Codec<Int8Array>::decode_text(std::string_view t) {
  auto elements = parse_text_array(t);
  if (!elements) return std::move(elements).error();
  Int8Array out;
  out.reserve(elements->size());
  for (const auto& e : *elements) {
    if (!e) { out.emplace_back(std::nullopt); continue; }
    auto v = parse_int<int64_t>(*e, "int8");
    if (!v) return std::move(v).error();
    out.emplace_back(*v);
  }
  return out;
}
Result<Int8Array> Codec<Int8Array>::decode_binary(std::string_view b) {
  Int8Array out;
  Oid element_oid = 0;
  auto status = decode_binary_array(b, "int8[]", element_oid, [&](std::optional<std::string_view> e) -> Status {
    if (!e) { out.emplace_back(std::nullopt); return {}; }
    if (!Codec<int64_t>::accepts(element_oid)) return binary_error("int8[]", "element type is " + type_name(element_oid));
    auto v = Codec<int64_t>::decode_binary(*e);
    if (!v) return std::move(v).error();
    out.emplace_back(*v);
    return {};
  });
  if (!status) return std::move(status).error();
  return out;
}

// ---- text[] -------------------------------------------------------------------------------

bool Codec<TextArray>::accepts(Oid type) {
  return type == oid::kTextArray || type == oid::kVarcharArray || type == 1003 /* name[] */ ||
         type == 1014 /* bpchar[] */;
}
Status Codec<TextArray>::encode_text(std::string& out, const TextArray& v) {
  out.push_back('{');
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out.push_back(',');
    if (v[i]) append_array_element(out, *v[i]);
    else out += "NULL";
  }
  out.push_back('}');
  return {};
}
Status Codec<TextArray>::encode_binary(std::string& out, const TextArray& v) {
  encode_binary_array<std::string>(out, oid::kText, v, [](std::string& o, const std::string& x) { o.append(x); });
  return {};
}
Result<TextArray> Codec<TextArray>::decode_text(std::string_view t) { return parse_text_array(t); }
Result<TextArray> Codec<TextArray>::decode_binary(std::string_view b) {
  TextArray out;
  Oid element_oid = 0;
  auto status = decode_binary_array(b, "text[]", element_oid, [&](std::optional<std::string_view> e) -> Status {
    if (!Codec<std::string>::accepts(element_oid)) return binary_error("text[]", "element type is " + type_name(element_oid));
    if (e) out.emplace_back(std::string(*e));
    else out.emplace_back(std::nullopt);
    return {};
  });
  if (!status) return std::move(status).error();
  return out;
}

}  // namespace fitz::pg
