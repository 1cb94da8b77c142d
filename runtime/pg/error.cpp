// Construction and printing of pg::Error; see error.h.
#include "pg/error.h"

namespace fitz::pg {

std::string_view error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Server: return "server";
    case ErrorKind::Protocol: return "protocol";
    case ErrorKind::Auth: return "auth";
    case ErrorKind::Config: return "config";
    case ErrorKind::Io: return "io";
    case ErrorKind::Decode: return "decode";
    case ErrorKind::Encode: return "encode";
    case ErrorKind::Unsupported: return "unsupported";
  }
  return "unknown";
}

Error Error::protocol(std::string message) {
  return make(ErrorKind::Protocol, sqlstate::kProtocolViolation, std::move(message));
}

Error Error::make(ErrorKind kind, std::string_view code, std::string message) {
  Error e;
  e.kind = kind;
  e.sqlstate = std::string(code);
  e.message = std::move(message);
  return e;
}

Error Error::from_server(NoticeFields fields) {
  Error e;
  e.kind = ErrorKind::Server;
  e.sqlstate = fields.code;
  e.message = fields.message;
  e.server = std::make_shared<const NoticeFields>(std::move(fields));
  return e;
}

bool Error::is_fatal() const {
  switch (kind) {
    case ErrorKind::Protocol:
    case ErrorKind::Io:
    case ErrorKind::Auth:
      return true;
    case ErrorKind::Server:
      // FATAL and PANIC end the session; class 08 means the link itself is gone.
      if (server && (server->severity_nonlocalized == "FATAL" || server->severity_nonlocalized == "PANIC" ||
                     (server->severity_nonlocalized.empty() &&
                      (server->severity == "FATAL" || server->severity == "PANIC"))))
        return true;
      return sqlstate.rfind("08", 0) == 0;
    default:
      return false;
  }
}

std::string Error::summary() const {
  std::string severity = "ERROR";
  if (server) {
    if (!server->severity.empty()) severity = server->severity;
    else if (!server->severity_nonlocalized.empty()) severity = server->severity_nonlocalized;
  }
  return severity + ": " + message;
}

std::string Error::to_string() const {
  std::string out = summary();
  if (!sqlstate.empty()) out += " (SQLSTATE " + sqlstate + ")";
  if (server) {
    if (!server->detail.empty()) out += "\nDETAIL: " + server->detail;
    if (!server->hint.empty()) out += "\nHINT: " + server->hint;
  }
  if (!sql.empty()) out += "\nSQL: " + sql;
  return out;
}

}  // namespace fitz::pg
