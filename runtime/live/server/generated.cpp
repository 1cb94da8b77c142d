// Support for generated live views: argument conversion and the default page layout.
#include "fitz/live/generated.h"

#include <cerrno>
#include <cstdlib>

#include "fitz/live/html.h"

namespace fitz::live::gen {

namespace {

EventError bad(std::string_view name, std::string_view want, const std::string& got) {
  return EventError{"args", "argument `" + std::string(name) + "` must be " + std::string(want) + ", not \"" +
                                got.substr(0, 64) + "\""};
}

EventError missing(std::string_view name) {
  return EventError{"args", "argument `" + std::string(name) + "` is missing"};
}

bool parse_int(const std::string& s, int64_t* out) {
  if (s.empty() || s.size() > 20) return false;
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || end != s.c_str() + s.size()) return false;
  *out = v;
  return true;
}

bool parse_float(const std::string& s, double* out) {
  if (s.empty() || s.size() > 64) return false;
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  if (errno != 0 || end != s.c_str() + s.size()) return false;
  *out = v;
  return true;
}

bool parse_bool(const std::string& s, bool* out) {
  // A checkbox sends its value when checked and "" when not; `bind:checked` sends true/false.
  if (s == "true" || s == "on" || s == "1") *out = true;
  else if (s == "false" || s == "off" || s == "0" || s.empty()) *out = false;
  else return false;
  return true;
}

void json_string(std::string& out, std::string_view s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          static const char* hex = "0123456789abcdef";
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

template <class T, class Parse>
std::optional<EventError> required(const Payload& p, std::string_view name, T* out, std::string_view want, Parse parse) {
  const std::string* v = payload_value(p, name);
  if (!v) return missing(name);
  if (!parse(*v, out)) return bad(name, want, *v);
  return std::nullopt;
}

template <class T, class Parse>
std::optional<EventError> optional(const Payload& p, std::string_view name, Nullable<T>* out, std::string_view want,
                                   Parse parse) {
  const std::string* v = payload_value(p, name);
  if (!v || v->empty()) {
    *out = Nullable<T>();
    return std::nullopt;
  }
  T value{};
  if (!parse(*v, &value)) return bad(name, want, *v);
  *out = Nullable<T>(value);
  return std::nullopt;
}

}  // namespace

const std::string* payload_value(const Payload& p, std::string_view name) {
  // Later sources win (§1.4): the last pair of a name is the one that counts.
  for (auto it = p.rbegin(); it != p.rend(); ++it)
    if (it->first == name) return &it->second;
  return nullptr;
}

std::optional<EventError> arg(const Payload& p, std::string_view name, Str* out) {
  const std::string* v = payload_value(p, name);
  if (!v) return missing(name);
  *out = Str(v->data(), v->size());
  return std::nullopt;
}
std::optional<EventError> arg(const Payload& p, std::string_view name, int64_t* out) {
  return required(p, name, out, "an Int", parse_int);
}
std::optional<EventError> arg(const Payload& p, std::string_view name, double* out) {
  return required(p, name, out, "a Float", parse_float);
}
std::optional<EventError> arg(const Payload& p, std::string_view name, bool* out) {
  return required(p, name, out, "a Bool", parse_bool);
}
std::optional<EventError> arg(const Payload& p, std::string_view name, Nullable<Str>* out) {
  const std::string* v = payload_value(p, name);
  *out = v ? Nullable<Str>(Str(v->data(), v->size())) : Nullable<Str>();
  return std::nullopt;
}
std::optional<EventError> arg(const Payload& p, std::string_view name, Nullable<int64_t>* out) {
  return optional(p, name, out, "an Int", parse_int);
}
std::optional<EventError> arg(const Payload& p, std::string_view name, Nullable<double>* out) {
  return optional(p, name, out, "a Float", parse_float);
}
std::optional<EventError> arg(const Payload& p, std::string_view name, Nullable<bool>* out) {
  return optional(p, name, out, "a Bool", parse_bool);
}

std::string args_json(const std::vector<std::pair<std::string_view, std::string>>& args) {
  std::string out = "{";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) out += ',';
    json_string(out, args[i].first);
    out += ':';
    json_string(out, args[i].second);
  }
  out += '}';
  return out;
}

std::string live_assets(std::string_view styles) {
  std::string out;
  out.reserve(styles.size() + 256);
  // The banner and toast the client's classes turn on (§2.5, §2.6); a layout of the app's
  // own can style them differently after these.
  out += "<style>.fz-disconnected{opacity:.6}.fz-toast{position:fixed;bottom:1rem;right:1rem;"
         "background:#b00020;color:#fff;padding:.5rem 1rem;border-radius:4px}</style>\n";
  if (!styles.empty()) {
    out += "<style>\n";
    out += styles;
    out += "</style>\n";
  }
  out += "<script src=\"/_fitz/live.js?v=";
  out += client_script_hash();
  out += "\" defer></script>\n";
  return out;
}

std::string default_head(std::string_view title, std::string_view styles) {
  std::string out;
  out.reserve(styles.size() + 512);
  out += "<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>";
  escape_html(title, out);
  out += "</title>\n";
  out += live_assets(styles);
  return out;
}

std::string default_page(std::string_view title, std::string_view styles, std::string_view body_html) {
  std::string out = "<!doctype html>\n<html lang=\"en\">\n<head>\n";
  out += default_head(title, styles);
  out += "</head>\n<body>\n";
  out += body_html;
  out += "\n</body>\n</html>\n";
  return out;
}

int64_t duration_ms(std::string_view t) {
  size_t i = 0;
  int64_t n = 0;
  while (i < t.size() && t[i] >= '0' && t[i] <= '9' && n < 1000000000) n = n * 10 + (t[i++] - '0');
  if (i == 0) return 0;
  std::string_view unit = t.substr(i);
  if (unit == "ms") return n;
  if (unit == "s" || unit.empty()) return n * 1000;
  if (unit == "m") return n * 60000;
  if (unit == "h") return n * 3600000;
  return 0;
}

}  // namespace fitz::live::gen
