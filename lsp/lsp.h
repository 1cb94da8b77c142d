// The language server's entry point, for the `fitz lsp` command.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace fitz::lsp {

// `fitz lsp [--log-file PATH]`: serves LSP on `in`/`out` until `exit` or end of input; logs to
// `err` unless a log file is given. Returns the process exit code.
int run_language_server(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace fitz::lsp
