// Frontend message encoders and the backend stream splitter; the backend message parsers live in
// backend_messages.cpp. Layouts follow the "Message Formats" chapter of the Postgres docs.
#include "pg/messages.h"

#include <cstring>

#include "pg/wire.h"

namespace fitz::pg {
namespace {

Error encode_error(std::string_view code, std::string message) {
  return Error::make(ErrorKind::Encode, code, std::move(message));
}

Status check_cstring(std::string_view value, std::string_view what) {
  if (value.find('\0') != std::string_view::npos)
    return encode_error(sqlstate::kCharacterNotInRepertoire,
                        std::string(what) + " contains a NUL byte, which the protocol cannot carry");
  return {};
}

// Appends the type byte and a placeholder length; returns where the message starts.
std::size_t begin_message(std::string& out, char tag) {
  std::size_t start = out.size();
  out.push_back(tag);
  out.append(4, '\0');
  return start;
}

// Back-patches the length of the message started at `start`; rolls it back when too large.
Status end_message(std::string& out, std::size_t start) {
  std::size_t length = out.size() - start - 1;
  if (length > kMaxMessageLength) {
    out.resize(start);
    return encode_error(sqlstate::kProgramLimitExceeded,
                        "message of " + std::to_string(length) + " bytes exceeds the 1 GiB protocol limit");
  }
  wire::patch_i32(out, start + 1, static_cast<int32_t>(length));
  return {};
}

void put_empty(std::string& out, char tag) {
  out.push_back(tag);
  wire::put_i32(out, 4);
}

Status check_formats(std::size_t formats, std::size_t values, std::string_view what) {
  if (formats > 1 && formats != values)
    return encode_error(sqlstate::kInvalidParameterValue,
                        std::string(what) + " formats must be none, one, or one per value");
  if (formats > 0xFFFF)
    return encode_error(sqlstate::kProgramLimitExceeded, std::string("too many ") + std::string(what) + " formats");
  return {};
}

}  // namespace

Status encode_startup(std::string& out, std::span<const StartupParam> params) {
  for (const auto& p : params) {
    if (p.name.empty())
      return encode_error(sqlstate::kInvalidParameterValue, "startup parameter with an empty name");
    if (auto s = check_cstring(p.name, "startup parameter name"); !s) return s;
    if (auto s = check_cstring(p.value, "startup parameter value"); !s) return s;
  }
  std::size_t start = out.size();
  out.append(4, '\0');
  wire::put_i32(out, kProtocolVersion3);
  for (const auto& p : params) {
    wire::put_cstring(out, p.name);
    wire::put_cstring(out, p.value);
  }
  out.push_back('\0');
  std::size_t length = out.size() - start;
  if (length > 10000) {  // the server refuses startup packets above this size
    out.resize(start);
    return encode_error(sqlstate::kProgramLimitExceeded, "startup packet too large");
  }
  wire::patch_i32(out, start, static_cast<int32_t>(length));
  return {};
}

void encode_ssl_request(std::string& out) {
  wire::put_i32(out, 8);
  wire::put_i32(out, kSslRequestCode);
}

void encode_cancel_request(std::string& out, int32_t process_id, std::string_view secret_key) {
  wire::put_i32(out, static_cast<int32_t>(12 + secret_key.size()));
  wire::put_i32(out, kCancelRequestCode);
  wire::put_i32(out, process_id);
  out.append(secret_key);
}

Status encode_password(std::string& out, std::string_view password) {
  if (auto s = check_cstring(password, "password"); !s) return s;
  std::size_t start = begin_message(out, 'p');
  wire::put_cstring(out, password);
  return end_message(out, start);
}

Status encode_sasl_initial_response(std::string& out, std::string_view mechanism,
                                    std::optional<std::string_view> data) {
  if (auto s = check_cstring(mechanism, "SASL mechanism"); !s) return s;
  std::size_t start = begin_message(out, 'p');
  wire::put_cstring(out, mechanism);
  if (data) {
    if (data->size() > kMaxMessageLength) {
      out.resize(start);
      return encode_error(sqlstate::kProgramLimitExceeded, "SASL data too large");
    }
    wire::put_i32(out, static_cast<int32_t>(data->size()));
    out.append(*data);
  } else {
    wire::put_i32(out, -1);
  }
  return end_message(out, start);
}

Status encode_sasl_response(std::string& out, std::string_view data) {
  std::size_t start = begin_message(out, 'p');
  out.append(data);
  return end_message(out, start);
}

Status encode_query(std::string& out, std::string_view sql) {
  if (auto s = check_cstring(sql, "query text"); !s) return s;
  std::size_t start = begin_message(out, 'Q');
  wire::put_cstring(out, sql);
  return end_message(out, start);
}

Status encode_parse(std::string& out, std::string_view statement, std::string_view sql,
                    std::span<const Oid> param_types) {
  if (auto s = check_cstring(statement, "statement name"); !s) return s;
  if (auto s = check_cstring(sql, "query text"); !s) return s;
  if (param_types.size() > 0xFFFF)
    return encode_error(sqlstate::kProgramLimitExceeded, "more than 65535 parameters");
  std::size_t start = begin_message(out, 'P');
  wire::put_cstring(out, statement);
  wire::put_cstring(out, sql);
  wire::put_u16(out, static_cast<uint16_t>(param_types.size()));
  for (Oid oid : param_types) wire::put_u32(out, oid);
  return end_message(out, start);
}

Status encode_bind(std::string& out, std::string_view portal, std::string_view statement,
                   std::span<const Format> param_formats,
                   std::span<const std::optional<std::string_view>> values,
                   std::span<const Format> result_formats) {
  if (auto s = check_cstring(portal, "portal name"); !s) return s;
  if (auto s = check_cstring(statement, "statement name"); !s) return s;
  if (auto s = check_formats(param_formats.size(), values.size(), "parameter"); !s) return s;
  if (result_formats.size() > 0xFFFF)
    return encode_error(sqlstate::kProgramLimitExceeded, "too many result formats");
  if (values.size() > 0xFFFF)
    return encode_error(sqlstate::kProgramLimitExceeded, "more than 65535 parameters");
  std::size_t start = begin_message(out, 'B');
  wire::put_cstring(out, portal);
  wire::put_cstring(out, statement);
  wire::put_u16(out, static_cast<uint16_t>(param_formats.size()));
  for (Format f : param_formats) wire::put_i16(out, static_cast<int16_t>(f));
  wire::put_u16(out, static_cast<uint16_t>(values.size()));
  for (const auto& v : values) {
    if (!v) {
      wire::put_i32(out, -1);
      continue;
    }
    if (v->size() > kMaxMessageLength) {
      out.resize(start);
      return encode_error(sqlstate::kProgramLimitExceeded, "parameter value exceeds 1 GiB");
    }
    wire::put_i32(out, static_cast<int32_t>(v->size()));
    out.append(*v);
  }
  wire::put_u16(out, static_cast<uint16_t>(result_formats.size()));
  for (Format f : result_formats) wire::put_i16(out, static_cast<int16_t>(f));
  return end_message(out, start);
}

Status encode_describe(std::string& out, Target target, std::string_view name) {
  if (auto s = check_cstring(name, "describe target name"); !s) return s;
  std::size_t start = begin_message(out, 'D');
  out.push_back(static_cast<char>(target));
  wire::put_cstring(out, name);
  return end_message(out, start);
}

Status encode_execute(std::string& out, std::string_view portal, int32_t max_rows) {
  if (auto s = check_cstring(portal, "portal name"); !s) return s;
  std::size_t start = begin_message(out, 'E');
  wire::put_cstring(out, portal);
  wire::put_i32(out, max_rows);
  return end_message(out, start);
}

void encode_sync(std::string& out) { put_empty(out, 'S'); }
void encode_flush(std::string& out) { put_empty(out, 'H'); }
void encode_terminate(std::string& out) { put_empty(out, 'X'); }
void encode_copy_done(std::string& out) { put_empty(out, 'c'); }

Status encode_close(std::string& out, Target target, std::string_view name) {
  if (auto s = check_cstring(name, "close target name"); !s) return s;
  std::size_t start = begin_message(out, 'C');
  out.push_back(static_cast<char>(target));
  wire::put_cstring(out, name);
  return end_message(out, start);
}

Status encode_copy_data(std::string& out, std::string_view data) {
  std::size_t start = begin_message(out, 'd');
  out.append(data);
  return end_message(out, start);
}

Status encode_copy_fail(std::string& out, std::string_view message) {
  if (auto s = check_cstring(message, "copy failure message"); !s) return s;
  std::size_t start = begin_message(out, 'f');
  wire::put_cstring(out, message);
  return end_message(out, start);
}

// ---- MessageReader ----------------------------------------------------------------------

void MessageReader::compact() {
  if (begin_ == 0) return;
  std::size_t n = end_ - begin_;
  if (n > 0) std::memmove(buf_.data(), buf_.data() + begin_, n);
  begin_ = 0;
  end_ = n;
}

std::span<char> MessageReader::prepare(std::size_t min_size) {
  compact();
  if (buf_.size() < end_ + min_size) buf_.resize(end_ + min_size);
  return {buf_.data() + end_, buf_.size() - end_};
}

void MessageReader::commit(std::size_t n) {
  if (n > buf_.size() - end_) n = buf_.size() - end_;
  end_ += n;
}

void MessageReader::append(std::string_view bytes) {
  if (bytes.empty()) return;
  auto space = prepare(bytes.size());
  std::memcpy(space.data(), bytes.data(), bytes.size());
  commit(bytes.size());
}

Result<std::optional<Frame>> MessageReader::next_frame() {
  if (poisoned_) return *poisoned_;
  std::size_t available = end_ - begin_;
  if (available < 5) return std::optional<Frame>{};
  const char* p = buf_.data() + begin_;
  char tag = p[0];
  uint32_t length = wire::load_u32(p + 1);
  if (length < 4) {
    poisoned_ = Error::protocol("backend message '" + std::string(1, tag) + "' has invalid length " +
                                std::to_string(length));
    return *poisoned_;
  }
  if (length > kMaxMessageLength) {
    poisoned_ = Error::protocol("backend message '" + std::string(1, tag) + "' claims " +
                                std::to_string(length) + " bytes, more than the 1 GiB limit");
    return *poisoned_;
  }
  if (available < 1 + std::size_t{length}) return std::optional<Frame>{};
  Frame frame{tag, std::string_view(p + 5, length - 4)};
  begin_ += 1 + std::size_t{length};
  if (begin_ == end_) begin_ = end_ = 0;  // cheap reset; the frame's bytes stay in place
  return std::optional<Frame>{frame};
}

Result<std::optional<BackendMessage>> MessageReader::next() {
  auto frame = next_frame();
  if (!frame) return std::move(frame).error();
  if (!*frame) return std::optional<BackendMessage>{};
  auto message = decode_message(**frame);
  if (!message) return std::move(message).error();
  return std::optional<BackendMessage>{std::move(*message)};
}

}  // namespace fitz::pg
