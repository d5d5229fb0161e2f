// Classical fourth-order Runge-Kutta (the RK4 of seed 000, used there for the slow manifold):
//   k1 = f(t, x),  k2 = f(t + h/2, x + h/2 k1),  k3 = f(t + h/2, x + h/2 k2),  k4 = f(t + h, x + h k3),
//   x_{n+1} = x_n + h/6 (k1 + 2 k2 + 2 k3 + k4).
#pragma once

#include "../model.hpp"

namespace dualrate {

template <class M>
struct Rk4 {
  using Scalar = typename M::Scalar;
  using Time = typename M::Time;
  using State = typename M::State;
  using Input = typename M::Input;
  static constexpr int order = 4;

  static void step(Time t, Scalar h, const Input& u, State& x) noexcept {
    const Scalar half = h / Scalar(2);
    State k1, k2, k3, k4;
    M::derivatives(t, x, u, k1);
    M::derivatives(t + Time(half), x + half * k1, u, k2);
    M::derivatives(t + Time(half), x + half * k2, u, k3);
    M::derivatives(t + Time(h), x + h * k3, u, k4);
    x += (h / Scalar(6)) * (k1 + Scalar(2) * k2 + Scalar(2) * k3 + k4);
  }
};

}  // namespace dualrate
