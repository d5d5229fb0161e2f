// Heun's method (explicit trapezoidal rule), order 2:
//   k1 = f(t_n, x_n),  k2 = f(t_n + h, x_n + h k1),  x_{n+1} = x_n + h/2 (k1 + k2).
#pragma once

#include "../model.hpp"

namespace dualrate {

template <class M>
struct Rk2 {
  using Scalar = typename M::Scalar;
  using Time = typename M::Time;
  using State = typename M::State;
  using Input = typename M::Input;
  static constexpr int order = 2;

  static void step(Time t, Scalar h, const Input& u, State& x) noexcept {
    State k1, k2;
    M::derivatives(t, x, u, k1);
    const State x1 = x + h * k1;
    M::derivatives(t + Time(h), x1, u, k2);
    x += (h / Scalar(2)) * (k1 + k2);
  }
};

}  // namespace dualrate
