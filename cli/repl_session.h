// One `fitz repl` session: what earlier inputs declared (functions, types, imports) and the
// variables they left, carried as literals (cli/repl_carry.h). Each input is checked by the
// checker as part of a program made of those and the input, then compiled and run once; an
// earlier input's statements never run again.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli/driver.h"

namespace fitz::cli::repl {

struct Checked;

class Session {
 public:
  explicit Session(Io io);
  ~Session();

  // Checks and runs one input: prints its output, then `= value` for an expression, or the
  // diagnostics. Returns false when the input had errors or failed at run time.
  bool eval(std::string_view input);
  // `:type EXPR`: the type the checker gives the expression; nothing runs.
  bool show_type(std::string_view expr);
  // `:env`: the variables kept and the names declared so far.
  void show_env() const;
  // `:reset`: forgets everything.
  void reset();

 private:
  struct Entry {
    enum Kind { Declaration, Variable } kind;
    std::string name;  // Variable: its name; Declaration: the names it declares, for :env
    std::string text;  // what the next program starts with
    std::string type;  // Variable: its type as written
  };

  std::unique_ptr<Checked> check(std::string_view input, bool as_expression, const std::vector<std::string>& epilogue);
  void report(const Checked& c) const;
  std::string prelude() const;
  bool run(const Checked& c, std::vector<std::pair<std::string, std::string>>& values);
  void keep_declarations(const Checked& c);
  void keep_variables(const Checked& c, const std::vector<std::pair<std::string, std::string>>& values);

  Io io_;
  std::filesystem::path virtual_path_;
  std::filesystem::path work_dir_;
  std::vector<Entry> entries_;
  int step_ = 0;
};

}  // namespace fitz::cli::repl
