// Client frames parsed with the runtime's strict JSON reader (UTF-8 checked, depth limited,
// duplicate keys refused) into ClientFrame; server frames written with its JsonWriter.
#include "fitz/http/json.h"
#include "json_text.h"
#include "fitz/live/frames.h"

namespace fitz::live {

namespace {

using detail::json_text;

using http::JsonKind;
using http::JsonReader;
using http::JsonWriter;
using http::Text;


// The fields each frame type may carry (`t` included); others are an UnknownField error.
enum Field : uint8_t { kT, kV, kTok, kRev, kRef, kC, kE, kP, kB, kFieldCount };
constexpr std::string_view kFieldNames[kFieldCount] = {"t", "v", "tok", "rev", "ref", "c", "e", "p", "b"};

struct Parser {
  std::string_view src;
  FrameResult res;

  bool fail(FrameError e, std::string msg) {
    if (res.error == FrameError::None) {
      res.error = e;
      res.message = std::move(msg);
    }
    return false;
  }

  // A view id ("fz-1") or an event name: short, ASCII letters, digits, '-' and '_'.
  static bool is_name(std::string_view s) {
    if (s.empty() || s.size() > kMaxNameBytes) return false;
    for (char c : s)
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
        return false;
    return true;
  }

  bool read_string(JsonReader& r, const char* field, std::string* out) {
    if (r.peek() != JsonKind::String) return bad(r, field, "expected a string");
    Str s;
    if (!r.read_str(&s)) return syntax(r);
    out->assign(s.data(), s.size());
    return true;
  }

  bool read_count(JsonReader& r, const char* field, int64_t max, int64_t* out) {
    if (r.peek() != JsonKind::Number) return bad(r, field, "expected a non-negative integer");
    if (!r.read_int(out)) return r.error_kind() == JsonReader::ErrorKind::Syntax ? syntax(r) : bad(r, field, "expected a non-negative integer");
    if (*out < 0 || *out > max) return bad(r, field, "out of range");
    return true;
  }

  bool bad(JsonReader& r, const char* field, const char* what) {
    if (r.peek() == JsonKind::Invalid && r.error_kind() == JsonReader::ErrorKind::Syntax) return syntax(r);
    return fail(FrameError::BadField, std::string("field '") + field + "': " + what);
  }

  bool syntax(JsonReader& r) {
    if (r.error_kind() == JsonReader::ErrorKind::Syntax) {
      Str e = r.error();
      return fail(FrameError::NotJson, std::string(e.data(), e.size()));
    }
    return fail(FrameError::BadField, [&] {
      Str e = r.error();
      return std::string(e.data(), e.size());
    }());
  }

  bool read_payload(JsonReader& r, ClientFrame& f) {
    if (r.peek() != JsonKind::Object) return bad(r, "p", "expected an object of strings");
    if (!r.begin_object()) return syntax(r);
    Text k;
    while (r.next_key(&k)) {
      if (f.payload.size() == kMaxPayloadKeys) return fail(FrameError::BadField, "field 'p': too many keys");
      std::string key(k.data, k.size);
      if (key.empty() || key.size() > kMaxNameBytes) return fail(FrameError::BadField, "field 'p': bad key");
      for (const auto& [pk, pv] : f.payload)
        if (pk == key) return fail(FrameError::BadField, "field 'p': duplicate key '" + key + "'");
      std::string v;
      if (!read_string(r, "p", &v)) return false;
      f.payload.emplace_back(std::move(key), std::move(v));
    }
    return r.ok() || syntax(r);
  }

  FrameResult run() {
    if (src.size() > kMaxFrameBytes) {
      fail(FrameError::TooBig, "frame over 64 KiB");
      return std::move(res);
    }
    // Nesting deeper than an `ev` needs (object > p object) is refused by the reader.
    JsonReader r(src.data(), src.size(), 4);
    JsonKind top = r.peek();
    if (top == JsonKind::Invalid || top == JsonKind::End) {
      syntax(r);
      if (res.error == FrameError::None || res.error == FrameError::BadField) {
        res.error = FrameError::NotJson;
        res.message = "not valid JSON";
      }
      return std::move(res);
    }
    if (top != JsonKind::Object) {
      // "nul" or "[1," are not JSON at all; "[]" or "1" are JSON but not a frame.
      if (!r.skip_value() || !r.finish())
        fail(FrameError::NotJson, "not valid JSON");
      else
        fail(FrameError::NotObject, "a frame is a JSON object");
      return std::move(res);
    }
    r.begin_object();
    ClientFrame& f = res.frame;
    bool seen[kFieldCount] = {};
    std::string type;
    std::string unknown;  // the first unknown field, if any
    Text k;
    // Fields arrive in any order, so each is read into the frame and checked against the
    // type's field set once `t` is known.
    while (r.next_key(&k)) {
      std::string_view key(k.data, k.size);
      size_t i = 0;
      while (i < kFieldCount && kFieldNames[i] != key) ++i;
      if (i == kFieldCount) {
        // Reported after the type check, so a server frame sent back reads as a bad type.
        if (unknown.empty()) unknown = "unknown field '" + std::string(key.substr(0, 64)) + "'";
        if (!r.skip_value()) {
          syntax(r);
          return std::move(res);
        }
        continue;
      }
      if (seen[i]) {
        fail(FrameError::BadField, "duplicate field '" + std::string(key) + "'");
        return std::move(res);
      }
      seen[i] = true;
      bool ok = true;
      switch (Field(i)) {
        case kT:
          if (r.peek() != JsonKind::String) {
            fail(FrameError::UnknownType, "field 't': expected a frame type");
            return std::move(res);
          }
          ok = read_string(r, "t", &type);
          break;
        case kV: ok = read_string(r, "v", &f.view); break;
        case kTok: ok = read_string(r, "tok", &f.token); break;
        case kRev: ok = read_count(r, "rev", int64_t(1) << 53, &f.rev); break;
        case kRef: ok = read_count(r, "ref", int64_t(1) << 53, &f.ref); break;
        case kC: ok = read_count(r, "c", 0xffffffffLL, &f.component); break;
        case kE: ok = read_string(r, "e", &f.event); break;
        case kP: ok = read_payload(r, f); break;
        case kB: ok = read_string(r, "b", &f.build); break;
        default: break;
      }
      if (!ok) return std::move(res);
    }
    if (!r.ok() || !r.finish()) {
      syntax(r);
      return std::move(res);
    }
    check(type, seen);
    if (res.error == FrameError::None && !unknown.empty()) fail(FrameError::UnknownField, type + ": " + unknown);
    return std::move(res);
  }

  void check(const std::string& type, const bool* seen) {
    ClientFrame& f = res.frame;
    // required, allowed: bit masks over Field
    unsigned required = 0, allowed = 0;
    auto bit = [](Field x) { return 1u << x; };
    if (!seen[kT]) {
      fail(FrameError::UnknownType, "missing field 't'");
      return;
    }
    if (type == "join") {
      f.kind = ClientFrameKind::Join;
      required = bit(kT) | bit(kV) | bit(kTok);
      allowed = required | bit(kRev) | bit(kB);
    } else if (type == "ev") {
      f.kind = ClientFrameKind::Event;
      required = bit(kT) | bit(kV) | bit(kRef) | bit(kC) | bit(kE);
      allowed = required | bit(kP);
    } else if (type == "resync") {
      f.kind = ClientFrameKind::Resync;
      required = allowed = bit(kT) | bit(kV);
    } else if (type == "leave") {
      f.kind = ClientFrameKind::Leave;
      required = allowed = bit(kT) | bit(kV);
    } else if (type == "hb") {
      f.kind = ClientFrameKind::Heartbeat;
      required = allowed = bit(kT);
    } else {
      fail(FrameError::UnknownType, "unknown frame type '" + type.substr(0, 32) + "'");
      return;
    }
    for (unsigned i = 0; i < kFieldCount; ++i) {
      if (seen[i] && !(allowed & (1u << i))) {
        fail(FrameError::UnknownField, type + ": unexpected field '" + std::string(kFieldNames[i]) + "'");
        return;
      }
      if (!seen[i] && (required & (1u << i))) {
        fail(FrameError::MissingField, type + ": missing field '" + std::string(kFieldNames[i]) + "'");
        return;
      }
    }
    if (seen[kV] && !is_name(f.view)) {
      fail(FrameError::BadField, type + ": field 'v': expected a view id");
      return;
    }
    if (seen[kTok] && (f.token.empty() || f.token.size() > kMaxFrameBytes)) {
      fail(FrameError::BadField, "join: field 'tok': expected a token");
      return;
    }
    if (seen[kB] && !is_name(f.build)) {
      fail(FrameError::BadField, "join: field 'b': expected a build id");
      return;
    }
    if (seen[kE]) {
      if (!is_name(f.event) && f.event != kBindEvent) {
        fail(FrameError::BadField, "ev: field 'e': expected an event name");
        return;
      }
      if (is_reserved_event(f.event)) fail(FrameError::ReservedEvent, "ev: '" + f.event + "' is a hook");
    }
  }
};

void write_view(JsonWriter& w, std::string_view view) {
  w.key("v");
  w.value(json_text(view));
}

std::string finish(Buf& b) { return std::string(b.data(), b.size()); }

}  // namespace

const char* frame_error_name(FrameError e) {
  switch (e) {
    case FrameError::None: return "ok";
    case FrameError::TooBig: return "too big";
    case FrameError::NotJson: return "not json";
    case FrameError::NotObject: return "not an object";
    case FrameError::UnknownType: return "unknown type";
    case FrameError::MissingField: return "missing field";
    case FrameError::BadField: return "bad field";
    case FrameError::UnknownField: return "unknown field";
    case FrameError::ReservedEvent: return "reserved event";
  }
  return "?";
}

bool is_reserved_event(std::string_view name) {
  return name == "mount" || name == "unmount" || name == "every" || name == "message" || name == "presence";
}

FrameResult parse_client_frame(std::string_view bytes) {
  Parser p{bytes, {}};
  FrameResult r = p.run();
  if (!r.ok()) r.frame = ClientFrame();
  return r;
}

std::string full_frame(std::string_view view, uint64_t rev, std::string_view html) {
  Buf b;
  JsonWriter w(b);
  w.begin_object();
  w.key("t");
  w.value("full");
  write_view(w, view);
  w.key("rev");
  w.value(int64_t(rev));
  w.key("html");
  w.value(json_text(html));
  w.end_object();
  return finish(b);
}

std::string patch_frame(std::string_view view, uint64_t rev, std::string_view ops_json) {
  Buf b;
  JsonWriter w(b);
  w.begin_object();
  w.key("t");
  w.value("patch");
  write_view(w, view);
  w.key("rev");
  w.value(int64_t(rev));
  w.key("ops");
  w.raw(json_text(ops_json));
  w.end_object();
  return finish(b);
}

std::string ack_frame(int64_t ref) {
  Buf b;
  JsonWriter w(b);
  w.begin_object();
  w.key("t");
  w.value("ack");
  w.key("ref");
  w.value(ref);
  w.end_object();
  return finish(b);
}

std::string redirect_frame(std::string_view to) {
  Buf b;
  JsonWriter w(b);
  w.begin_object();
  w.key("t");
  w.value("redirect");
  w.key("to");
  w.value(json_text(to));
  w.end_object();
  return finish(b);
}

std::string reload_frame() { return R"({"t":"reload"})"; }

std::string error_frame(std::string_view view, int64_t ref, std::string_view code, std::string_view msg) {
  Buf b;
  JsonWriter w(b);
  w.begin_object();
  w.key("t");
  w.value("error");
  write_view(w, view);
  w.key("ref");
  w.value(ref);
  w.key("code");
  w.value(json_text(code));
  if (!msg.empty()) {
    w.key("msg");
    w.value(json_text(msg));
  }
  w.end_object();
  return finish(b);
}

std::string hb_frame() { return R"({"t":"hb"})"; }

}  // namespace fitz::live
