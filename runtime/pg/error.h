// Errors as values for the Postgres layer: Error (kind, SQLSTATE, message, the server's fields,
// the SQL it concerns) and Result<T>/Status. Nothing in fitz::pg throws for control flow.
#pragma once

#include <cassert>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace fitz::pg {

// SQLSTATE codes the client assigns to errors it detects itself, chosen from the server's own
// table so that callers can branch on one code space.
namespace sqlstate {
inline constexpr std::string_view kUnableToConnect = "08001";
inline constexpr std::string_view kConnectionFailure = "08006";
inline constexpr std::string_view kProtocolViolation = "08P01";
inline constexpr std::string_view kFeatureNotSupported = "0A000";
inline constexpr std::string_view kDataException = "22000";
inline constexpr std::string_view kNumericOutOfRange = "22003";
inline constexpr std::string_view kInvalidDatetimeFormat = "22007";
inline constexpr std::string_view kCharacterNotInRepertoire = "22021";
inline constexpr std::string_view kInvalidParameterValue = "22023";
inline constexpr std::string_view kNullValueNotAllowed = "22004";
inline constexpr std::string_view kInvalidTextRepresentation = "22P02";
inline constexpr std::string_view kInvalidBinaryRepresentation = "22P03";
inline constexpr std::string_view kInvalidAuthorization = "28000";
inline constexpr std::string_view kInvalidPassword = "28P01";
inline constexpr std::string_view kProgramLimitExceeded = "54000";
inline constexpr std::string_view kUndefinedTable = "42P01";
inline constexpr std::string_view kUniqueViolation = "23505";
}  // namespace sqlstate

enum class ErrorKind : uint8_t {
  Server,       // an ErrorResponse from the server; `server` holds all of its fields
  Protocol,     // the byte stream broke the protocol; the connection cannot be used again
  Auth,         // authentication could not be completed on the client side
  Config,       // a bad connection string or option
  Io,           // the socket failed; the connection cannot be used again
  Decode,       // a value could not be decoded into the requested type
  Encode,       // a value could not be encoded (NUL in a C string, too large)
  Unsupported,  // a feature this client does not implement
};
std::string_view error_kind_name(ErrorKind kind);

// Every field of an ErrorResponse or NoticeResponse. Absent fields are empty.
struct NoticeFields {
  std::string severity;                // S, localized
  std::string severity_nonlocalized;   // V
  std::string code;                    // C, the SQLSTATE
  std::string message;                 // M
  std::string detail;                  // D
  std::string hint;                    // H
  std::string position;                // P, 1-based character index into the query
  std::string internal_position;       // p
  std::string internal_query;          // q
  std::string where;                   // W
  std::string schema;                  // s
  std::string table;                   // t
  std::string column;                  // c
  std::string data_type;               // d
  std::string constraint;              // n
  std::string file;                    // F
  std::string line;                    // L
  std::string routine;                 // R
};

struct Error {
  ErrorKind kind = ErrorKind::Protocol;
  std::string sqlstate;  // five characters; the server's code for Server errors
  std::string message;
  std::shared_ptr<const NoticeFields> server;  // set for ErrorKind::Server
  std::string sql;  // the statement text when the error concerns one; never parameter values

  static Error protocol(std::string message);
  static Error make(ErrorKind kind, std::string_view code, std::string message);
  // The socket failed or closed (08006): the connection cannot be used again.
  static Error io(std::string message) { return make(ErrorKind::Io, sqlstate::kConnectionFailure, std::move(message)); }
  // No connection could be made (08001).
  static Error connect(std::string message) { return make(ErrorKind::Io, sqlstate::kUnableToConnect, std::move(message)); }
  static Error from_server(NoticeFields fields);

  // True when the connection that produced this error must be discarded.
  bool is_fatal() const;
  // `SEVERITY: message` (severity "ERROR" for client-side errors).
  std::string summary() const;
  // summary() plus SQLSTATE, detail, hint and the SQL, one per line.
  std::string to_string() const;
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
  Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}
  // Anything implicitly convertible to T (a message struct into the BackendMessage variant, ...).
  template <class U>
    requires(!std::is_same_v<std::remove_cvref_t<U>, Result> && !std::is_same_v<std::remove_cvref_t<U>, Error> &&
             !std::is_same_v<std::remove_cvref_t<U>, T> && std::is_convertible_v<U &&, T>)
  Result(U&& value) : v_(std::in_place_index<0>, std::forward<U>(value)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { assert(ok()); return std::get<0>(v_); }
  const T& value() const& { assert(ok()); return std::get<0>(v_); }
  T&& value() && { assert(ok()); return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const& { assert(!ok()); return std::get<1>(v_); }
  Error&& error() && { assert(!ok()); return std::get<1>(std::move(v_)); }

 private:
  std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::make_unique<Error>(std::move(error))) {}
  Result(const Result& other) : error_(other.error_ ? std::make_unique<Error>(*other.error_) : nullptr) {}
  Result(Result&&) noexcept = default;
  Result& operator=(const Result& other) {
    error_ = other.error_ ? std::make_unique<Error>(*other.error_) : nullptr;
    return *this;
  }
  Result& operator=(Result&&) noexcept = default;

  bool ok() const { return error_ == nullptr; }
  explicit operator bool() const { return ok(); }
  const Error& error() const& { assert(!ok()); return *error_; }
  Error&& error() && { assert(!ok()); return std::move(*error_); }

 private:
  std::unique_ptr<Error> error_;
};

using Status = Result<void>;

}  // namespace fitz::pg
