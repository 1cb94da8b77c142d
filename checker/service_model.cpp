// The service model's build: the HTTP half (service_http.cpp) first, since WebSocket endpoints
// reuse its guards and middleware.
#include "checker/service_build.h"

namespace fitz::checker {

void build_service_model(ServiceBuild& b) {
  b.program.service = ServiceModel{};
  detail::build_http_model(b);
  detail::build_task_model(b);
}

}  // namespace fitz::checker
