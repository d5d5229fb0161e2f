// Fault reporting. One policy, chosen at build time:
//  - every step function returns a dualrate::Status ([[nodiscard]]);
//  - if DUALRATE_FAULT_HOOK is defined as the name of a function
//    `void hook(dualrate::Status) noexcept` (declared after including
//    <dualrate/status.hpp> and before any generated header), it is called as well whenever
//    a step reports a fault, e.g. to latch a diagnostic trouble code on an ECU.
#pragma once

#include "status.hpp"

namespace dualrate {

inline Status report(Status s) noexcept {
#ifdef DUALRATE_FAULT_HOOK
  if (s != Status::kOk) DUALRATE_FAULT_HOOK(s);
#endif
  return s;
}

}  // namespace dualrate
