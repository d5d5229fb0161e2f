// Status codes of step functions. No exceptions, no heap; see fault.hpp for the policy.
#pragma once

#include <cstdint>

namespace dualrate {

enum class Status : std::uint8_t {
  kOk = 0,
  kNonFiniteState = 1,  // the state after the step had an Inf or NaN (single-rate: the previous state was kept)
  kSlowOverrun = 2,     // a slow job was still running at the next slow release: that release was skipped
  kFastOverrun = 3,     // the fast task was still running (or had not started) at its next tick
  kSlowJobLate = 4,     // a slow job was still running at the next release, which was deferred (OverrunPolicy::kDefer)
};

constexpr const char* to_string(Status s) noexcept {
  switch (s) {
    case Status::kOk:
      return "ok";
    case Status::kNonFiniteState:
      return "non-finite state";
    case Status::kSlowOverrun:
      return "slow task overrun";
    case Status::kFastOverrun:
      return "fast task overrun";
    case Status::kSlowJobLate:
      return "slow job late (release deferred)";
  }
  return "unknown";
}

}  // namespace dualrate
