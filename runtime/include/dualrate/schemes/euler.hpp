// Forward Euler: x_{n+1} = x_n + h f(t_n, x_n, u_n). Order 1.
#pragma once

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
  template <class U>
  static void step(Time t, Scalar h, const U& u, State& x) noexcept {
    State k;
    M::derivatives(t, x, input_sample(u), k);
    x += h * k;
  }
};

}  // namespace dualrate
