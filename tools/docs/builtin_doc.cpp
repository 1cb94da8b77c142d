// fitz_builtin_doc: the reference of built-in functions, methods, values and types, generated
// from the checker's table (checker/builtins.cpp), or refreshes/checks docs/reference/builtins.md.
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "checker/builtins.h"

namespace {

using fitz::checker::builtin_entries;
using fitz::checker::builtin_nominals;
using fitz::checker::builtin_values;

constexpr std::string_view kBegin = "<!-- builtins:begin -->\n";
constexpr std::string_view kEnd = "<!-- builtins:end -->";

constexpr std::string_view kUsage =
    "usage: fitz_builtin_doc                 print the generated reference\n"
    "       fitz_builtin_doc --update FILE   rewrite the part between the markers in FILE\n"
    "       fitz_builtin_doc --check FILE    exit 1 if the part in FILE is out of date\n";

// Table cells may not contain a raw `|`.
std::string cell(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

// A heading per receiver shape, in the table's own order.
std::string heading(std::string_view receiver) {
  if (receiver.empty()) return "Global functions";
  return "Methods of `" + std::string(receiver) + "`";
}

std::string generate() {
  std::ostringstream md;
  std::vector<std::string_view> order;
  std::map<std::string_view, std::vector<const fitz::checker::BuiltinEntry*>> by_receiver;
  for (const auto& e : builtin_entries()) {
    if (!by_receiver.count(e.receiver)) order.push_back(e.receiver);
    by_receiver[e.receiver].push_back(&e);
  }
  for (std::string_view receiver : order) {
    md << "### " << heading(receiver) << "\n\n| name | signature | notes | description |\n|---|---|---|---|\n";
    for (const auto* e : by_receiver[receiver]) {
      std::string notes;
      if (e->is_async) notes += "async";
      if (e->mutates) notes += notes.empty() ? "mutates" : ", mutates";
      md << "| `" << e->name << "` | `" << cell(e->signature) << "` | " << notes << " | " << cell(e->doc)
         << " |\n";
    }
    md << "\n";
  }
  md << "### Built-in values\n\n| name | type | description |\n|---|---|---|\n";
  for (const auto& v : builtin_values())
    md << "| `" << v.name << "` | `" << cell(v.type) << "` | " << cell(v.doc) << " |\n";
  md << "\n### Built-in types\n\n| type | fields | description |\n|---|---|---|\n";
  for (const auto& n : builtin_nominals()) {
    std::string fields;
    for (std::string_view f : n.fields) fields += (fields.empty() ? "`" : ", `") + cell(f) + "`";
    if (n.open) fields += fields.empty() ? "any member (dynamic)" : "; other members are dynamic";
    md << "| `" << n.name << (n.generic ? "<...>" : "") << "` | " << fields << " | " << cell(n.doc) << " |\n";
  }
  return md.str();
}

bool read_all(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  out = buffer.str();
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 1) {
    std::fputs(generate().c_str(), stdout);
    return 0;
  }
  std::string_view mode = argv[1];
  if (argc != 3 || (mode != "--update" && mode != "--check")) {
    std::fputs(kUsage.data(), stderr);
    return 2;
  }
  std::string path = argv[2];
  std::string doc;
  if (!read_all(path, doc)) {
    std::fprintf(stderr, "fitz_builtin_doc: cannot read %s\n", path.c_str());
    return 2;
  }
  size_t b = doc.find(kBegin);
  size_t e = b == std::string::npos ? b : doc.find(kEnd, b);
  if (e == std::string::npos) {
    std::fprintf(stderr, "fitz_builtin_doc: %s has no builtins:begin/end markers\n", path.c_str());
    return 2;
  }
  std::string updated = doc.substr(0, b + kBegin.size()) + generate() + doc.substr(e);
  if (mode == "--check") {
    if (updated == doc) return 0;
    std::fprintf(stderr, "fitz_builtin_doc: %s is out of date; run fitz_builtin_doc --update %s\n", path.c_str(),
                 path.c_str());
    return 1;
  }
  if (updated != doc) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << updated;
    if (!out) {
      std::fprintf(stderr, "fitz_builtin_doc: cannot write %s\n", path.c_str());
      return 2;
    }
  }
  return 0;
}
