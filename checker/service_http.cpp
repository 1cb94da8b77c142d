// The HTTP half of the service model: routes and their bindings, guards, the auth provider,
// middleware, the server's settings and health checks.
#include "checker/service_build.h"

namespace fitz::checker::detail {

void build_http_model(ServiceBuild&) {}

}  // namespace fitz::checker::detail
