// The Postgres v3 wire messages: encoders for every frontend message (appending to a byte
// buffer), an incremental splitter for the backend byte stream, and a decoder for every backend
// message. No I/O here; the connection runners feed bytes in and send the bytes produced.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "pg/error.h"

namespace fitz::pg {

using Oid = uint32_t;

// Format code of a parameter or result column.
enum class Format : int16_t { Text = 0, Binary = 1 };

inline constexpr int32_t kProtocolVersion3 = 196608;  // 3.0
inline constexpr int32_t kSslRequestCode = 80877103;
inline constexpr int32_t kCancelRequestCode = 80877102;
// Any length above this is treated as a desynchronised or hostile stream.
inline constexpr std::size_t kMaxMessageLength = std::size_t{1} << 30;

// What Describe and Close refer to.
enum class Target : char { Statement = 'S', Portal = 'P' };

struct StartupParam {
  std::string_view name;
  std::string_view value;
};

// ---- Frontend encoders ------------------------------------------------------------------
// Each appends one complete message to `out`. Those returning Status fail (leaving `out` as it
// was) when a C string contains NUL or the message would exceed kMaxMessageLength.

Status encode_startup(std::string& out, std::span<const StartupParam> params);
void encode_ssl_request(std::string& out);
void encode_cancel_request(std::string& out, int32_t process_id, std::string_view secret_key);
Status encode_password(std::string& out, std::string_view password);
Status encode_sasl_initial_response(std::string& out, std::string_view mechanism,
                                    std::optional<std::string_view> data);
Status encode_sasl_response(std::string& out, std::string_view data);
Status encode_query(std::string& out, std::string_view sql);
Status encode_parse(std::string& out, std::string_view statement, std::string_view sql,
                    std::span<const Oid> param_types);
// `param_formats` may be empty (all text), hold one code (applies to all) or one per value.
// A nullopt value is SQL NULL. `result_formats` follows the same rule for result columns.
Status encode_bind(std::string& out, std::string_view portal, std::string_view statement,
                   std::span<const Format> param_formats,
                   std::span<const std::optional<std::string_view>> values,
                   std::span<const Format> result_formats);
Status encode_describe(std::string& out, Target target, std::string_view name);
Status encode_execute(std::string& out, std::string_view portal, int32_t max_rows);
void encode_sync(std::string& out);
void encode_flush(std::string& out);
Status encode_close(std::string& out, Target target, std::string_view name);
void encode_terminate(std::string& out);
Status encode_copy_data(std::string& out, std::string_view data);
void encode_copy_done(std::string& out);
Status encode_copy_fail(std::string& out, std::string_view message);

// ---- Backend messages -------------------------------------------------------------------
// Views point into the buffer the message was decoded from and live as long as it does.

enum class TransactionStatus : char { Idle = 'I', InTransaction = 'T', Failed = 'E' };

struct AuthenticationOk {};
struct AuthenticationCleartextPassword {};
struct AuthenticationMd5Password { std::array<uint8_t, 4> salt{}; };
struct AuthenticationSasl { std::vector<std::string_view> mechanisms; };
struct AuthenticationSaslContinue { std::string_view data; };
struct AuthenticationSaslFinal { std::string_view data; };
// Kerberos, SCM credentials, GSSAPI, SSPI: recognised but not implemented.
struct AuthenticationUnsupported { int32_t code = 0; };
struct ParameterStatus { std::string_view name; std::string_view value; };
struct BackendKeyData { int32_t process_id = 0; std::string_view secret_key; };
struct ReadyForQuery { TransactionStatus status = TransactionStatus::Idle; };

struct FieldDescription {
  std::string_view name;
  Oid table_oid = 0;
  int16_t column_id = 0;
  Oid type_oid = 0;
  int16_t type_size = 0;
  int32_t type_modifier = 0;
  Format format = Format::Text;
};
struct RowDescription { std::vector<FieldDescription> fields; };

// The column values of one row, validated when decoded and read lazily without allocating.
// A NULL is nullopt; an empty value is an empty view.
class DataRow {
 public:
  class iterator {
   public:
    using value_type = std::optional<std::string_view>;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::input_iterator_tag;
    iterator() = default;
    iterator(const char* p, int remaining) : p_(p), remaining_(remaining) {}
    value_type operator*() const;
    iterator& operator++();
    iterator operator++(int) { auto copy = *this; ++*this; return copy; }
    bool operator==(const iterator& other) const { return remaining_ == other.remaining_; }
   private:
    const char* p_ = nullptr;
    int remaining_ = 0;
  };

  DataRow() = default;
  DataRow(int16_t count, std::string_view values) : count_(count), values_(values) {}
  std::size_t size() const { return static_cast<std::size_t>(count_); }
  iterator begin() const { return iterator(values_.data(), count_); }
  iterator end() const { return iterator(nullptr, 0); }
  std::vector<std::optional<std::string_view>> values() const;

 private:
  int16_t count_ = 0;
  std::string_view values_;  // the encoded (length, bytes) pairs, already bounds-checked
};

struct CommandComplete {
  std::string_view tag;
  std::optional<uint64_t> rows;  // the affected/returned row count when the tag carries one
};
struct EmptyQueryResponse {};
struct ErrorResponse { NoticeFields fields; };
struct NoticeResponse { NoticeFields fields; };
struct ParseComplete {};
struct BindComplete {};
struct CloseComplete {};
struct NoData {};
struct PortalSuspended {};
struct ParameterDescription { std::vector<Oid> types; };
struct NotificationResponse {
  int32_t process_id = 0;
  std::string_view channel;
  std::string_view payload;
};
struct CopyInResponse { Format format = Format::Text; std::vector<Format> column_formats; };
struct CopyOutResponse { Format format = Format::Text; std::vector<Format> column_formats; };
struct CopyBothResponse { Format format = Format::Text; std::vector<Format> column_formats; };
struct CopyData { std::string_view data; };
struct CopyDone {};
struct NegotiateProtocolVersion {
  int32_t newest_minor = 0;
  std::vector<std::string_view> unrecognized_options;
};
struct FunctionCallResponse { std::optional<std::string_view> value; };

using BackendMessage =
    std::variant<AuthenticationOk, AuthenticationCleartextPassword, AuthenticationMd5Password,
                 AuthenticationSasl, AuthenticationSaslContinue, AuthenticationSaslFinal,
                 AuthenticationUnsupported, ParameterStatus, BackendKeyData, ReadyForQuery,
                 RowDescription, DataRow, CommandComplete, EmptyQueryResponse, ErrorResponse,
                 NoticeResponse, ParseComplete, BindComplete, CloseComplete, NoData,
                 PortalSuspended, ParameterDescription, NotificationResponse, CopyInResponse,
                 CopyOutResponse, CopyBothResponse, CopyData, CopyDone, NegotiateProtocolVersion,
                 FunctionCallResponse>;

// One framed backend message: its type byte and its body (without the length word).
struct Frame {
  char tag = 0;
  std::string_view body;
};

// Parses the body of a message of type `tag`. Never reads outside `body`.
Result<BackendMessage> decode_message(char tag, std::string_view body);
inline Result<BackendMessage> decode_message(const Frame& frame) {
  return decode_message(frame.tag, frame.body);
}
// "ReadyForQuery", "DataRow", ... ("unknown" for an unrecognised type byte).
std::string_view backend_message_name(char tag);
// The name of a decoded message's type, for error messages.
std::string_view message_name(const BackendMessage& message);
// The protocol error for a message that has no place in the exchange named by `during`.
Error unexpected_message(const BackendMessage& message, std::string_view during);
// Messages the server may send at any time, outside of any request/response flow.
bool is_async_message(const BackendMessage& message);
// The row count at the end of a CommandComplete tag ("INSERT 0 5" -> 5, "CREATE TABLE" -> none).
std::optional<uint64_t> command_tag_rows(std::string_view tag);

// Splits the backend byte stream into frames. Bytes go in through append() or prepare()/
// commit() (to read from a socket straight into the buffer); next_frame() hands out each
// complete frame. Views returned are valid until the next append() or prepare().
// A bad length poisons the reader: the stream cannot be resynchronised.
class MessageReader {
 public:
  void append(std::string_view bytes);
  // A writable region of at least `min_size` bytes at the end of the buffered data.
  std::span<char> prepare(std::size_t min_size);
  void commit(std::size_t n);

  // nullopt when more bytes are needed.
  Result<std::optional<Frame>> next_frame();
  // next_frame() followed by decode_message().
  Result<std::optional<BackendMessage>> next();

  std::size_t buffered() const { return end_ - begin_; }

 private:
  void compact();

  std::string buf_;
  std::size_t begin_ = 0;  // first unconsumed byte
  std::size_t end_ = 0;    // one past the last committed byte
  std::optional<Error> poisoned_;
};

}  // namespace fitz::pg
