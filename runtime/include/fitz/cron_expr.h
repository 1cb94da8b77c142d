// Cron expressions parsed into bit sets: pure and dependency-free (only the standard library),
// so the checker validates a `@cron` schedule with the same parser the job runner uses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fitz::jobs {

// ---- cron expressions -------------------------------------------------------------------------

// A parsed schedule: one bit per allowed value of each field. Days of week are 0 = Sunday.
struct CronSchedule {
  uint64_t seconds = 0;  // bits 0..59
  uint64_t minutes = 0;  // bits 0..59
  uint32_t hours = 0;    // bits 0..23
  uint32_t days = 0;     // bits 1..31 (day of month)
  uint16_t months = 0;   // bits 1..12
  uint8_t weekdays = 0;  // bits 0..6
  std::vector<bool> years;  // index year - kMinYear; empty: every year
  bool all_hours = false;   // `*` in the hour field: a repeated wall-clock hour runs again
  static constexpr int kMinYear = 1970;
  static constexpr int kMaxYear = 2199;
};

struct CronParse {
  std::optional<CronSchedule> schedule;
  std::string error;  // why the expression was refused (when schedule is empty)
};

// `sec min hour day month weekday [year]`, or the 5-field Unix form without seconds (second 0),
// or an alias (@yearly @annually @monthly @weekly @daily @midnight @hourly). Fields take `*`,
// `?`, numbers, names (JAN-DEC, SUN-SAT), ranges `a-b`, steps `*/n`, `a/n`, `a-b/n` and lists.
// Weekday numbers: the 5-field form counts like Unix cron (0 or 7 = Sunday, 1 = Monday); the
// 6- and 7-field forms like the cron crate the spec follows (1 = Sunday ... 7 = Saturday).
// Day of month and day of week must both match.
CronParse parse_cron(std::string_view expr);

}  // namespace fitz::jobs
