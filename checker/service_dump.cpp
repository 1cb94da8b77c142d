// `fitz check --dump=services`: each half of the model prints its own sections.
#include "checker/service_dump.h"

namespace fitz::checker {

std::string dump_services(const TypedProgram& program, const frontend::ModuleGraph& graph,
                          const frontend::SourceManager& sources) {
  return detail::dump_task_services(program, graph, sources);
}

}  // namespace fitz::checker
