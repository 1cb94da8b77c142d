// The command line of a program whose functions are `@command`s: the generated `main` describes
// each command's parameters, `parse` turns argv into text values per parameter (or prints help,
// or a usage error), and the generated code converts those values and calls the function.
// Conventions: a parameter without a default is positional, one with a default is a `--flag`
// (Bool flags take no value and have a `--no-NAME` form), a variadic `...rest: Str` collects
// the remaining positionals; each flag gets the first letter of its name as a short form unless
// another flag took it (or `@arg(short=...)` says otherwise). Help exits 0, usage errors 2.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace fitz::cli {

enum class Kind { Int, Float, Str, Bool };

struct Param {
  const char* name;
  Kind kind;
  bool has_default;     // a flag; otherwise positional
  bool nullable;        // `T?`: the flag may be absent (null)
  bool variadic;        // `...rest: Str`: every remaining positional
  const char* default_text;  // for help ("" when none)
  const char* help;          // from `@arg(help=...)` ("" when none)
  char short_name;           // 0: choose automatically; '-': none
};

struct Command {
  const char* name;
  const char* desc;
  std::vector<Param> params;
};

struct Parsed {
  int exit_code = -1;  // >= 0: stop with this code (help printed, or a usage error reported)
  std::size_t command = 0;
  // One entry per parameter: the text given, or nullopt when absent (use the default).
  std::vector<std::optional<std::string>> values;
  std::vector<std::string> rest;  // the variadic parameter's values
};

// `single` programs (one command) take its arguments directly; several commands take the
// command's name first.
Parsed parse(int argc, char** argv, const std::vector<Command>& commands);

// Conversions of values `parse` already validated.
long long to_int(const std::string& text);
double to_float(const std::string& text);
bool to_bool(const std::string& text);

}  // namespace fitz::cli
