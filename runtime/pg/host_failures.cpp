// The combined connect error of a host list; see host_failures.h.
#include "pg/host_failures.h"

namespace fitz::pg {

Error HostFailures::error(const ConnInfo& info) const {
  if (failures_.empty()) return Error::connect("no server to connect to");
  bool any = info.target_session_attrs == TargetSessionAttrs::Any;
  if (failures_.size() == 1 && any) return failures_.front().second;
  std::string text = any ? "could not connect to any of " + std::to_string(failures_.size()) + " servers: "
                         : std::string("no server fits target_session_attrs=") +
                               std::string(target_session_attrs_name(info.target_session_attrs)) + ": ";
  for (std::size_t i = 0; i < failures_.size(); ++i) {
    const auto& [server, error] = failures_[i];
    std::string where = server.where();
    std::string why = error.kind == ErrorKind::Server ? error.summary() : error.message;
    if (i) text += "; ";
    // Socket errors already name the server; the others (a refused login, a session of the
    // wrong kind) get it in front.
    if (why.find(where) == std::string::npos) text += where + ": ";
    text += why;
  }
  return Error::connect(std::move(text));
}

}  // namespace fitz::pg
