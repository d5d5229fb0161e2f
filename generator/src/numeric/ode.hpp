// Ordinary differential equations as the reference core and the analysis step them: a
// right-hand side on plain vectors, the linear one dx/dt = J x, and the explicit Runge-Kutta
// steps of the textbook (forward Euler, Heun, classical RK4), written plainly in the runtime's
// order of operations.
#pragma once

#include <Eigen/Dense>

#include <functional>
#include <vector>

namespace dualrate {

// dx/dt = f(t, x) in the arithmetic of S (double, or float for a float build's step), with
// whatever the caller holds (inputs) fixed. t is a double, as a generated Model's Time is
// where its equations use t (a stage's time: t plus its offset computed in S).
template <class S>
using RightHandSideIn = std::function<void(double t, const std::vector<S>& x, std::vector<S>& dxdt)>;
using RightHandSide = RightHandSideIn<double>;

// dx/dt = J x; J must outlive the function.
RightHandSide linear_rhs(const Eigen::MatrixXd& j);

// The update x_j + dx_j of state j, as a build without compensated sums adds it.
struct PlainAdd {
  template <class S>
  S operator()(std::size_t /*j*/, S x, S dx) const {
    return x + dx;
  }
};

// The steps of size h from (t, x) in the arithmetic of S, operation for operation as the
// runtime's dualrate::Euler, Rk2 and Rk4::step compute them (the same constants, products and
// sums in the same order), so that in S = float they round as a float build does; the update's
// additions as `add` does them (the runtime's Sum). F is the right-hand side, called as
// f(Time, const std::vector<S>&, std::vector<S>&) (a RightHandSideIn<S> with Time double); Time
// is the stage times' type (the runtime's Time: a stage's time t plus its offset computed in
// S). On counted scalars (ir/counted_arithmetic.hpp) they give the step's operation count.
// Forward Euler: x + h f(t, x).
template <class S, class Add = PlainAdd, class F = RightHandSideIn<S>, class Time = double>
std::vector<S> euler_step_in(const F& f, Time t, S h, const std::vector<S>& x0, Add add = {}) {
  std::vector<S> x = x0, k;
  f(t, x, k);
  for (std::size_t j = 0; j < x.size(); ++j) x[j] = add(j, x[j], h * k[j]);
  return x;
}
// Heun's method (explicit trapezoidal rule): k1 = f(t, x), k2 = f(t + h, x + h k1), x + h/2 (k1 + k2).
template <class S, class Add = PlainAdd, class F = RightHandSideIn<S>, class Time = double>
std::vector<S> heun_step_in(const F& f, Time t, S h, const std::vector<S>& x0, Add add = {}) {
  std::vector<S> x = x0, x1 = x0, k1, k2;
  f(t, x, k1);
  for (std::size_t j = 0; j < x.size(); ++j) x1[j] = x[j] + h * k1[j];
  f(t + Time(h), x1, k2);
  const S half = h / S(2);
  for (std::size_t j = 0; j < x.size(); ++j) x[j] = add(j, x[j], half * (k1[j] + k2[j]));
  return x;
}
// Classical fourth-order Runge-Kutta: x + h/6 (k1 + 2 k2 + 2 k3 + k4).
template <class S, class Add = PlainAdd, class F = RightHandSideIn<S>, class Time = double>
std::vector<S> rk4_step_in(const F& f, Time t, S h, const std::vector<S>& x0, Add add = {}) {
  const S half = h / S(2);
  const Time mid = t + Time(half), end = t + Time(h);
  std::vector<S> x = x0, stage = x0, k1, k2, k3, k4;
  const auto stage_from = [&](S a, const std::vector<S>& k) {
    for (std::size_t j = 0; j < x.size(); ++j) stage[j] = x[j] + a * k[j];
    return stage;
  };
  f(t, x, k1);
  f(mid, stage_from(half, k1), k2);
  f(mid, stage_from(half, k2), k3);
  f(end, stage_from(h, k3), k4);
  const S sixth = h / S(6);
  for (std::size_t j = 0; j < x.size(); ++j) x[j] = add(j, x[j], sixth * (k1[j] + S(2) * k2[j] + S(2) * k3[j] + k4[j]));
  return x;
}

// The same in double (the reference core's and the analysis's steps).
std::vector<double> euler_step(const RightHandSide& f, double t, double h, const std::vector<double>& x);
std::vector<double> heun_step(const RightHandSide& f, double t, double h, const std::vector<double>& x);
std::vector<double> rk4_step(const RightHandSide& f, double t, double h, const std::vector<double>& x);

}  // namespace dualrate
