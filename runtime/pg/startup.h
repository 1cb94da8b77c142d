// The connection startup flow as a state machine without I/O: start() produces the
// StartupMessage, on_message() consumes each decoded backend message and appends whatever must be
// sent next (password, SASL responses). It ends Ready (server parameters, backend key) or Failed
// with an Error carrying the SQLSTATE and message.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pg/conninfo.h"
#include "pg/error.h"
#include "pg/messages.h"
#include "pg/scram.h"

namespace fitz::pg {

struct StartupConfig {
  std::string user = "postgres";
  std::optional<std::string> password;
  std::string database;
  std::string application_name = "fitz";
  std::string options;
  // Extra startup parameters (sent after user, database, application_name, client_encoding).
  std::vector<std::pair<std::string, std::string>> extra_params;
  // A fixed SCRAM client nonce, for tests only; empty means a fresh random nonce.
  std::string scram_nonce;

  static StartupConfig from(const ConnInfo& info);
};

// How the server authenticated this session.
enum class AuthMethod : uint8_t { None, Trust, Cleartext, Md5, ScramSha256 };
std::string_view auth_method_name(AuthMethod method);

// What a Ready session knows about the server.
struct SessionInfo {
  std::map<std::string, std::string, std::less<>> parameters;  // server_version, TimeZone, ...
  int32_t process_id = 0;
  std::string secret_key;  // for CancelRequest
  TransactionStatus status = TransactionStatus::Idle;
  AuthMethod auth_method = AuthMethod::None;
  std::vector<NoticeFields> notices;  // notices sent during startup
};

class StartupFlow {
 public:
  enum class State : uint8_t {
    Initial,
    AwaitingAuthRequest,    // after StartupMessage
    AwaitingSaslContinue,   // after SASLInitialResponse
    AwaitingSaslFinal,      // after SASLResponse
    AwaitingAuthResult,     // after a password or a verified SASL exchange
    AwaitingReady,          // authenticated; parameters and key data arrive
    Ready,
    Failed,
  };

  explicit StartupFlow(StartupConfig config);

  Status start(std::string& out);
  Status on_message(const BackendMessage& message, std::string& out);

  State state() const { return state_; }
  bool done() const { return state_ == State::Ready || state_ == State::Failed; }
  bool ready() const { return state_ == State::Ready; }
  const Error* error() const { return error_ ? &*error_ : nullptr; }
  const SessionInfo& session() const { return session_; }
  SessionInfo take_session() { return std::move(session_); }

 private:
  Status fail(Error error);
  Status on_auth_request(const BackendMessage& message, std::string& out);

  StartupConfig config_;
  State state_ = State::Initial;
  SessionInfo session_;
  std::optional<ScramClient> scram_;
  std::optional<Error> error_;
};

}  // namespace fitz::pg
