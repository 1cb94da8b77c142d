// Parsing the command line of `@command` programs (see fitz/cli.h for the conventions).
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "fitz/cli.h"

namespace fitz::cli {

namespace {

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Int: return "INT";
    case Kind::Float: return "FLOAT";
    case Kind::Str: return "STR";
    case Kind::Bool: return "BOOL";
  }
  return "VALUE";
}

bool valid_int(const std::string& s) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  (void)std::strtoll(s.c_str(), &end, 10);
  return errno == 0 && end && *end == '\0';
}

bool valid_float(const std::string& s) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  (void)std::strtod(s.c_str(), &end);
  return errno == 0 && end && *end == '\0';
}

std::optional<bool> parse_bool(std::string_view s) {
  if (s == "true" || s == "1" || s == "yes" || s == "on") return true;
  if (s == "false" || s == "0" || s == "no" || s == "off") return false;
  return std::nullopt;
}

std::string program_name(const char* argv0) {
  std::string_view p = argv0 ? argv0 : "program";
  if (auto slash = p.rfind('/'); slash != std::string_view::npos) p.remove_prefix(slash + 1);
  return std::string(p);
}

bool is_flag(const Param& p) { return p.has_default && !p.variadic; }

// Short names: the one `@arg` gave, else the first letter of the name when no earlier flag
// has it (`h` is help's).
std::vector<char> short_names(const Command& c) {
  std::vector<char> out(c.params.size(), 0);
  std::string taken = "h";
  for (std::size_t i = 0; i < c.params.size(); ++i)
    if (is_flag(c.params[i]) && c.params[i].short_name && c.params[i].short_name != '-') {
      out[i] = c.params[i].short_name;
      taken += out[i];
    }
  for (std::size_t i = 0; i < c.params.size(); ++i) {
    const Param& p = c.params[i];
    if (!is_flag(p) || p.short_name) continue;
    char first = p.name[0];
    if ((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z')) {
      if (taken.find(first) == std::string::npos) {
        out[i] = first;
        taken += first;
      }
    }
  }
  return out;
}

std::string usage_line(const std::string& prog, const Command& c, bool multi) {
  std::string s = "usage: " + prog;
  if (multi) s += std::string(" ") + c.name;
  bool flags = false;
  for (const Param& p : c.params) {
    if (is_flag(p)) {
      flags = true;
    } else if (p.variadic) {
      s += std::string(" [") + p.name + "...]";
    } else {
      s += std::string(" <") + p.name + ">";
    }
  }
  if (flags) s += " [options]";
  return s;
}

std::string command_help(const std::string& prog, const Command& c, bool multi) {
  std::string s;
  if (c.desc && *c.desc) s += std::string(c.desc) + "\n\n";
  s += usage_line(prog, c, multi) + "\n";
  bool any_pos = false;
  for (const Param& p : c.params) {
    if (is_flag(p)) continue;
    if (!any_pos) s += "\narguments:\n";
    any_pos = true;
    std::string left = std::string("  ") + (p.variadic ? "[" : "<") + p.name + (p.variadic ? "...]" : ">");
    s += left;
    if (*p.help) s += std::string(left.size() < 24 ? 24 - left.size() : 2, ' ') + p.help;
    s += "\n";
  }
  s += "\noptions:\n";
  std::vector<char> shorts = short_names(c);
  for (std::size_t i = 0; i < c.params.size(); ++i) {
    const Param& p = c.params[i];
    if (!is_flag(p)) continue;
    std::string left = "  ";
    left += shorts[i] ? std::string("-") + shorts[i] + ", " : "    ";
    bool negatable = p.kind == Kind::Bool && std::strcmp(p.default_text, "true") == 0;
    left += std::string("--") + (negatable ? "no-" : "") + p.name;
    if (p.kind != Kind::Bool) left += std::string(" <") + kind_name(p.kind) + ">";
    std::string right = p.help;
    if (p.kind != Kind::Bool && *p.default_text)
      right += std::string(right.empty() ? "" : " ") + "(default: " + p.default_text + ")";
    s += left;
    if (!right.empty()) s += std::string(left.size() < 24 ? 24 - left.size() : 2, ' ') + right;
    s += "\n";
  }
  s += "  -h, --help            print this help\n";  // the help column, as above: 24
  return s;
}

std::string global_help(const std::string& prog, const std::vector<Command>& commands) {
  std::string s = "usage: " + prog + " <command> [arguments] [options]\n\ncommands:\n";
  std::size_t width = 0;
  for (const Command& c : commands) width = std::max(width, std::strlen(c.name));
  for (const Command& c : commands) {
    s += std::string("  ") + c.name;
    if (c.desc && *c.desc) s += std::string(width - std::strlen(c.name) + 4, ' ') + c.desc;
    s += "\n";
  }
  s += "\nRun `" + prog + " <command> --help` for the arguments and options of one.\n";
  return s;
}

Parsed stop(int code) {
  Parsed p;
  p.exit_code = code;
  return p;
}

Parsed usage_error(const std::string& prog, const std::string& message, const std::string& usage, const std::string& help_cmd) {
  std::fprintf(stderr, "error: %s\n\n%s\n\nRun `%s --help` for more information.\n", message.c_str(), usage.c_str(),
               help_cmd.c_str());
  return stop(2);
}

bool check_value(const Param& p, const std::string& v) {
  switch (p.kind) {
    case Kind::Int: return valid_int(v);
    case Kind::Float: return valid_float(v);
    case Kind::Bool: return parse_bool(v).has_value();
    case Kind::Str: return true;
  }
  return false;
}

}  // namespace

Parsed parse(int argc, char** argv, const std::vector<Command>& commands) {
  std::string prog = program_name(argc > 0 ? argv[0] : nullptr);
  bool multi = commands.size() > 1;
  int i = 1;
  std::size_t which = 0;
  if (multi) {
    if (argc < 2) {
      std::fputs(global_help(prog, commands).c_str(), stderr);
      return stop(2);
    }
    std::string_view first = argv[1];
    if (first == "-h" || first == "--help" || first == "help") {
      std::fputs(global_help(prog, commands).c_str(), stdout);
      return stop(0);
    }
    bool found = false;
    for (std::size_t k = 0; k < commands.size(); ++k)
      if (first == commands[k].name) {
        which = k;
        found = true;
      }
    if (!found) {
      std::string names;
      for (const Command& c : commands) names += std::string(names.empty() ? "" : ", ") + c.name;
      std::fprintf(stderr, "error: unknown command `%s` (commands: %s)\n\nRun `%s --help` for more information.\n",
                   argv[1], names.c_str(), prog.c_str());
      return stop(2);
    }
    i = 2;
  }
  const Command& cmd = commands[which];
  std::string usage = usage_line(prog, cmd, multi);
  std::string help_cmd = multi ? prog + " " + cmd.name : prog;
  std::vector<char> shorts = short_names(cmd);
  Parsed out;
  out.command = which;
  out.values.assign(cmd.params.size(), std::nullopt);

  auto find_long = [&](std::string_view name) -> int {
    for (std::size_t k = 0; k < cmd.params.size(); ++k)
      if (is_flag(cmd.params[k]) && name == cmd.params[k].name) return int(k);
    return -1;
  };
  auto find_short = [&](char c) -> int {
    for (std::size_t k = 0; k < cmd.params.size(); ++k)
      if (shorts[k] == c) return int(k);
    return -1;
  };
  auto set = [&](int k, const std::string& value, const std::string& spelled) -> std::optional<Parsed> {
    const Param& p = cmd.params[std::size_t(k)];
    if (!check_value(p, value))
      return usage_error(prog, "invalid value '" + value + "' for " + spelled + ": expected " + kind_name(p.kind), usage,
                         help_cmd);
    out.values[std::size_t(k)] = value;
    return std::nullopt;
  };

  std::vector<std::string> positionals;
  bool options_done = false;
  for (; i < argc; ++i) {
    std::string arg = argv[i];
    if (options_done || arg.size() < 2 || arg[0] != '-' || (arg.size() > 1 && (std::isdigit(static_cast<unsigned char>(arg[1])) || arg[1] == '.'))) {
      positionals.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_done = true;
      continue;
    }
    if (arg == "-h" || arg == "--help") {
      std::fputs(command_help(prog, cmd, multi).c_str(), stdout);
      return stop(0);
    }
    std::string name, value;
    bool has_value = false;
    int k = -1;
    std::string spelled;
    if (arg[1] == '-') {
      name = arg.substr(2);
      if (auto eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        has_value = true;
      }
      spelled = "--" + name;
      k = find_long(name);
      if (k < 0 && name.rfind("no-", 0) == 0 && !has_value) {
        int neg = find_long(name.substr(3));
        if (neg >= 0 && cmd.params[std::size_t(neg)].kind == Kind::Bool) {
          out.values[std::size_t(neg)] = "false";
          continue;
        }
      }
    } else {
      if (arg.size() != 2) {
        // `-n5`: a short flag with its value attached.
        k = find_short(arg[1]);
        if (k >= 0 && cmd.params[std::size_t(k)].kind != Kind::Bool) {
          value = arg.substr(2);
          has_value = true;
        } else {
          k = -1;
        }
      } else {
        k = find_short(arg[1]);
      }
      spelled = arg.substr(0, 2);
    }
    if (k < 0) return usage_error(prog, "unknown option `" + spelled + "`", usage, help_cmd);
    const Param& p = cmd.params[std::size_t(k)];
    if (p.kind == Kind::Bool && !has_value) {
      out.values[std::size_t(k)] = "true";
      continue;
    }
    if (!has_value) {
      if (i + 1 >= argc) return usage_error(prog, spelled + " needs a value (" + kind_name(p.kind) + ")", usage, help_cmd);
      value = argv[++i];
    }
    if (auto err = set(k, value, spelled)) return *err;
  }

  std::size_t next = 0;
  for (std::size_t k = 0; k < cmd.params.size(); ++k) {
    const Param& p = cmd.params[k];
    if (is_flag(p)) continue;
    if (p.variadic) {
      for (; next < positionals.size(); ++next) {
        if (!check_value(p, positionals[next]))
          return usage_error(prog, "invalid value '" + positionals[next] + "' for <" + p.name + ">: expected " + kind_name(p.kind),
                             usage, help_cmd);
        out.rest.push_back(positionals[next]);
      }
      continue;
    }
    if (next >= positionals.size())
      return usage_error(prog, std::string("missing argument <") + p.name + ">", usage, help_cmd);
    if (auto err = set(int(k), positionals[next], std::string("<") + p.name + ">")) return *err;
    ++next;
  }
  if (next < positionals.size())
    return usage_error(prog, "unexpected argument '" + positionals[next] + "'", usage, help_cmd);
  return out;
}

long long to_int(const std::string& text) { return std::strtoll(text.c_str(), nullptr, 10); }
double to_float(const std::string& text) { return std::strtod(text.c_str(), nullptr); }
bool to_bool(const std::string& text) { return parse_bool(text).value_or(false); }

}  // namespace fitz::cli
