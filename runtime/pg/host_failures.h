// Why each server of a host list was passed over, and the one error a caller gets when none
// fitted. Shared by the asynchronous and the blocking connection.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "pg/conninfo.h"
#include "pg/error.h"

namespace fitz::pg {

class HostFailures {
 public:
  void add(const HostPort& server, Error error) { failures_.emplace_back(server, std::move(error)); }
  void clear() { failures_.clear(); }
  bool empty() const { return failures_.empty(); }

  // A single server's error as it was (so a wrong password stays the server's FATAL error);
  // for several servers, or a session that did not fit, one error naming each server and why.
  Error error(const ConnInfo& info) const;

 private:
  std::vector<std::pair<HostPort, Error>> failures_;
};

}  // namespace fitz::pg
