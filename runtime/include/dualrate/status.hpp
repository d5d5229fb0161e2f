// Fault reporting. One policy, chosen at build time:
//  - every step function returns a dualrate::Status ([[nodiscard]]);
//  - if DUALRATE_FAULT_HOOK is defined (as the name of a function
//    `void hook(dualrate::Status) noexcept` declared before this header), it is
//    called as well whenever a step reports a fault, e.g. to latch a DTC on an ECU.
// No exceptions, no heap.
#pragma once

#include <cstdint>

namespace dualrate {

enum class Status : std::uint8_t {
  kOk = 0,
  kNonFiniteState = 1,  // the new state had an Inf or NaN; the previous state was kept
};

constexpr const char* to_string(Status s) noexcept {
  switch (s) {
    case Status::kOk: return "ok";
    case Status::kNonFiniteState: return "non-finite state";
  }
  return "unknown";
}

inline Status report(Status s) noexcept {
#ifdef DUALRATE_FAULT_HOOK
  if (s != Status::kOk) DUALRATE_FAULT_HOOK(s);
#endif
  return s;
}

}  // namespace dualrate
