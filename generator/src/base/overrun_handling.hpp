// What dual-rate tasks do with a release that finds the slow job still running.
#pragma once

#include <array>

#include "base/enum_text.hpp"

namespace dualrate {

// The release is skipped (the slow state held) or deferred until the job ends: the runtime's
// dualrate::OverrunPolicy (runtime/include/dualrate/dual_rate.hpp), kSkip or kDefer, which
// generated code instantiates. Text only at the edges: --overrun, a system file, verify's JSON
// and report.
enum class OverrunHandling { kSkip, kDefer };
inline constexpr std::array<OverrunHandling, 2> kOverrunHandlings = {OverrunHandling::kSkip, OverrunHandling::kDefer};
constexpr const char* to_string(OverrunHandling o) {
  switch (o) {
    case OverrunHandling::kSkip:
      return "skip";
    case OverrunHandling::kDefer:
      return "defer";
  }
  return "";
}

}  // namespace dualrate
