// fitz_builtin_doc: the reference of built-in functions, methods, values and types, generated
// from the checker's table (checker/builtins.cpp), or refreshes/checks docs/reference/builtins.md.
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "tools/docs/page_tool.h"
#include "checker/builtins.h"

using fitz::docs::cell;

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

}  // namespace

int main(int argc, char** argv) {
  // The page keeps its prose; only the part between the markers is generated.
  return fitz::docs::page_tool_main(argc, argv, "fitz_builtin_doc", kUsage,
                                    [](const std::string* doc, std::string& error) -> std::optional<std::string> {
                                      if (!doc) return generate();
                                      size_t b = doc->find(kBegin);
                                      size_t e = b == std::string::npos ? b : doc->find(kEnd, b);
                                      if (e == std::string::npos) {
                                        error = "cannot read it, or it has no builtins:begin/end markers\n";
                                        return std::nullopt;
                                      }
                                      return doc->substr(0, b + kBegin.size()) + generate() + doc->substr(e);
                                    });
}
