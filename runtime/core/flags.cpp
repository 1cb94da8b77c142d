// Feature flags: the `[flags]` defaults of fitz.toml (compiled into the program) overridden by
// FITZ_FLAG_<NAME> in the environment. The table is built once, before the first lookup, and
// never changes afterwards, so lookups from any thread need no lock.
#include <cstdlib>
#include <cstring>
#include <unistd.h>  // environ
#include <mutex>
#include <string>
#include <vector>

#include "fitz/log.h"
#include "fitz/runtime.h"


namespace fitz {

namespace {

struct FlagEntry {
  std::string key;   // the environment spelling: upper case, `-` and `.` as `_`
  std::string name;  // as written in fitz.toml (or the lower-cased environment suffix)
  bool on = false;
};

std::string env_key(std::string_view name) {
  std::string k;
  for (char c : name) k += c == '-' || c == '.' ? '_' : (c >= 'a' && c <= 'z' ? char(c - 32) : c);
  return k;
}

// 1 on, 0 off, -1 not a flag value.
int parse_flag_value(const char* v) {
  std::string s;
  for (const char* p = v; *p; ++p) s += (*p >= 'A' && *p <= 'Z') ? char(*p + 32) : *p;
  if (s == "1" || s == "true" || s == "on" || s == "yes") return 1;
  if (s == "0" || s == "false" || s == "off" || s == "no" || s.empty()) return 0;
  return -1;
}

std::vector<FlagEntry>& table() {
  static std::vector<FlagEntry> t;
  return t;
}
std::once_flag g_loaded;

void load(std::initializer_list<std::pair<const char*, bool>> defaults) {
  auto& t = table();
  for (const auto& [name, on] : defaults) t.push_back(FlagEntry{env_key(name), name, on});
  constexpr std::string_view kPrefix = "FITZ_FLAG_";
  for (char** e = environ; e && *e; ++e) {
    std::string_view kv(*e);
    if (kv.substr(0, kPrefix.size()) != kPrefix) continue;
    size_t eq = kv.find('=');
    if (eq == std::string_view::npos || eq == kPrefix.size()) continue;
    std::string key(kv.substr(kPrefix.size(), eq - kPrefix.size()));
    int v = parse_flag_value(*e + eq + 1);
    if (v < 0) {
      std::string msg = "{\"level\":\"warn\",\"msg\":\"ignoring FITZ_FLAG_" + key +
                        ": expected 1/true/on/yes or 0/false/off/no\"}\n";
      (void)!::fwrite(msg.data(), 1, msg.size(), stderr);
      continue;
    }
    FlagEntry* found = nullptr;
    for (auto& f : t)
      if (f.key == key) found = &f;
    if (!found) {
      std::string name;
      for (char c : key) name += (c >= 'A' && c <= 'Z') ? char(c + 32) : c;
      t.push_back(FlagEntry{key, name, false});
      found = &t.back();
    }
    found->on = v == 1;
  }
}

const std::vector<FlagEntry>& flags() {
  std::call_once(g_loaded, [] { load({}); });
  return table();
}

}  // namespace

void flags_init(std::initializer_list<std::pair<const char*, bool>> defaults) {
  std::call_once(g_loaded, [&] { load(defaults); });
}

bool flag(const Str& name) {
  std::string key = env_key(std::string_view(name.data(), name.size()));
  for (const auto& f : flags())
    if (f.key == key) return f.on;
  return false;
}

Map<Str, bool> flags_list() {
  Map<Str, bool> m;
  for (const auto& f : flags()) m.set(Str(f.name.data(), f.name.size()), f.on);
  return m;
}

}  // namespace fitz
