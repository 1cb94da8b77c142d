// Parsers for every backend message body (declared in messages.h). Each checks every length
// against the body and rejects trailing bytes, so malformed input yields an error, never UB.
#include <algorithm>
#include <charconv>

#include "pg/messages.h"
#include "pg/wire.h"

namespace fitz::pg {
namespace {

Error malformed(char tag, std::string_view why) {
  return Error::protocol("malformed " + std::string(backend_message_name(tag)) + " message: " +
                         std::string(why));
}

Result<BackendMessage> done(char tag, wire::Reader& r, BackendMessage message) {
  if (!r.at_end()) return malformed(tag, "unexpected trailing bytes");
  return message;
}

bool read_format(wire::Reader& r, Format& format) {
  int16_t code = 0;
  if (!r.i16(code) || (code != 0 && code != 1)) return false;
  format = static_cast<Format>(code);
  return true;
}

Result<BackendMessage> parse_authentication(std::string_view body) {
  wire::Reader r(body);
  int32_t code = 0;
  if (!r.i32(code)) return malformed('R', "missing authentication code");
  switch (code) {
    case 0: return done('R', r, AuthenticationOk{});
    case 3: return done('R', r, AuthenticationCleartextPassword{});
    case 5: {
      AuthenticationMd5Password m;
      std::string_view salt;
      if (!r.bytes(4, salt)) return malformed('R', "MD5 salt shorter than 4 bytes");
      for (int i = 0; i < 4; ++i) m.salt[i] = static_cast<uint8_t>(salt[i]);
      return done('R', r, m);
    }
    case 10: {
      AuthenticationSasl m;
      for (;;) {
        std::string_view mechanism;
        if (!r.cstring(mechanism)) return malformed('R', "unterminated SASL mechanism list");
        if (mechanism.empty()) break;
        m.mechanisms.push_back(mechanism);
      }
      return done('R', r, std::move(m));
    }
    case 11: return AuthenticationSaslContinue{r.rest()};
    case 12: return AuthenticationSaslFinal{r.rest()};
    case 2:   // KerberosV5
    case 6:   // SCM credentials
    case 7:   // GSSAPI
    case 8:   // GSSAPI continue
    case 9:   // SSPI
      return AuthenticationUnsupported{code};
    default:
      return malformed('R', "unknown authentication code " + std::to_string(code));
  }
}

Result<NoticeFields> parse_notice_fields(char tag, std::string_view body) {
  wire::Reader r(body);
  NoticeFields f;
  for (;;) {
    uint8_t code = 0;
    if (!r.u8(code)) return malformed(tag, "missing field terminator");
    if (code == 0) break;
    std::string_view value;
    if (!r.cstring(value)) return malformed(tag, "unterminated field value");
    std::string* slot = nullptr;
    switch (code) {
      case 'S': slot = &f.severity; break;
      case 'V': slot = &f.severity_nonlocalized; break;
      case 'C': slot = &f.code; break;
      case 'M': slot = &f.message; break;
      case 'D': slot = &f.detail; break;
      case 'H': slot = &f.hint; break;
      case 'P': slot = &f.position; break;
      case 'p': slot = &f.internal_position; break;
      case 'q': slot = &f.internal_query; break;
      case 'W': slot = &f.where; break;
      case 's': slot = &f.schema; break;
      case 't': slot = &f.table; break;
      case 'c': slot = &f.column; break;
      case 'd': slot = &f.data_type; break;
      case 'n': slot = &f.constraint; break;
      case 'F': slot = &f.file; break;
      case 'L': slot = &f.line; break;
      case 'R': slot = &f.routine; break;
      default: break;  // the protocol says to ignore unknown field types
    }
    if (slot) slot->assign(value);
  }
  if (!r.at_end()) return malformed(tag, "unexpected trailing bytes");
  return f;
}

Result<BackendMessage> parse_row_description(std::string_view body) {
  wire::Reader r(body);
  int16_t count = 0;
  if (!r.i16(count) || count < 0) return malformed('T', "bad field count");
  RowDescription m;
  // Each field takes at least 19 bytes; do not let a bogus count reserve more than the body holds.
  m.fields.reserve(std::min(static_cast<std::size_t>(count), body.size() / 19));
  for (int16_t i = 0; i < count; ++i) {
    FieldDescription f;
    uint32_t table = 0, type = 0;
    if (!r.cstring(f.name)) return malformed('T', "unterminated field name");
    if (!r.u32(table) || !r.i16(f.column_id) || !r.u32(type) || !r.i16(f.type_size) ||
        !r.i32(f.type_modifier))
      return malformed('T', "truncated field description");
    if (!read_format(r, f.format)) return malformed('T', "bad format code");
    f.table_oid = table;
    f.type_oid = type;
    m.fields.push_back(f);
  }
  return done('T', r, std::move(m));
}

Result<BackendMessage> parse_data_row(std::string_view body) {
  wire::Reader r(body);
  int16_t count = 0;
  if (!r.i16(count) || count < 0) return malformed('D', "bad column count");
  std::string_view values = r.rest();
  for (int16_t i = 0; i < count; ++i) {
    int32_t length = 0;
    if (!r.i32(length)) return malformed('D', "truncated column length");
    if (length < -1) return malformed('D', "negative column length");
    std::string_view value;
    if (length > 0 && !r.bytes(static_cast<std::size_t>(length), value))
      return malformed('D', "column value runs past the message");
  }
  return done('D', r, DataRow(count, values));
}

template <class M>
Result<BackendMessage> parse_copy_response(char tag, std::string_view body) {
  wire::Reader r(body);
  M m;
  uint8_t overall = 0;
  int16_t count = 0;
  if (!r.u8(overall) || overall > 1) return malformed(tag, "bad overall format");
  m.format = static_cast<Format>(overall);
  if (!r.i16(count) || count < 0) return malformed(tag, "bad column count");
  m.column_formats.reserve(static_cast<std::size_t>(count));
  for (int16_t i = 0; i < count; ++i) {
    Format f;
    if (!read_format(r, f)) return malformed(tag, "bad column format");
    m.column_formats.push_back(f);
  }
  return done(tag, r, std::move(m));
}

}  // namespace

std::string_view backend_message_name(char tag) {
  switch (tag) {
    case 'R': return "Authentication";
    case 'S': return "ParameterStatus";
    case 'K': return "BackendKeyData";
    case 'Z': return "ReadyForQuery";
    case 'T': return "RowDescription";
    case 'D': return "DataRow";
    case 'C': return "CommandComplete";
    case 'I': return "EmptyQueryResponse";
    case 'E': return "ErrorResponse";
    case 'N': return "NoticeResponse";
    case '1': return "ParseComplete";
    case '2': return "BindComplete";
    case '3': return "CloseComplete";
    case 'n': return "NoData";
    case 's': return "PortalSuspended";
    case 't': return "ParameterDescription";
    case 'A': return "NotificationResponse";
    case 'G': return "CopyInResponse";
    case 'H': return "CopyOutResponse";
    case 'W': return "CopyBothResponse";
    case 'd': return "CopyData";
    case 'c': return "CopyDone";
    case 'v': return "NegotiateProtocolVersion";
    case 'V': return "FunctionCallResponse";
    default: return "unknown";
  }
}

std::optional<uint64_t> command_tag_rows(std::string_view tag) {
  static constexpr std::string_view kCounted[] = {"INSERT", "DELETE", "UPDATE", "SELECT",
                                                  "MERGE",  "MOVE",   "FETCH",  "COPY"};
  std::string_view verb = tag.substr(0, tag.find(' '));
  bool counted = false;
  for (auto v : kCounted) counted = counted || v == verb;
  if (!counted) return std::nullopt;
  std::size_t space = tag.rfind(' ');
  if (space == std::string_view::npos) return std::nullopt;
  std::string_view digits = tag.substr(space + 1);
  uint64_t rows = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), rows);
  if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty()) return std::nullopt;
  return rows;
}

std::string_view message_name(const BackendMessage& message) {
  static constexpr std::string_view kNames[] = {
      "AuthenticationOk", "AuthenticationCleartextPassword", "AuthenticationMD5Password",
      "AuthenticationSASL", "AuthenticationSASLContinue", "AuthenticationSASLFinal",
      "Authentication (unsupported method)", "ParameterStatus", "BackendKeyData", "ReadyForQuery",
      "RowDescription", "DataRow", "CommandComplete", "EmptyQueryResponse", "ErrorResponse",
      "NoticeResponse", "ParseComplete", "BindComplete", "CloseComplete", "NoData",
      "PortalSuspended", "ParameterDescription", "NotificationResponse", "CopyInResponse",
      "CopyOutResponse", "CopyBothResponse", "CopyData", "CopyDone", "NegotiateProtocolVersion",
      "FunctionCallResponse"};
  static_assert(std::size(kNames) == std::variant_size_v<BackendMessage>);
  return kNames[message.index()];
}

Error unexpected_message(const BackendMessage& message, std::string_view during) {
  return Error::protocol("unexpected " + std::string(message_name(message)) + " " + std::string(during));
}

bool is_async_message(const BackendMessage& message) {
  return std::holds_alternative<NoticeResponse>(message) ||
         std::holds_alternative<NotificationResponse>(message) ||
         std::holds_alternative<ParameterStatus>(message);
}

std::optional<std::string_view> DataRow::iterator::operator*() const {
  auto length = static_cast<int32_t>(wire::load_u32(p_));
  if (length < 0) return std::nullopt;
  return std::string_view(p_ + 4, static_cast<std::size_t>(length));
}

DataRow::iterator& DataRow::iterator::operator++() {
  auto length = static_cast<int32_t>(wire::load_u32(p_));
  p_ += 4 + (length > 0 ? length : 0);
  --remaining_;
  return *this;
}

std::vector<std::optional<std::string_view>> DataRow::values() const {
  std::vector<std::optional<std::string_view>> out;
  out.reserve(size());
  for (auto v : *this) out.push_back(v);
  return out;
}

Result<BackendMessage> decode_message(char tag, std::string_view body) {
  wire::Reader r(body);
  switch (tag) {
    case 'R': return parse_authentication(body);
    case 'S': {
      ParameterStatus m;
      if (!r.cstring(m.name) || !r.cstring(m.value)) return malformed(tag, "unterminated string");
      return done(tag, r, m);
    }
    case 'K': {
      BackendKeyData m;
      if (!r.i32(m.process_id)) return malformed(tag, "missing process id");
      m.secret_key = r.rest();
      if (m.secret_key.size() < 4 || m.secret_key.size() > 256) return malformed(tag, "bad secret key length");
      return m;
    }
    case 'Z': {
      uint8_t status = 0;
      if (!r.u8(status)) return malformed(tag, "missing transaction status");
      if (status != 'I' && status != 'T' && status != 'E') return malformed(tag, "unknown transaction status");
      return done(tag, r, ReadyForQuery{static_cast<TransactionStatus>(status)});
    }
    case 'T': return parse_row_description(body);
    case 'D': return parse_data_row(body);
    case 'C': {
      CommandComplete m;
      if (!r.cstring(m.tag)) return malformed(tag, "unterminated command tag");
      m.rows = command_tag_rows(m.tag);
      return done(tag, r, m);
    }
    case 'E':
    case 'N': {
      auto fields = parse_notice_fields(tag, body);
      if (!fields) return std::move(fields).error();
      if (tag == 'E') return ErrorResponse{std::move(*fields)};
      return NoticeResponse{std::move(*fields)};
    }
    case 'I': return done(tag, r, EmptyQueryResponse{});
    case '1': return done(tag, r, ParseComplete{});
    case '2': return done(tag, r, BindComplete{});
    case '3': return done(tag, r, CloseComplete{});
    case 'n': return done(tag, r, NoData{});
    case 's': return done(tag, r, PortalSuspended{});
    case 'c': return done(tag, r, CopyDone{});
    case 't': {
      uint16_t count = 0;
      if (!r.u16(count)) return malformed(tag, "missing parameter count");
      if (r.remaining() != std::size_t{count} * 4) return malformed(tag, "parameter count does not match length");
      ParameterDescription m;
      m.types.resize(count);
      for (auto& oid : m.types) (void)r.u32(oid);
      return done(tag, r, std::move(m));
    }
    case 'A': {
      NotificationResponse m;
      if (!r.i32(m.process_id)) return malformed(tag, "missing process id");
      if (!r.cstring(m.channel) || !r.cstring(m.payload)) return malformed(tag, "unterminated string");
      return done(tag, r, m);
    }
    case 'G': return parse_copy_response<CopyInResponse>(tag, body);
    case 'H': return parse_copy_response<CopyOutResponse>(tag, body);
    case 'W': return parse_copy_response<CopyBothResponse>(tag, body);
    case 'd': return CopyData{body};
    case 'v': {
      NegotiateProtocolVersion m;
      int32_t count = 0;
      if (!r.i32(m.newest_minor) || !r.i32(count) || count < 0) return malformed(tag, "bad header");
      for (int32_t i = 0; i < count; ++i) {
        std::string_view option;
        if (!r.cstring(option)) return malformed(tag, "unterminated option name");
        m.unrecognized_options.push_back(option);
      }
      return done(tag, r, std::move(m));
    }
    case 'V': {
      FunctionCallResponse m;
      int32_t length = 0;
      if (!r.i32(length) || length < -1) return malformed(tag, "bad result length");
      if (length >= 0) {
        std::string_view value;
        if (!r.bytes(static_cast<std::size_t>(length), value)) return malformed(tag, "result runs past the message");
        m.value = value;
      }
      return done(tag, r, m);
    }
    default:
    {
      static constexpr char kHex[] = "0123456789abcdef";
      auto byte = static_cast<uint8_t>(tag);
      return Error::protocol(std::string("unknown backend message type 0x") + kHex[byte >> 4] + kHex[byte & 15]);
    }
  }
}

}  // namespace fitz::pg
