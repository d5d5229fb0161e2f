// Quasistatic approximation of seed 002 (Kroeger, Schiehlen) with the boundary-layer
// correction of its Theorem 1, for x' = F(t, x, z) with fast states z that are algebraic in
// the limit eps -> 0:
//   x' = F(t, x, z),   0 = G(t, x, z)                                   (eq. 3, reduced)
// For a second-order model M q'' = f with M = M0 + eps M1 (small coordinates s, ker M0 =
// span of their unit vectors), F holds q' = q_dot and M0_LL q_dot_L' = f_L, and G = f_s: the
// small coordinates' velocities are solved from their force balance. For a first-order model
// with eps z' = g(x, z), F = f and G = g.
//
// One step of size h from (t_n, x_n, z_n):
//   z_n* solves G(t_n, x_n, z) = 0                 (projection onto the slow manifold)
//   eta_n = z_n - z_n*                             (what is left of the boundary layer)
//   x_{n+1} = RK4 step of x' = F(t, x, z*(t, x)),  z* re-solved at every stage
//   z_{n+1} = z*(t_{n+1}, x_{n+1}) + E eta_n,      E = e^{h A_zz}  (Theorem 1's eta0(t/eps))
// A_zz is the fast block of the full model's Jacobian at the design point (scheduled: at the
// grid's operating points, E interpolated); without the
// correction (quasistatic_outer) E = 0 and z is the outer solution alone.
// G = 0 is solved by C::newton_iterations Newton steps from the previous stage's z: with
// the precomputed inverse C::residual_jacobian_inverse when C::inverse_precomputed (the
// generator proved G_z constant: one step is exact when G is also affine in z; or scheduled
// constants interpolate G_z^-1 over a grid: the steps contract by rho(I - G_z^-1 G_z) < 1, as
// the generator's proof checks), else with G_z re-evaluated each step (C::residual_jacobian)
// and a fixed-size partial-pivoting LU. The iteration count is fixed by the generator, so the
// cost of a step does not depend on the data.
//
// The generated SchemeConstants C provide: reduced_slow(t, x, u, SlowState&) (F),
// residual(t, x, u, FastState&) (G), newton_iterations, inverse_precomputed, boundary_layer,
// and either residual_jacobian_inverse(s, v) (G_z^-1 v) or residual_jacobian(t, x, u,
// FastSquare&) (column-major kFast x kFast as a vector); layer_transition(s, v) (E v) when
// boundary_layer; schedule(t, x, u), the constants at the step's start (dualrate::Unscheduled
// when they are constant; dualrate/schedule.hpp). Each matrix function takes the step's
// schedule s and a FastState v and returns a FastState. Held inputs (dualrate/input_hold.hpp)
// are evaluated at the stages' times, t_n + h/2 and t_n + h, where F and G are.
#pragma once

#include <Eigen/LU>

#include "../compensated_sum.hpp"
#include "../input_hold.hpp"
#include "../model.hpp"
#include "../schedule.hpp"

namespace dualrate {

template <class M, class C>
struct Quasistatic {
  using Scalar = typename M::Scalar;
  using Time = typename M::Time;
  using State = typename M::State;
  using Input = typename M::Input;
  using SlowState = typename M::SlowState;
  using FastState = typename M::FastState;
  using FastMatrix = Eigen::Matrix<Scalar, M::kFast, M::kFast>;
  using FastSquare = Eigen::Matrix<Scalar, M::kFast * M::kFast, 1>;
  using Schedule = typename C::Schedule;
  using Constants = C;
  static constexpr int order = 4;
  static_assert(M::kFast > 0, "dualrate: the quasistatic scheme needs fast states");
  static_assert(C::newton_iterations >= 1, "dualrate: the quasistatic scheme needs at least one Newton step");

  // z of x = [x; z] onto G(t, x, z) = 0, starting from the z it holds.
  static void project(const Schedule& s, Time t, const Input& u, State& x) noexcept {
    FastState g;
    for (int i = 0; i < C::newton_iterations; ++i) {
      C::residual(t, x, u, g);
      if constexpr (C::inverse_precomputed) {
        x.template tail<M::kFast>() -= C::residual_jacobian_inverse(s, g);
      } else {
        FastSquare j;
        C::residual_jacobian(t, x, u, j);
        const Eigen::PartialPivLU<FastMatrix> lu(Eigen::Map<const FastMatrix>(j.data()));
        x.template tail<M::kFast>() -= lu.solve(g);
      }
    }
  }

  // Projects x at (t, x) and evaluates F there.
  static void slow_rate(const Schedule& s, Time t, const Input& u, State& x, SlowState& k) noexcept {
    project(s, t, u, x);
    C::reduced_slow(t, x, u, k);
  }

  // U: the inputs as a sample held constant (Input) or a HeldInput evaluated at each stage's time.
  // Sum: the slow states' update's addition (compensated_sum.hpp).
  template <class U, class Sum = PlainSum>
  static void step(Time t, Scalar h, const U& u, State& x, Sum sum = {}) noexcept {
    step(C::schedule(t, x, input_sample(u)), t, h, u, x, sum);
  }

  // The step with the constants c of (t, x, u_n), C::schedule(t, x, u_n).
  template <class U, class Sum = PlainSum>
  static void step(const Schedule& c, Time t, Scalar h, const U& u, State& x, Sum sum = {}) noexcept {
    const Scalar half = h / Scalar(2);
    const Time mid = t + Time(half), end = t + Time(h);
    const auto& u_mid = input_at(u, mid);
    const auto& u_end = input_at(u, end);
    State s = x;
    SlowState k1, k2, k3, k4;
    slow_rate(c, t, input_sample(u), s, k1);
    const FastState eta = x.template tail<M::kFast>() - s.template tail<M::kFast>();
    State s2 = s;
    s2.template head<M::kSlow>() += half * k1;
    slow_rate(c, mid, u_mid, s2, k2);
    State s3 = s2;
    s3.template head<M::kSlow>() = s.template head<M::kSlow>() + half * k2;
    slow_rate(c, mid, u_mid, s3, k3);
    State s4 = s3;
    s4.template head<M::kSlow>() = s.template head<M::kSlow>() + h * k3;
    slow_rate(c, end, u_end, s4, k4);
    sum(x.template head<M::kSlow>(), 0, (h / Scalar(6)) * (k1 + Scalar(2) * k2 + Scalar(2) * k3 + k4));
    x.template tail<M::kFast>() = s4.template tail<M::kFast>();
    project(c, end, u_end, x);
    if constexpr (C::boundary_layer) x.template tail<M::kFast>() += C::layer_transition(c, eta);
  }
};

}  // namespace dualrate
