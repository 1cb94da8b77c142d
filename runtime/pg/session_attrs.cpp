// The target_session_attrs decisions of session_attrs.h, following libpq: read-write wants
// neither a hot standby nor read-only default transactions; primary and standby look at hot
// standby only; read-only accepts either kind of read-only session.
#include "pg/session_attrs.h"

#include <optional>

namespace fitz::pg {
namespace {

constexpr std::string_view kReadOnlyQuery = "SHOW transaction_read_only";
constexpr std::string_view kRecoveryQuery = "SELECT pg_catalog.pg_is_in_recovery()";

std::optional<bool> reported(const SessionInfo& session, std::string_view name) {
  auto it = session.parameters.find(name);
  if (it == session.parameters.end()) return std::nullopt;
  return it->second == "on";
}

SessionCheck verdict(bool fits, std::string_view reason) {
  SessionCheck c;
  c.verdict = fits ? SessionCheck::Verdict::Fits : SessionCheck::Verdict::Rejected;
  if (!fits) c.reason = std::string(reason);
  return c;
}

SessionCheck needs(std::string_view query) {
  SessionCheck c;
  c.verdict = SessionCheck::Verdict::NeedsQuery;
  c.query = query;
  return c;
}

// The verdict once it is known whether the session is read-only (read-write, read-only) or
// the server is a standby (primary, standby).
SessionCheck decide(TargetSessionAttrs want, bool flag) {
  switch (want) {
    case TargetSessionAttrs::ReadWrite: return verdict(!flag, "session is read-only");
    case TargetSessionAttrs::ReadOnly: return verdict(flag, "session is not read-only");
    case TargetSessionAttrs::Primary: return verdict(!flag, "server is in hot standby mode");
    case TargetSessionAttrs::Standby:
    case TargetSessionAttrs::PreferStandby: return verdict(flag, "server is not in hot standby mode");
    case TargetSessionAttrs::Any: break;
  }
  return verdict(true, "");
}

bool asks_read_only(TargetSessionAttrs want) {
  return want == TargetSessionAttrs::ReadWrite || want == TargetSessionAttrs::ReadOnly;
}

}  // namespace

SessionCheck check_session(TargetSessionAttrs want, const SessionInfo& session) {
  if (want == TargetSessionAttrs::Any) return verdict(true, "");
  std::optional<bool> hot_standby = reported(session, "in_hot_standby");
  if (asks_read_only(want)) {
    std::optional<bool> read_only = reported(session, "default_transaction_read_only");
    if (!hot_standby || !read_only) return needs(kReadOnlyQuery);
    return decide(want, *hot_standby || *read_only);
  }
  if (!hot_standby) return needs(kRecoveryQuery);
  return decide(want, *hot_standby);
}

SessionCheck check_session_answer(TargetSessionAttrs want, std::string_view value) {
  if (want == TargetSessionAttrs::Any) return verdict(true, "");
  bool flag = value == "on" || value == "t" || value == "true";
  return decide(want, flag);
}

bool session_still_fits(TargetSessionAttrs want, const SessionInfo& session) {
  if (want == TargetSessionAttrs::PreferStandby) return true;
  return !check_session(want, session).rejected();
}

std::vector<TargetSessionAttrs> connect_passes(TargetSessionAttrs want) {
  if (want == TargetSessionAttrs::PreferStandby) return {TargetSessionAttrs::Standby, TargetSessionAttrs::Any};
  return {want};
}

bool server_turned_read_only(const Error& error, TargetSessionAttrs want, const SessionInfo& session) {
  if (error.kind != ErrorKind::Server || error.sqlstate != "25006") return false;
  if (want == TargetSessionAttrs::ReadWrite || want == TargetSessionAttrs::Primary) return true;
  return reported(session, "in_hot_standby").value_or(false) ||
         reported(session, "default_transaction_read_only").value_or(false);
}

}  // namespace fitz::pg
