// What a Python module offers after `module.` in the editor. The checker knows nothing of Python
// modules (they are `Py`), so the server asks the interpreter itself: a helper `python3` process
// imports the module with the program's search path and lists its public attributes. It runs
// with a deadline (a module whose import hangs costs one timeout, not a frozen editor) and its
// answer is kept per module and search path for the life of the server.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fitz::lsp {

struct PythonMember {
  std::string name;
  std::string kind;       // "function", "class", "module" or "value"
  std::string signature;  // `(a, b=1)` for functions and classes when Python can tell
  std::string doc;        // the first paragraph of the docstring, or a value's type name
};

class PythonMembers {
 public:
  explicit PythonMembers(std::string python = "python3",
                         std::chrono::milliseconds timeout = std::chrono::milliseconds(4000));

  // The public attributes of `module` imported with `paths` first on sys.path (then PYTHONPATH,
  // VIRTUAL_ENV's site-packages and the interpreter's own path, as a built program sees them).
  // Empty when the import fails or the helper overruns its deadline; that answer is cached too.
  const std::vector<PythonMember>& members(const std::string& module, const std::vector<std::string>& paths);

 private:
  std::optional<std::string> run_helper(const std::string& module, const std::vector<std::string>& paths) const;

  std::string python_;
  std::chrono::milliseconds timeout_;
  std::map<std::string, std::vector<PythonMember>> cache_;  // key: module + paths
};

}  // namespace fitz::lsp
