// Which executives a verify run builds (VerifyOptions::tasks, TaskRun::tasks, a campaign's tasks).
#pragma once

#include <array>

#include "base/enum_text.hpp"

namespace dualrate {

// Which executives a run builds: a dual-rate scheme's sequential executive alone (single) or
// also its preemptive tasks (multi), or a single-rate scheme run as one periodic task
// (cortex-a53-linux). Text only at the edges: --tasks, the campaign file, JSON, the report.
enum class Tasks { kSingle, kMulti, kPeriodic };
inline constexpr std::array<Tasks, 3> kTaskKinds = {Tasks::kSingle, Tasks::kMulti, Tasks::kPeriodic};
// Those a dual-rate scheme's run chooses from (verify --tasks, a campaign's tasks).
inline constexpr std::array<Tasks, 2> kDualRateTaskKinds = {Tasks::kSingle, Tasks::kMulti};
constexpr const char* to_string(Tasks t) {
  switch (t) {
    case Tasks::kSingle:
      return "single";
    case Tasks::kMulti:
      return "multi";
    case Tasks::kPeriodic:
      return "periodic";
  }
  return "";
}

}  // namespace dualrate
