// Heun's method (explicit trapezoidal rule), order 2:
//   k1 = f(t_n, x_n),  k2 = f(t_n + h, x_n + h k1),  x_{n+1} = x_n + h/2 (k1 + k2).
#pragma once

#include "../compensated_sum.hpp"
#include "../input_hold.hpp"
#include "../model.hpp"

namespace dualrate {

template <class M>
struct Rk2 {
  using Scalar = typename M::Scalar;
  using Time = typename M::Time;
  using State = typename M::State;
  using Input = typename M::Input;
  static constexpr int order = 2;

  // U: the inputs as a sample held constant (Input) or a HeldInput evaluated at each stage's time.
  // Sum: the update's addition (compensated_sum.hpp).
  template <class U, class Sum = PlainSum>
  static void step(Time t, Scalar h, const U& u, State& x, Sum sum = {}) noexcept {
    State k1, k2;
    M::derivatives(t, x, input_sample(u), k1);
    const State x1 = x + h * k1;
    M::derivatives(t + Time(h), x1, input_at(u, t + Time(h)), k2);
    sum(x, 0, (h / Scalar(2)) * (k1 + k2));
  }
};

}  // namespace dualrate
