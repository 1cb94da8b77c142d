// The rest of the service model: WebSocket endpoints, cron and background jobs, commands.
#include "checker/service_build.h"

namespace fitz::checker::detail {

void build_task_model(ServiceBuild&) {}

}  // namespace fitz::checker::detail
