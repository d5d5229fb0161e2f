// Singular-perturbation local-linearization scheme ("SP-LL") of seed 000 (Gil, Sanfelice,
// Nikravesh, DETC2013-13330), steps 1-3, for x' = f(x, z) (slow), z' = g(x, z) (fast).
// With the linearization g ~ g_x (x - x_n) + g_z (z - z_n) + g(x_n, z_n) of eq. 18:
//
//   sigma = g_z^-1 g(x_n, z_n),  gamma = g_z^-1 g_x f(x_n, z_n)                     (eq. 43)
//   H(x)  = z_n - g_z^-1 g_x (x - x_n) - sigma            local slow manifold      (eq. 22)
//   1. int_0^h y = h phi1(h g_z) sigma + h^2 phi2(h g_z) gamma                   (eqs. 33, 43, 44)
//   2. x_{n+1} = x_hat + f_z int_0^h y, x_hat = RK4 of x' = f(x, H(x)) from x_n    (eq. 45)
//   3. z_{n+1} = H(x_{n+1}) + y_{n+1},  y_{n+1} = sigma + phi                       (eq. 46)
//      phi = int_0^h e^{A(h-s)} (B + C s) ds = h phi1(hA) B + h^2 phi2(hA) C        (eqs. 38-41, 47)
//      A = g_z + g_z^-1 g_x f_z,  B = A sigma + g_z^-1 g_x f(x_n, H(x_n)),
//      C = g_z^-1 g_x (f(x_{n+1}, H(x_{n+1})) - f(x_n, H(x_n))) / h.
// phi1(Z) = Z^-1 (e^Z - I) and phi2(Z) = Z^-2 (e^Z - I - Z) are the blocks of the Van Loan
// exponential of [[Z, I, 0], [0, 0, I], [0, 0, 0]], so h phi1(h g_z) = g_z^-1 (F_2 - I) of
// eq. 43 and h^2 phi2(h g_z) gamma = J_1 of eq. 44.
// Note on eq. 47: its block matrix [[A, B, C], [0, 0, 1], [0, 0, 0]] integrates the forcing
// B s + C; the derivation (linearly interpolated forcing, eqs. 38-40) needs B + C s, which
// is what is computed here.
//
// Held inputs (dualrate/input_hold.hpp: u(t_n + s) = u_n + s r + s^2 c over the step) move the
// linearization's manifold with them, H(x, s) = H(x) - K_u (u(t_n + s) - u_n), K_u = g_z^-1 g_u,
// and add K_u u'(s) = K_u (r + 2 c s) to the forcing of y = z - H (y' = A y + g_z^-1 g_x f + K_u u'):
//   1. int_0^h y = p1 sigma + p2 (gamma + K_u r)    (the curvature's h^3 phi3 term, O(h^3), dropped)
//   2. the RK4 stages at t_n + s take u(t_n + s) on H(x, s)
//   3. B += K_u r, C += 2 K_u c, and z_{n+1} = H(x_{n+1}, h) + y_{n+1}: exact for the held polynomial.
// A sample held constant (U = Input) is the case r = c = 0, which takes none of these terms.
//
// The generator computes every constant matrix (g_z^-1, g_z^-1 g_x, f_z, and the
// phi-function blocks for g_z and A at the step h); this step computes no exponential and
// inverts nothing. The constants struct C has, for each of them, a function applying it:
//   static Eigen::Matrix<Scalar, R, 1> M(const Schedule& s, const Eigen::Matrix<Scalar, K, 1>& v); // M v
// for M = gz_inv, a, p1 (h phi1(h g_z)), p2 (h^2 phi2(h g_z)), q1 (h phi1(h A)),
// q2 (h^2 phi2(h A)) (R = K = nf), k (g_z^-1 g_x: nf x ns), fz (ns x nf) and, for a model
// with held inputs, ku (g_z^-1 g_u: nf x ni, the columns of inputs held at zero order zero), and
//   static Schedule schedule(Time t, const State& x, const Input& u);
// the constants at the step's start (x_n, u): dualrate::Unscheduled when they are constant,
// else interpolated over the generator's grid of scheduling values (dualrate/schedule.hpp).
// Generated code writes each product over the matrix's nonzero entries only.
#pragma once

#include <Eigen/Core>

#include <type_traits>

#include "../compensated_sum.hpp"
#include "../input_hold.hpp"
#include "../model.hpp"
#include "../schedule.hpp"

namespace dualrate {

template <class M, class C>
struct SpLl {
  using Scalar = typename M::Scalar;
  using Time = typename M::Time;
  using State = typename M::State;
  using Input = typename M::Input;
  static constexpr int ns = M::kSlow;
  static constexpr int nf = M::kFast;
  static_assert(ns > 0 && nf > 0, "dualrate::SpLl needs slow and fast states");
  using Slow = typename M::SlowState;
  using Constants = C;
  using Fast = Eigen::Matrix<Scalar, nf, 1>;
  static constexpr int order = 1;  // local error O(h^2) from the linearization (seed 000, Figs. 4-5)

  // U: the inputs as a sample held constant (Input) or a HeldInput (a model with held inputs).
  // Sum: the slow states' update's addition (compensated_sum.hpp).
  template <class U, class Sum = PlainSum>
  static void step(Time t, Scalar h, const U& u, State& x, Sum sum = {}) noexcept {
    step(C::schedule(t, x, input_sample(u)), t, h, u, x, sum);
  }

  // The step with the constants s of (t, x, u_n), C::schedule(t, x, u_n).
  template <class U, class Sum = PlainSum>
  static void step(const typename C::Schedule& s, Time t, Scalar h, const U& u, State& x, Sum sum = {}) noexcept {
    constexpr bool held = std::is_same<U, HeldInput<M>>::value;
    const Slow xn = x.template head<ns>();
    const Fast zn = x.template tail<nf>();

    State d;
    M::derivatives(t, x, input_sample(u), d);
    const Fast sigma = C::gz_inv(s, d.template tail<nf>());
    Fast gamma = C::k(s, d.template head<ns>());
    Fast input_rate = Fast::Zero(), input_curvature = Fast::Zero();  // K_u r, K_u c
    if constexpr (held) {
      input_rate = C::ku(s, u.rate);
      input_curvature = C::ku(s, u.curvature);
      gamma += input_rate;
    }
    const Fast integral_y = C::p1(s, sigma) + C::p2(s, gamma);

    const Scalar half = h / Scalar(2);
    const Time mid = t + Time(half), end = t + Time(h);
    const auto& u_mid = input_at(u, mid);
    const auto& u_end = input_at(u, end);
    // H(x, s) = offset - g_z^-1 g_x x - shift(s), shift(s) = K_u (u(t_n + s) - u_n) at s = h/2, h.
    const Fast offset = zn - sigma + C::k(s, xn);
    Fast shift_mid = Fast::Zero(), shift_end = Fast::Zero();
    if constexpr (held) {
      const Scalar s_mid = static_cast<Scalar>(mid - t), s_end = static_cast<Scalar>(end - t);
      shift_mid = s_mid * (input_rate + s_mid * input_curvature);
      shift_end = s_end * (input_rate + s_end * input_curvature);
    }
    const auto manifold = [&](const Slow& xs, const Fast& shift) -> Fast {
      if constexpr (held) {
        return offset - C::k(s, xs) - shift;
      } else {
        return offset - C::k(s, xs);
      }
    };
    const auto slow_rate = [&](Time ts, const Slow& xs, const Fast& shift, const Input& us) -> Slow {
      State on_manifold;
      on_manifold << xs, manifold(xs, shift);
      Slow rate;
      M::slow_derivatives(ts, on_manifold, us, rate);
      return rate;
    };
    const Slow k1 = slow_rate(t, xn, Fast::Zero(), input_sample(u));
    const Slow k2 = slow_rate(mid, xn + half * k1, shift_mid, u_mid);
    const Slow k3 = slow_rate(mid, xn + half * k2, shift_mid, u_mid);
    const Slow k4 = slow_rate(end, xn + h * k3, shift_end, u_end);
    Slow x_next = xn;
    sum(x_next, 0, (h / Scalar(6)) * (k1 + Scalar(2) * k2 + Scalar(2) * k3 + k4), C::fz(s, integral_y));

    const Slow f1 = slow_rate(end, x_next, shift_end, u_end);
    Fast b = C::a(s, sigma) + C::k(s, k1);
    Fast c = C::k(s, f1 - k1) / h;
    if constexpr (held) {
      b += input_rate;
      c += Scalar(2) * input_curvature;
    }
    const Fast y_next = sigma + C::q1(s, b) + C::q2(s, c);
    x << x_next, manifold(x_next, shift_end) + y_next;
  }
};

}  // namespace dualrate
