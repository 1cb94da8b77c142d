// target_session_attrs without I/O: whether a started session is on the kind of server the
// connection string asks for (decided from what the server reported, or from one query), and
// whether a statement error means the server stopped accepting writes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pg/conninfo.h"
#include "pg/error.h"
#include "pg/startup.h"

namespace fitz::pg {

struct SessionCheck {
  enum class Verdict : uint8_t { Fits, Rejected, NeedsQuery };
  Verdict verdict = Verdict::Fits;
  // NeedsQuery: a simple query whose single value ("on"/"off", "t"/"f") decides, through
  // check_session_answer.
  std::string_view query;
  // Rejected: why, in libpq's words ("session is read-only", "server is in hot standby mode").
  std::string reason;

  bool fits() const { return verdict == Verdict::Fits; }
  bool rejected() const { return verdict == Verdict::Rejected; }
};

// From the ParameterStatus values of the session: `in_hot_standby` and
// `default_transaction_read_only`, which servers since Postgres 14 report at startup and
// whenever they change. Older servers report neither, and the check needs a query.
SessionCheck check_session(TargetSessionAttrs want, const SessionInfo& session);
SessionCheck check_session_answer(TargetSessionAttrs want, std::string_view value);

// For a session that is open: false when the server has since reported parameters that the
// check would reject (prefer-standby takes any server, so it always still fits).
bool session_still_fits(TargetSessionAttrs want, const SessionInfo& session);

// The passes over the host list: prefer-standby looks for a standby on every host first and
// then takes any server; every other setting is one pass with itself.
std::vector<TargetSessionAttrs> connect_passes(TargetSessionAttrs want);

// True when `error` (a statement's) says the session's server no longer takes writes: SQLSTATE
// 25006 on a connection that asked for a writable server, or whose server reports itself read
// only. Such a connection is of no further use; a 25006 inside a transaction the program opened
// READ ONLY, on a server that takes writes, stays an ordinary statement error.
bool server_turned_read_only(const Error& error, TargetSessionAttrs want, const SessionInfo& session);

}  // namespace fitz::pg
