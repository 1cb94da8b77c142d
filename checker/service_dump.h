// `fitz check --dump=services`: the service model as stable text, a section per kind, for golden
// tests and for reading what the checker decided. The HTTP half (routes, guards, middleware,
// server, health) and the tasks half (WebSocket endpoints, jobs, commands) each print their own
// sections.
#pragma once

#include <string>

#include "checker/tir.h"
#include "frontend/modules.h"
#include "frontend/source.h"

namespace fitz::checker {

std::string dump_services(const TypedProgram& program, const frontend::ModuleGraph& graph,
                          const frontend::SourceManager& sources);

namespace detail {
// service_dump_tasks.cpp: `ws`, `cron`, `background`, `spawn` and `command` sections.
std::string dump_task_services(const TypedProgram& program, const frontend::ModuleGraph& graph,
                               const frontend::SourceManager& sources);
}  // namespace detail

}  // namespace fitz::checker
