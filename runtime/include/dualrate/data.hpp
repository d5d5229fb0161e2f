// Mutable simulation data of one model instance, and the single-rate advance that every
// single-rate scheme shares. Time is derived from the step counter, t_n = n h, so it
// does not drift; the state is checked after every step and a non-finite result is
// reported (the previous, finite state is kept).
// Limits: the counter is 64 bits wide (at a million steps a second it wraps after 584,942
// years). time(h) is Scalar(n) * h, one rounding of the exact n h while n is a Scalar (n <=
// 2^24 in float): within half a step of n h while that rounding, n h 2^-p, is below h / 2, so
// for n < 2^23 steps in float (8.4 million: 2.3 hours at 1 kHz) and n < 2^52 in double. Past
// that a float model whose equations or scenario inputs use t sees it off by more than half a
// step (no float t can be closer: its own spacing exceeds h there); models without t do not. With scheduled constants
// (dualrate/schedule.hpp), the steps that started outside the schedule's grid are counted.
#pragma once

#include <cstdint>
#include <type_traits>

#include "model.hpp"
#include "fault.hpp"

namespace dualrate {

template <class M>
struct Data {
  static_assert(ModelChecks<M>::value, "");
  typename M::State x = M::initial_state();
  std::uint64_t steps = 0;  // completed steps
  // Steps whose scheduling values lay outside the grid of scheduled constants (which were then
  // clamped to its edge); stays 0 for constant ones.
  std::uint64_t off_schedule = 0;

  typename M::Scalar time(typename M::Scalar h) const noexcept {
    return static_cast<typename M::Scalar>(steps) * h;
  }
};

// Whether a scheme's constants are scheduled: its Constants' Schedule says whether the step's
// scheduling values lay outside the grid (Schedule::outside), and the scheme has
// step(schedule, t, h, u, x).
template <class Scheme, class = void>
struct ScheduledScheme : std::false_type {};
template <class Scheme>
struct ScheduledScheme<Scheme, std::void_t<decltype(Scheme::Constants::Schedule::outside)>> : std::true_type {};

// One step of size h with inputs u held over the step (zero-order hold, as an ECU task
// samples its inputs once per period).
template <class Scheme, class M>
[[nodiscard]] Status advance(Data<M>& d, typename M::Scalar h, const typename M::Input& u) noexcept {
  const typename M::State previous = d.x;
  if constexpr (ScheduledScheme<Scheme>::value) {
    const typename Scheme::Constants::Schedule s = Scheme::Constants::schedule(d.time(h), d.x, u);
    if (s.outside) ++d.off_schedule;
    Scheme::step(s, d.time(h), h, u, d.x);
  } else {
    Scheme::step(d.time(h), h, u, d.x);
  }
  if (!d.x.allFinite()) {
    d.x = previous;
    return report(Status::kNonFiniteState);
  }
  ++d.steps;
  return Status::kOk;
}

}  // namespace dualrate
