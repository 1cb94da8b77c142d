// `fitz fmt`: formats files in place (or checks them with --check, or a stream with `-`).
// Files with syntax errors are reported and left alone.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <ostream>
#include <sstream>
#include <string_view>

#include "cli/driver.h"
#include "format/format.h"
#include "frontend/manifest.h"
#include "frontend/project.h"
#include "frontend/render.h"

namespace fs = std::filesystem;

namespace fitz::cli {

namespace {

constexpr const char* kFmtUsage = R"(usage: fitz fmt [--check] [PATH...]

Formats .fitz files in place: 4-space indentation, one statement per line, at most one blank
line, lines wrapped at 100 columns, comments kept where they are. There are no options to
configure. PATH is a file or a directory (every .fitz file below it); `-` formats standard
input to standard output. With no PATH: the project around the current directory (walking up
to fitz.toml: its src/ and tests/), else every .fitz file below the current directory.

Files with syntax errors are reported and left unchanged.

options:
  --check      change nothing; list the files that would change and exit 1 if there are any
  -h, --help   show this help
)";

// The files `fitz fmt` works on when no path is given.
std::vector<fs::path> default_files(const fs::path& cwd) {
  std::vector<fs::path> files;
  if (auto toml = frontend::find_manifest(cwd)) {
    fs::path root = toml->parent_path();
    for (const char* sub : {"src", "tests"})
      for (auto& f : frontend::fitz_files_under(root / sub)) files.push_back(f);
    if (files.empty()) files = frontend::fitz_files_under(root);
    return files;
  }
  return frontend::fitz_files_under(cwd);
}

// How a path is shown: relative to the current directory when it is below it.
std::string display(const fs::path& p, const fs::path& cwd) {
  std::error_code ec;
  fs::path rel = fs::relative(p, cwd, ec);
  if (ec || rel.empty() || *rel.begin() == "..") return p.string();
  return rel.string();
}

bool write_file(const fs::path& path, const std::string& text, std::string& error) {
  // Write beside the file, then rename over it, so an interrupted run never truncates a source.
  fs::path tmp = path;
  tmp += ".fmt-tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out || !(out << text) || !out.flush()) {
      error = "cannot write";
      std::error_code ec;
      fs::remove(tmp, ec);
      return false;
    }
  }
  std::error_code ec;
  fs::permissions(tmp, fs::status(path, ec).permissions(), ec);
  fs::rename(tmp, path, ec);
  if (ec) {
    error = ec.message();
    fs::remove(tmp, ec);
    return false;
  }
  return true;
}

}  // namespace

int cmd_fmt(const std::vector<std::string>& args, Io io) {
  bool check = false;
  std::vector<std::string> paths;
  for (const std::string& a : args) {
    if (a == "-h" || a == "--help") {
      io.out << kFmtUsage;
      return kOk;
    }
    if (a == "--check") {
      check = true;
    } else if (a.size() > 1 && a[0] == '-') {
      io.err << "error: unknown option `" << a << "` for `fitz fmt`\n\n" << kFmtUsage;
      return kUsageError;
    } else {
      paths.push_back(a);
    }
  }

  frontend::SourceManager sources;
  frontend::TextRenderOptions text_options = text_options_of(io);
  fs::path cwd = fs::current_path();

  // `-`: standard input to standard output.
  if (paths.size() == 1 && paths[0] == "-") {
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    frontend::FileId id = sources.add("<stdin>", std::move(text));
    frontend::DiagnosticBag diags;
    std::string internal;
    auto out = format::format_source(sources.file(id), diags, {}, &internal);
    if (!out) {
      if (!internal.empty()) {
        io.err << "internal error: cannot format <stdin>: " << internal
               << "\nthis is a bug in fitz fmt; please report it with the input that triggers it\n";
        return kInternal;
      }
      auto sorted = diags.sorted();
      io.err << frontend::render_text(sources, sorted, text_options);
      return kUserError;
    }
    if (check) {
      if (*out != sources.file(id).text()) {
        io.out << "<stdin>\n";
        return kUserError;
      }
      return kOk;
    }
    io.out << *out;
    return kOk;
  }

  std::vector<fs::path> files;
  if (paths.empty()) {
    files = default_files(cwd);
  } else {
    for (const std::string& p : paths) {
      std::error_code ec;
      if (p == "-") {
        io.err << "error: `-` (standard input) cannot be combined with other paths\n";
        return kUsageError;
      }
      if (fs::is_directory(p, ec)) {
        for (auto& f : frontend::fitz_files_under(p)) files.push_back(f);
      } else if (fs::exists(p, ec)) {
        files.push_back(p);
      } else {
        io.err << "error: no such file or directory: `" << p << "`\n";
        return kUsageError;
      }
    }
  }

  size_t changed = 0, refused = 0, unreadable = 0, internal_errors = 0;
  for (const fs::path& path : files) {
    std::string name = display(path, cwd);
    llvm::Expected<frontend::FileId> id = sources.read_file(path);
    if (!id) {
      io.err << "error: cannot read `" << name << "`: " << llvm::toString(id.takeError()) << "\n";
      ++unreadable;
      continue;
    }
    frontend::DiagnosticBag diags;
    std::string internal;
    auto out = format::format_source(sources.file(*id), diags, {}, &internal);
    if (!out) {
      if (!internal.empty()) {
        io.err << "internal error: cannot format `" << name << "`: " << internal
               << "; the file is left unchanged\n";
        ++internal_errors;
      } else {
        auto sorted = diags.sorted();
        io.err << frontend::render_text(sources, sorted, text_options);
        io.err << "error: `" << name << "` has syntax errors and was not formatted\n";
        ++refused;
      }
      continue;
    }
    // read_file drops a byte-order mark; compare with the bytes on disk.
    std::ifstream in(path, std::ios::binary);
    std::string on_disk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (*out == on_disk) continue;
    ++changed;
    if (check) {
      io.out << name << "\n";
      continue;
    }
    if (std::string error; !write_file(path, *out, error)) {
      io.err << "error: cannot write `" << name << "`: " << error << "\n";
      ++unreadable;
    }
  }

  if (check && changed > 0)
    io.err << changed << (changed == 1 ? " file needs" : " files need") << " formatting; run `fitz fmt`\n";
  if (internal_errors > 0) {
    io.err << "this is a bug in fitz fmt; please report it with the files that trigger it\n";
    return kInternal;
  }
  if (unreadable > 0) return kUsageError;
  if (refused > 0 || (check && changed > 0)) return kUserError;
  return kOk;
}

}  // namespace fitz::cli
