// Classical fourth-order Runge-Kutta (the RK4 of seed 000, used there for the slow manifold):
//   k1 = f(t, x),  k2 = f(t + h/2, x + h/2 k1),  k3 = f(t + h/2, x + h/2 k2),  k4 = f(t + h, x + h k3),
//   x_{n+1} = x_n + h/6 (k1 + 2 k2 + 2 k3 + k4).
#pragma once

#include "../compensated_sum.hpp"
#include "../input_hold.hpp"
#include "../model.hpp"

namespace dualrate {

template <class M>
struct Rk4 {
  using Scalar = typename M::Scalar;
  using Time = typename M::Time;
  using State = typename M::State;
  using Input = typename M::Input;
  static constexpr int order = 4;

  // U: the inputs as a sample held constant (Input) or a HeldInput evaluated at each stage's time.
  // Sum: the update's addition (compensated_sum.hpp).
  template <class U, class Sum = PlainSum>
  static void step(Time t, Scalar h, const U& u, State& x, Sum sum = {}) noexcept {
    const Scalar half = h / Scalar(2);
    State k1, k2, k3, k4;
    const Time mid = t + Time(half), end = t + Time(h);
    const auto& u_mid = input_at(u, mid);
    M::derivatives(t, x, input_sample(u), k1);
    M::derivatives(mid, x + half * k1, u_mid, k2);
    M::derivatives(mid, x + half * k2, u_mid, k3);
    M::derivatives(end, x + h * k3, input_at(u, end), k4);
    sum(x, 0, (h / Scalar(6)) * (k1 + Scalar(2) * k2 + Scalar(2) * k3 + k4));
  }
};

}  // namespace dualrate
