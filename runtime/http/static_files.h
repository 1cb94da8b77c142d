// `@server(static={"/assets": "public"})`: folders served as files, for any program. Only
// what is inside a folder is served (`..`, encoded or not, and symlinks that lead out are
// 404s), never a listing; ETag and Last-Modified with 304s, single byte ranges (206/416), and
// precompressed `.br`/`.gz` siblings for clients that accept them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "fitz/http.h"

namespace fitz::http {

struct StaticMount {
  std::string prefix;  // "/assets"; "/" mounts the folder at the root
  std::string dir;     // the folder's real path
};

// Resolves each (prefix, folder) of the configuration: a relative folder is looked for under
// FITZ_STATIC_DIR, then FITZ_PROJECT_DIR, then beside the executable, then under `built_in`
// (the project folder the program was built from), then the working directory. False with
// `error` naming what was not found.
bool resolve_static_mounts(const std::vector<std::pair<Str, Str>>& config, std::string_view built_in,
                           std::vector<StaticMount>& out, std::string& error);

// Whether `req` falls under a mount; if so `resp` is the answer (the file, a 304, 206, 404,
// 405 or 416).
bool serve_static(const std::vector<StaticMount>& mounts, const Request& req, Response& resp);

}  // namespace fitz::http
