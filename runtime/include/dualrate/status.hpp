// Status codes of step functions. No exceptions, no heap; see fault.hpp for the policy.
#pragma once

#include <cstdint>

namespace dualrate {

enum class Status : std::uint8_t {
  kOk = 0,
  kNonFiniteState = 1,  // the state after the step had an Inf or NaN; the previous state was kept
};

constexpr const char* to_string(Status s) noexcept {
  switch (s) {
    case Status::kOk: return "ok";
    case Status::kNonFiniteState: return "non-finite state";
  }
  return "unknown";
}

}  // namespace dualrate
