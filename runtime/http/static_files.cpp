#include "http/static_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>

namespace fitz::http {

namespace fs = std::filesystem;

namespace {

std::string_view content_type_of(std::string_view path) {
  static constexpr std::pair<std::string_view, std::string_view> kTypes[] = {
      {".html", "text/html; charset=utf-8"}, {".htm", "text/html; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},   {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"}, {".json", "application/json"},
      {".map", "application/json"},          {".txt", "text/plain; charset=utf-8"},
      {".csv", "text/csv; charset=utf-8"},   {".xml", "application/xml"},
      {".svg", "image/svg+xml"},             {".png", "image/png"},
      {".jpg", "image/jpeg"},                {".jpeg", "image/jpeg"},
      {".gif", "image/gif"},                 {".webp", "image/webp"},
      {".avif", "image/avif"},               {".ico", "image/x-icon"},
      {".woff", "font/woff"},                {".woff2", "font/woff2"},
      {".ttf", "font/ttf"},                  {".otf", "font/otf"},
      {".pdf", "application/pdf"},           {".wasm", "application/wasm"},
      {".mp4", "video/mp4"},                 {".webm", "video/webm"},
      {".mp3", "audio/mpeg"},                {".ogg", "audio/ogg"},
      {".zip", "application/zip"},
  };
  size_t dot = path.rfind('.');
  if (dot != std::string_view::npos && path.find('/', dot) == std::string_view::npos) {
    std::string ext(path.substr(dot));
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    for (const auto& [e, t] : kTypes)
      if (e == ext) return t;
  }
  return "application/octet-stream";
}

int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The path below the mount, percent-decoded, as safe relative segments; false for anything
// that could name a file outside the folder (or is not a file name at all).
bool relative_file(std::string_view raw, std::string& out) {
  std::string decoded;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '%') {
      if (i + 2 >= raw.size()) return false;
      int h = hex(raw[i + 1]), l = hex(raw[i + 2]);
      if (h < 0 || l < 0) return false;
      decoded += char(h * 16 + l);
      i += 2;
    } else {
      decoded += raw[i];
    }
  }
  out.clear();
  size_t pos = 0;
  while (pos <= decoded.size()) {
    size_t slash = decoded.find('/', pos);
    std::string_view seg = std::string_view(decoded).substr(pos, slash == std::string::npos ? std::string::npos : slash - pos);
    if (seg == "." || seg == ".." || seg.find('\0') != std::string_view::npos || seg.find('\\') != std::string_view::npos)
      return false;
    if (!seg.empty()) {
      if (!out.empty()) out += '/';
      out += seg;
    }
    if (slash == std::string::npos) break;
    pos = slash + 1;
  }
  return !out.empty();
}

std::string http_date(time_t t) {
  char buf[64];
  tm g;
  gmtime_r(&t, &g);
  strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &g);
  return buf;
}

time_t parse_http_date(const std::string& s) {
  tm t{};
  if (!strptime(s.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &t)) return -1;
  return timegm(&t);
}

std::string header(const Request& req, const char* name) {
  Text v;
  if (!req.header_text(Text(name, __builtin_strlen(name)), &v)) return "";
  return std::string(v.data, v.size);
}

bool accepts(const std::string& accept_encoding, std::string_view coding) {
  size_t pos = 0;
  while (pos < accept_encoding.size()) {
    size_t comma = accept_encoding.find(',', pos);
    std::string_view item = std::string_view(accept_encoding).substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    std::string_view name = item.substr(0, item.find(';'));
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (name == coding) return item.find("q=0") == std::string_view::npos || item.find("q=0.") != std::string_view::npos;
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return false;
}

bool etag_matches(const std::string& if_none_match, const std::string& etag) {
  if (if_none_match == "*") return true;
  size_t pos = 0;
  while (pos < if_none_match.size()) {
    size_t comma = if_none_match.find(',', pos);
    std::string_view t = std::string_view(if_none_match).substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
    while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
    if (t.starts_with("W/")) t.remove_prefix(2);  // weak comparison, as If-None-Match asks
    if (t == etag) return true;
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return false;
}

// One `bytes=` range of a file of `size` bytes: false when the header is not one range (the
// whole file is sent), `satisfiable` false for a range past the end (416).
bool parse_range(const std::string& h, uint64_t size, uint64_t& first, uint64_t& last, bool& satisfiable) {
  if (!h.starts_with("bytes=") || h.find(',') != std::string::npos) return false;
  std::string spec = h.substr(6);
  size_t dash = spec.find('-');
  if (dash == std::string::npos) return false;
  std::string a = spec.substr(0, dash), b = spec.substr(dash + 1);
  auto number = [](const std::string& s, uint64_t& v) {
    if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) return false;
    v = std::stoull(s);
    return true;
  };
  satisfiable = true;
  if (a.empty()) {  // the last N bytes
    uint64_t n;
    if (!number(b, n)) return false;
    if (n == 0 || size == 0) {
      satisfiable = false;
      return true;
    }
    first = n >= size ? 0 : size - n;
    last = size - 1;
    return true;
  }
  if (!number(a, first)) return false;
  if (b.empty()) {
    last = size ? size - 1 : 0;
  } else if (!number(b, last) || last < first) {
    return false;
  }
  if (first >= size) {
    satisfiable = false;
    return true;
  }
  if (last >= size) last = size - 1;
  return true;
}

bool read_file(const std::string& path, std::string& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return !f.bad();
}

}  // namespace

bool resolve_static_mounts(const std::vector<std::pair<Str, Str>>& config, std::string_view built_in,
                           std::vector<StaticMount>& out, std::string& error) {
  std::vector<fs::path> bases;
  for (const char* env : {"FITZ_STATIC_DIR", "FITZ_PROJECT_DIR"})
    if (const char* v = std::getenv(env); v && *v) bases.emplace_back(v);
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) bases.push_back(exe.parent_path());
  if (!built_in.empty()) bases.emplace_back(std::string(built_in));
  bases.push_back(fs::current_path(ec));
  for (const auto& [prefix, folder] : config) {
    fs::path rel(std::string(folder.data(), folder.size()));
    std::string found;
    for (const fs::path& base : rel.is_absolute() ? std::vector<fs::path>{fs::path()} : bases) {
      fs::path candidate = rel.is_absolute() ? rel : base / rel;
      if (fs::is_directory(candidate, ec)) {
        found = fs::canonical(candidate, ec).string();
        if (!ec) break;
        found.clear();
      }
    }
    if (found.empty()) {
      error = "the static folder `" + rel.string() + "` (served at " + std::string(prefix.data(), prefix.size()) +
              ") was not found beside the executable, in the project or in the working directory; "
              "FITZ_STATIC_DIR names the folder that holds it";
      return false;
    }
    std::string p(prefix.data(), prefix.size());
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    out.push_back({p, found});
  }
  // The longest prefix is tried first, so "/assets/img" wins over "/assets".
  std::stable_sort(out.begin(), out.end(), [](const StaticMount& a, const StaticMount& b) { return a.prefix.size() > b.prefix.size(); });
  return true;
}

bool serve_static(const std::vector<StaticMount>& mounts, const Request& req, Response& resp) {
  std::string_view path(req.raw_path.data, req.raw_path.size);
  if (size_t q = path.find('?'); q != std::string_view::npos) path = path.substr(0, q);
  for (const StaticMount& m : mounts) {
    std::string_view rest;
    if (m.prefix == "/") {
      rest = path;
    } else if (path.starts_with(m.prefix) && (path.size() == m.prefix.size() || path[m.prefix.size()] == '/')) {
      rest = path.substr(m.prefix.size());
    } else {
      continue;
    }
    resp = Response::error(404, Text("not found"));
    std::string rel;
    if (!relative_file(rest, rel)) return m.prefix != "/";  // the root mount lets routes 404 as usual
    std::string file = m.dir + "/" + rel;
    char real[PATH_MAX];
    struct stat st;
    // Symlinks inside the folder are followed, but only to files inside it.
    if (!realpath(file.c_str(), real) || !std::string_view(real).starts_with(m.dir + "/") || stat(real, &st) != 0 ||
        !S_ISREG(st.st_mode))
      return m.prefix != "/";
    if (req.method != Method::Get && req.method != Method::Head) {
      resp = Response::json(405, Str::lit("{\"error\":\"method not allowed\"}"));
      resp.headers.emplace_back(Str::lit("Allow"), Str::lit("GET, HEAD"));
      return true;
    }
    // A precompressed sibling (same folder, same name plus .br or .gz) for clients that take it.
    std::string accept = header(req, "accept-encoding");
    std::string served = real, encoding;
    struct stat sib;
    bool has_sibling = false;
    for (const auto& [ext, coding] : {std::pair{".br", "br"}, std::pair{".gz", "gzip"}}) {
      std::string candidate = std::string(real) + ext;
      if (stat(candidate.c_str(), &sib) != 0 || !S_ISREG(sib.st_mode)) continue;
      has_sibling = true;
      if (encoding.empty() && accepts(accept, coding)) {
        served = candidate;
        encoding = coding;
        st = sib;
      }
    }
    char tag[96];
    snprintf(tag, sizeof tag, "\"%llx-%llx%s%s\"", (unsigned long long)st.st_size,
             (unsigned long long)(st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec), encoding.empty() ? "" : "-",
             encoding.c_str());
    std::string etag = tag, modified = http_date(st.st_mtim.tv_sec);
    auto common = [&](Response& r) {
      r.headers.emplace_back(Str::lit("ETag"), Str(etag.c_str()));
      r.headers.emplace_back(Str::lit("Last-Modified"), Str(modified.c_str()));
      r.headers.emplace_back(Str::lit("Accept-Ranges"), Str::lit("bytes"));
      if (has_sibling) r.headers.emplace_back(Str::lit("Vary"), Str::lit("Accept-Encoding"));
      if (!encoding.empty()) r.headers.emplace_back(Str::lit("Content-Encoding"), Str(encoding.c_str()));
    };
    std::string inm = header(req, "if-none-match");
    bool not_modified = !inm.empty() ? etag_matches(inm, etag) : [&] {
      std::string ims = header(req, "if-modified-since");
      time_t since = ims.empty() ? -1 : parse_http_date(ims);
      return since >= 0 && st.st_mtim.tv_sec <= since;
    }();
    if (not_modified) {
      resp = Response::empty(304);
      common(resp);
      return true;
    }
    std::string body;
    if (!read_file(served, body)) {
      resp = Response::error(404, Text("not found"));
      return true;
    }
    resp = Response::text(200, Str::from(body), Str(std::string(content_type_of(rel)).c_str()));
    common(resp);
    std::string range = header(req, "range"), if_range = header(req, "if-range");
    uint64_t first = 0, last = 0;
    bool satisfiable = true;
    if (!range.empty() && (if_range.empty() || if_range == etag) &&
        parse_range(range, uint64_t(body.size()), first, last, satisfiable)) {
      char cr[96];
      if (!satisfiable) {
        resp = Response::error(416, Text("range not satisfiable"));
        snprintf(cr, sizeof cr, "bytes */%zu", body.size());
        resp.headers.emplace_back(Str::lit("Content-Range"), Str(cr));
        return true;
      }
      snprintf(cr, sizeof cr, "bytes %llu-%llu/%zu", (unsigned long long)first, (unsigned long long)last, body.size());
      resp.status = 206;
      resp.body = Str(body.data() + first, size_t(last - first + 1));
      resp.headers.emplace_back(Str::lit("Content-Range"), Str(cr));
    }
    return true;
  }
  return false;
}

}  // namespace fitz::http
