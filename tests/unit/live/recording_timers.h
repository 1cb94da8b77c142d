// A TimerHost for unit tests: it runs nothing and records which timers are running, so a test
// can fire a hook by hand and see that unmounts stop what they started.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fitz/live/connection.h"

namespace fitz::live::testing {

struct RecordingTimers final : TimerHost {
  struct Running {
    std::string view;
    uint64_t mount;
    uint32_t hook;
    int64_t every_ms;
  };
  std::vector<Running> running;
  void start(const std::string& view, uint64_t mount, uint32_t hook, int64_t every_ms) override {
    running.push_back(Running{view, mount, hook, every_ms});
  }
  void stop(const std::string& view, uint64_t mount) override {
    std::erase_if(running, [&](const Running& r) { return r.view == view && r.mount == mount; });
  }
};

}  // namespace fitz::live::testing
