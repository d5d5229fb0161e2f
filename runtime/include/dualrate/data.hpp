// Mutable simulation data of one model instance, and the single-rate advance that every
// single-rate scheme shares. Time is derived from the step counter, t_n = n h, so it
// does not drift; the state is checked after every step and a non-finite result is
// reported (the previous, finite state is kept).
// Limits: the counter is 64 bits wide (at a million steps a second it wraps after 584,942
// years). time(h) is Time(n) * Time(h), one rounding of n h. A generated Model's Time is double
// where its equations or scenario inputs use t or its inputs are held (a stage's offset from the
// step's start is computed in it; Scalar otherwise, where t is never read), so
// that time is within half a step of n h for n < 2^52 steps (h the Scalar step: in float,
// float(h), which differs from the declared step by at most 2^-24 of it, less than a clock
// crystal's tolerance); each term of t and parameters is computed in Time and rounded once to
// Scalar. A float t would reach only 2^23 steps (its own spacing exceeds h beyond). With
// scheduled constants (dualrate/schedule.hpp), the steps that started outside the schedule's
// grid are counted.
#pragma once

#include <cstdint>
#include <type_traits>

#include "compensated_sum.hpp"
#include "model.hpp"
#include "fault.hpp"
#include "input_hold.hpp"

namespace dualrate {

// The carries of a model's compensated sums (compensated_sum.hpp): x - carry is the sum its
// steps added; nothing for a model without them. After the state and counters in a Data, whose
// state stays first (a calibration tool reads it there).
template <class M, bool = CompensatesStates<M>::value>
struct Carries {};
template <class M>
struct Carries<M, true> {
  typename M::State carry = M::State::Zero();
};

// The state and counters, first in every Data.
template <class M>
struct StepData {
  static_assert(ModelChecks<M>::value, "");
  typename M::State x = M::initial_state();
  std::uint64_t steps = 0;  // completed steps
  // Steps whose scheduling values lay outside the grid of scheduled constants (which were then
  // clamped to its edge); stays 0 for constant ones.
  std::uint64_t off_schedule = 0;

  typename M::Time time(typename M::Scalar h) const noexcept {
    return static_cast<typename M::Time>(steps) * static_cast<typename M::Time>(h);
  }
};

// The addition of a step's update: compensated with d's carries where M has them.
template <class M>
auto update_sum(Carries<M>& d) noexcept {
  if constexpr (CompensatesStates<M>::value) {
    return CompensatedSum<M>{d.carry};
  } else {
    static_cast<void>(d);
    return PlainSum{};
  }
}

template <class M, bool = HoldsInputs<M>::value>
struct Data : StepData<M>, Carries<M> {};

// A model with held inputs keeps the samples its steps took, after the state and counters.
template <class M>
struct Data<M, true> : StepData<M>, Carries<M> {
  InputSamples<M> samples;
};

// Whether a scheme's constants are scheduled: its Constants' Schedule says whether the step's
// scheduling values lay outside the grid (Schedule::outside), and the scheme has
// step(schedule, t, h, u, x).
template <class Scheme, class = void>
struct ScheduledScheme : std::false_type {};
template <class Scheme>
struct ScheduledScheme<Scheme, std::void_t<decltype(Scheme::Constants::Schedule::outside)>> : std::true_type {};

// One step of size h from d's state with the inputs u: a sample taken at the step's start,
// held constant over the step (zero-order hold, as an ECU task samples its inputs once per
// period), or for a model with holds extrapolated from the samples d keeps; or a HeldInput
// that the caller formed. A model's compensated states take the step's increment with their
// carries. A step that fails keeps d's state, carries and samples.
template <class Scheme, class M, class U>
[[nodiscard]] Status advance(Data<M>& d, typename M::Scalar h, const U& u) noexcept {
  if constexpr (HoldsInputs<M>::value && !std::is_same<U, HeldInput<M>>::value) {
    return advance<Scheme>(d, h, d.samples.hold(d.time(h), h, u));
  } else {
    const Carries<M> carries = static_cast<const Carries<M>&>(d);
    const typename M::State previous = d.x;
    const auto sum = update_sum<M>(d);
    if constexpr (ScheduledScheme<Scheme>::value) {
      const typename Scheme::Constants::Schedule s = Scheme::Constants::schedule(d.time(h), d.x, input_sample(u));
      if (s.outside) ++d.off_schedule;
      Scheme::step(s, d.time(h), h, u, d.x, sum);
    } else {
      Scheme::step(d.time(h), h, u, d.x, sum);
    }
    if (!d.x.allFinite()) {
      d.x = previous;
      static_cast<Carries<M>&>(d) = carries;
      return report(Status::kNonFiniteState);
    }
    ++d.steps;
    if constexpr (HoldsInputs<M>::value) d.samples.took(input_sample(u));
    return Status::kOk;
  }
}

}  // namespace dualrate
