// `fitz check --dump=services`: the service model as stable text, for golden tests.
#pragma once

#include <string>

#include "checker/tir.h"
#include "frontend/modules.h"
#include "frontend/source.h"

namespace fitz::checker {

std::string dump_services(const TypedProgram& program, const frontend::ModuleGraph& graph,
                          const frontend::SourceManager& sources);

}  // namespace fitz::checker
