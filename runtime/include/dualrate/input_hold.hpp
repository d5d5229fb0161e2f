// Inputs between samples. A task samples its inputs once per step, at the step's start t_n;
// a model that declares an input's hold (Model::input_holds, from the model file's `hold:`)
// has the schemes evaluate it at their stages' times as the polynomial in s = t - t_n
//   zero       u(t_n + s) = u_n
//   linear     u(t_n + s) = u_n + s (u_n - u_{n-1}) / h
//   quadratic  u(t_n + s) = u_n + s (3 u_n - 4 u_{n-1} + u_{n-2}) / (2 h)
//                               + s^2 (u_n - 2 u_{n-1} + u_{n-2}) / (2 h^2)
// through the last two or three samples the task took, extrapolated over the step (an ECU has
// no future sample). Its error over a step is O(h^2) (linear) or O(h^3) (quadratic) where the
// input is smooth, so a scheme of order p stays of order min(p, 2) or min(p, 3); the zero hold
// leaves every scheme first order on a varying input. Until enough samples exist the order is
// lower: the first step holds u_0, the second a quadratic input's line through u_0 and u_1.
// A caller that knows an input's rates (a sensor's derivative, an importer's input
// derivatives) passes HeldInput itself: value u_n, rate du/dt and curvature d2u/dt2 / 2 at t_n.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "model.hpp"

namespace dualrate {

// The polynomial u(t_n + s) = value + s (rate + s curvature) over the step from `start` = t_n.
template <class M>
struct HeldInput {
  using Scalar = typename M::Scalar;
  using Time = typename M::Time;
  using Input = typename M::Input;
  Time start{};
  Input value = Input::Zero();
  Input rate = Input::Zero();
  Input curvature = Input::Zero();

  // At a stage's time t (its offset s = t - start computed in Time, then rounded to Scalar).
  Input at(Time t) const noexcept {
    const Scalar s = static_cast<Scalar>(t - start);
    return value + s * (rate + s * curvature);
  }
};

// The inputs a scheme's stage at time t takes: a sample held constant is itself.
template <class Input, class Time>
const Input& input_at(const Input& u, Time /*t*/) noexcept {
  return u;
}
template <class M, class Time>
typename M::Input input_at(const HeldInput<M>& u, Time t) noexcept {
  return u.at(t);
}
// The sample at the step's start: what a stage at the step's start takes (the polynomial's
// value there, without its arithmetic) and what scheduled constants are looked up at.
template <class Input>
const Input& input_sample(const Input& u) noexcept {
  return u;
}
template <class M>
const typename M::Input& input_sample(const HeldInput<M>& u) noexcept {
  return u.value;
}

// Whether M declares holds: static constexpr std::array<int, kInputs> input_holds, each 0
// (zero), 1 (linear) or 2 (quadratic).
template <class M, class = void>
struct HoldsInputs : std::false_type {};
template <class M>
struct HoldsInputs<M, std::void_t<decltype(M::input_holds)>> : std::true_type {};

// The samples a held model's instance keeps (in dualrate::Data); none without holds.
template <class M, bool = HoldsInputs<M>::value>
struct InputSamples {};

template <class M>
struct InputSamples<M, true> {
  using Input = typename M::Input;
  Input previous = Input::Zero();         // u_{n-1}
  Input before_previous = Input::Zero();  // u_{n-2}
  std::uint8_t count = 0;                 // samples kept, at most 2

  // The hold over the step of size h from t with the sample u, each input by its declared
  // order, lowered to the samples kept.
  HeldInput<M> hold(typename M::Time t, typename M::Scalar h, const Input& u) const noexcept {
    using Scalar = typename M::Scalar;
    HeldInput<M> held;
    held.start = t;
    held.value = u;
    for (int k = 0; k < M::kInputs; ++k) {
      const int declared = M::input_holds[static_cast<std::size_t>(k)];
      const int order = declared < count ? declared : count;
      if (order == 1) {
        held.rate[k] = (u[k] - previous[k]) / h;
      } else if (order == 2) {
        held.rate[k] = (Scalar(3) * u[k] - Scalar(4) * previous[k] + before_previous[k]) / (Scalar(2) * h);
        held.curvature[k] = (u[k] - Scalar(2) * previous[k] + before_previous[k]) / (Scalar(2) * h * h);
      }
    }
    return held;
  }
  // After a step that took u.
  void took(const Input& u) noexcept {
    before_previous = previous;
    previous = u;
    if (count < 2) ++count;
  }
};

}  // namespace dualrate
