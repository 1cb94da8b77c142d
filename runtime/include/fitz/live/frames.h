// The live-view socket protocol (views.md §2.2) as pure functions: client frames parsed
// strictly into structs (bad input is a typed error, never an exception), server frames built
// as JSON text. No I/O: the WebSocket runner feeds bytes in and writes strings out.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fitz::live {

inline constexpr size_t kMaxFrameBytes = 64 * 1024;  // inbound cap (§2.2)
inline constexpr size_t kMaxPayloadKeys = 256;       // `p` of an `ev`
inline constexpr size_t kMaxNameBytes = 128;         // view ids and event names

// Close codes (§2.2).
inline constexpr uint16_t kClosePolicy = 1008;       // token, origin or rate
inline constexpr uint16_t kCloseTooBig = 1009;
inline constexpr uint16_t kCloseServerFault = 1011;

enum class ClientFrameKind : uint8_t { Join, Event, Resync, Leave, Heartbeat };

struct ClientFrame {
  ClientFrameKind kind = ClientFrameKind::Heartbeat;
  std::string view;   // v: the live root id, e.g. "fz-1" (join, ev, resync, leave)
  std::string token;  // tok (join)
  int64_t rev = 0;    // rev (join): the last revision the client applied, 0 if none
  std::string build;  // b (join): the server build that rendered the page, "" if not known
  int64_t ref = 0;    // ref (ev): echoed by `ack`
  int64_t component = 0;  // c (ev): the per-connection instance number
  std::string event;  // e (ev): the handler name
  std::vector<std::pair<std::string, std::string>> payload;  // p (ev): raw string values
};

enum class FrameError : uint8_t {
  None,
  TooBig,         // over kMaxFrameBytes: close with 1009
  NotJson,        // syntax error or invalid UTF-8
  NotObject,      // the document is not an object
  UnknownType,    // `t` missing, not a string, or not a client frame type
  MissingField,
  BadField,       // wrong type, out of range, bad characters, too long
  UnknownField,   // strict: every field is known
  ReservedEvent,  // `e` names a hook (mount, unmount, every, message, presence)
};
const char* frame_error_name(FrameError e);

struct FrameResult {
  FrameError error = FrameError::None;
  std::string message;  // for the log and dev `error` frames, e.g. "ev: field 'c': expected Int"
  ClientFrame frame;
  bool ok() const { return error == FrameError::None; }
};

FrameResult parse_client_frame(std::string_view bytes);

// The one built-in event the client sends besides the component's own: a `bind:value` /
// `bind:checked` control changed (`p`: {field, value}). Its `:` keeps it out of the names a
// component can declare, so it never shadows a handler.
inline constexpr std::string_view kBindEvent = "fz:bind";

// Hook names a client can never dispatch (§1.3, §7).
bool is_reserved_event(std::string_view name);

// Server frames.
std::string full_frame(std::string_view view, uint64_t rev, std::string_view html);
// `ops_json` is a JSON array (see ops_to_json in diff.h), embedded as it is.
std::string patch_frame(std::string_view view, uint64_t rev, std::string_view ops_json);
std::string ack_frame(int64_t ref);
std::string redirect_frame(std::string_view to);
std::string reload_frame();
// `msg` is sent only when non-empty (dev); `ref` 0 means the error belongs to no event.
std::string error_frame(std::string_view view, int64_t ref, std::string_view code, std::string_view msg);
std::string hb_frame();

}  // namespace fitz::live
