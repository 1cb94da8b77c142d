// Time zones read from the system tz database (TZif files, with the POSIX rule of their footer
// for instants past the last listed transition). The cron runner schedules in them and
// `DateTime.in_tz` prints in them. Times are Unix seconds.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fitz {

class TimeZone {
 public:
  struct Transition {
    int64_t at;      // UTC instant from which `offset` applies
    int32_t offset;  // seconds east of UTC
  };
  static std::shared_ptr<const TimeZone> utc();
  // `name` such as "Europe/Madrid" or "UTC"; nullptr and `error` set when unknown or unreadable.
  static std::shared_ptr<const TimeZone> load(std::string_view name, std::string& error);
  // From TZif bytes (tests, and the loader).
  static std::shared_ptr<const TimeZone> from_tzif(std::string_view name, std::string_view data, std::string& error);
  // From a POSIX TZ rule alone, e.g. "CET-1CEST,M3.5.0,M10.5.0/3".
  static std::shared_ptr<const TimeZone> from_posix(std::string_view name, std::string_view rule, std::string& error);

  const std::string& name() const { return name_; }
  int32_t offset_at(int64_t utc) const;
  // The first transition strictly after `utc` (an offset change), if any.
  std::optional<Transition> next_transition(int64_t utc) const;

  struct PosixRule;  // time_zone.cpp

 private:
  std::string name_;
  std::vector<Transition> transitions_;  // sorted; offsets after each listed instant
  int32_t initial_offset_ = 0;           // before the first transition
  std::shared_ptr<const PosixRule> rule_;  // after the last transition, when present
  void rule_transitions(int year, std::vector<Transition>& out) const;
};

}  // namespace fitz
