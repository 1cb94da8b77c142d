// libFuzzer target for the live-view socket's client frames (fitz/live/frames.h). Any bytes
// either parse into a frame that satisfies the protocol's invariants or fail with a typed
// error and a message; nothing throws, and over 64 KiB is always TooBig.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fitz/live/frames.h"

namespace {

bool is_name(std::string_view s) {
  if (s.empty() || s.size() > fitz::live::kMaxNameBytes) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
      return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fitz::live;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  FrameResult r = parse_client_frame(in);
  if (size > kMaxFrameBytes && r.error != FrameError::TooBig) std::abort();
  if (!r.ok()) {
    if (r.message.empty()) std::abort();
    return 0;
  }
  const ClientFrame& f = r.frame;
  switch (f.kind) {
    case ClientFrameKind::Heartbeat:
      if (!f.view.empty()) std::abort();
      break;
    case ClientFrameKind::Join:
      if (!is_name(f.view) || f.token.empty() || f.rev < 0) std::abort();
      break;
    case ClientFrameKind::Event:
      if (!is_name(f.view) || !is_name(f.event) || is_reserved_event(f.event)) std::abort();
      if (f.ref < 0 || f.component < 0 || f.component > 0xffffffffLL) std::abort();
      if (f.payload.size() > kMaxPayloadKeys) std::abort();
      for (const auto& [k, v] : f.payload)
        if (k.empty()) std::abort();
      break;
    case ClientFrameKind::Resync:
    case ClientFrameKind::Leave:
      if (!is_name(f.view)) std::abort();
      break;
  }
  return 0;
}
