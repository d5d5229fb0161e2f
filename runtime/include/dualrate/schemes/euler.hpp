// Forward Euler: x_{n+1} = x_n + h f(t_n, x_n, u_n). Order 1.
#pragma once

#include "../compensated_sum.hpp"
#include "../input_hold.hpp"
#include "../model.hpp"

namespace dualrate {

template <class M>
struct Euler {
  using Scalar = typename M::Scalar;
  using Time = typename M::Time;
  using State = typename M::State;
  using Input = typename M::Input;
  static constexpr int order = 1;

  // U: the inputs as a sample held constant (Input) or a HeldInput, of which the one stage takes
  // the sample.
  // Sum: the update's addition (compensated_sum.hpp).
  template <class U, class Sum = PlainSum>
  static void step(Time t, Scalar h, const U& u, State& x, Sum sum = {}) noexcept {
    State k;
    M::derivatives(t, x, input_sample(u), k);
    sum(x, 0, h * k);
  }
};

}  // namespace dualrate
