// Stabilized multirate forward Euler (SMFE) of seed 001 (Shi, Rojas, arXiv 2504.06371),
// Algorithm 1, for x' = F(t, x) with slow and fast states: one macro step D (the task
// period) is N forward-Euler steps of the whole state with the short inner step h_s,
//   x_{i+1} = x_i + h_s F(t_n + i h_s, x_i),   i = 0..N-1                      (eq. 12)
// which pull the fast states onto their manifold, then one step over the rest of D,
//   x_{n+1} = x_N + (D - N h_s) F(t_n + N h_s, x_N)                             (eq. 13)
// Inputs are a sample held over D, or held inputs (dualrate/input_hold.hpp) evaluated at each
// inner step's time. The generator chooses h_s and N from the Jacobian's eigenvalues
// at the design point so that eq. 14, |1 + (D - N h_s) lambda| |1 + h_s lambda|^N < 1,
// holds for every eigenvalue (generator/src/schemes/smfe/smfe.hpp), and emits them as constants:
//   C::inner_steps (N, int) and C::inner_step (h_s, Scalar),
// or, with scheduled constants (dualrate/schedule.hpp), h_s as the member inner_step of
// C::Schedule, interpolated at the macro step's start over the generator's grid, and N the
// largest any grid point needs (with N h_s < D at every point).
// Cost: N + 1 right-hand-side evaluations per macro step, no matrices.
#pragma once

#include <type_traits>

#include "../compensated_sum.hpp"
#include "../input_hold.hpp"
#include "../model.hpp"
#include "../schedule.hpp"

namespace dualrate {

template <class M, class C>
struct Smfe {
  using Scalar = typename M::Scalar;
  using Time = typename M::Time;
  using State = typename M::State;
  using Input = typename M::Input;
  using Constants = C;
  static constexpr int order = 1;
  static constexpr int kInnerSteps = C::inner_steps;
  static_assert(kInnerSteps >= 1, "dualrate: SMFE needs at least one inner step");

  // U: the inputs as a sample held constant (Input) or a HeldInput evaluated at each inner step.
  // Sum: smfe adds its inner steps plainly (a model does not compensate states under it).
  template <class U, class Sum = PlainSum>
  static void step(Time t, Scalar d, const U& u, State& x, Sum = {}) noexcept {
    static_assert(std::is_same<Sum, PlainSum>::value, "dualrate: smfe does not compensate sums");
    step(C::schedule(t, x, input_sample(u)), t, d, u, x);
  }

  // The macro step with the constants s of (t, x, u_n), C::schedule(t, x, u_n).
  template <class U, class Sum = PlainSum>
  static void step(const typename C::Schedule& s, Time t, Scalar d, const U& u, State& x, Sum = {}) noexcept {
    static_assert(std::is_same<Sum, PlainSum>::value, "dualrate: smfe does not compensate sums");
    const Scalar hs = inner_step(s);
    State k;
    M::derivatives(t, x, input_sample(u), k);
    x += hs * k;
    for (int i = 1; i < kInnerSteps; ++i) {
      const Time ti = t + Time(Scalar(i) * hs);
      M::derivatives(ti, x, input_at(u, ti), k);
      x += hs * k;
    }
    const Scalar done = Scalar(kInnerSteps) * hs;
    M::derivatives(t + Time(done), x, input_at(u, t + Time(done)), k);
    x += (d - done) * k;
  }

 private:
  static Scalar inner_step([[maybe_unused]] const typename C::Schedule& s) noexcept {
    if constexpr (std::is_same_v<typename C::Schedule, Unscheduled>)
      return C::inner_step;
    else
      return s.inner_step;
  }
};

}  // namespace dualrate
