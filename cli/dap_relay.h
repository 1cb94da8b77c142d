// `fitz debug --dap`: a Debug Adapter Protocol relay between an editor and lldb-vscode. It
// builds the `.fitz` program a launch request names (with debug info), loads the Fitz value
// formatters into LLDB, and rewrites what the adapter says back so frames, locals and types
// read as Fitz names.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace fitz::cli {

// Builds the program at `target` for debugging; returns the binary, or an empty string with
// the compiler's or checker's messages in `error`.
using DebugBuild = std::function<std::string(const std::string& target, std::string& error)>;

// Rewrites a launch request in place: a `program` that is a .fitz file or a directory is built
// with `build`; `initCommands` gain the import of `formatters`. Returns false with `error`
// set when the program does not build (the request must then be answered, not forwarded).
bool prepare_launch(nlohmann::json& request, const std::string& formatters, const DebugBuild& build,
                    std::string& error);

// Rewrites a message from the adapter in place: stackTrace frame names, variables' names,
// values and types, evaluate results.
void rewrite_adapter_message(nlohmann::json& message);

// Runs the adapter (argv, with the environment `env`) and relays DAP between it and
// stdin/stdout until it exits. Returns its exit status, or -1 when it cannot be started.
int relay_dap(const std::vector<std::string>& adapter, const std::vector<std::string>& env,
              const std::string& formatters, const DebugBuild& build);

}  // namespace fitz::cli
