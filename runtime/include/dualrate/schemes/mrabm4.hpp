// Seed 004's multirate fourth-order Adams-Bashforth-Moulton schemes, serial (Steps 1-11,
// eqs. 9-16) and parallel two-track (eqs. 17-30), in the dual-rate task form that
// dualrate::DualRate (../dual_rate.hpp) runs as a fast task every h and a slow task every
// H = R h. x = [x_r; x_e]: x_r the slow state, x_e the fast state; t_n = n h, t_k = k H.
//
// The paper's tracks meet twice inside each macro step; real-time tasks can exchange data
// only at release instants. The task form therefore keeps every formula of the paper and
// moves the slow track one macro step ahead of the fast track it serves: slow job k
// (released at t_k) corrects x_r(t_k) with the fast values at t_k, then predicts the
// interpolation end points of x_r for macro step k + 1, which the fast task uses from t_{k+1}.
//
// Slow job k (k >= 4), with F_i = f_r at t_{k-1-i} (newest first), P the predictor of
// x_r(t_k) made by job k - 1, x_e^c(t_k) the carried fast state and x_e^1(t_k) the fast
// state of round 1 (serial: x_e^1 = x_e^c):
//   D     = f_r(t_k, P, x_e^1(t_k))                                     eqs. 14 / 20
//   x_r(t_k) = x_r(t_{k-1}) + H/24 (9 D + 19 F_0 - 5 F_1 + F_2)         eqs. 15 / 21
//   F_new = f_r(t_k, x_r(t_k), x_e^1(t_k))                              eqs. 16 / 22
//   A = x_r(t_k) + H/24 (55 F_0 - 59 F_1 + 37 F_2 - 9 F_3)  ~ x_r(t_{k+1})  eqs. 9 / 17
//   B = x_r(t_k) + H/3  (27 F_0 - 44 F_1 + 31 F_2 - 8 F_3)  ~ x_r(t_{k+2})  (AB4 over 2H)
//   (F_i renumbered after F_new is pushed)
//   serial:   P = A; round 1 of macro step k + 1 interpolates A -> B.
//   parallel: D' = f_r(t_{k+1}, A, x_e^c(t_k))   (the fast track held at its last value)  eq. 18
//             A' = x_r(t_k) + H/24 (9 D' + 19 F_0 - 5 F_1 + F_2)  (preferred predictor) eq. 19
//             B' = A' + (B - A)   (the AB4 segment moved to the preferred predictor)
//             P = A'; round 1 interpolates A -> B, round 2 A' -> B'.
//             (Extrapolating B' from D' instead, as AB4 with D' as the newest derivative,
//             carries the error of the held fast state in D' with weight 55/24 H: on the
//             planar spacecraft its errors were 34-116 times the paper form's, against 8.)
// Fast tick n in macro step m (j = n - m R + 1, w = j / R), each round a PECE substep
// (eqs. 10-13, 23-26, 27-30) from x_e with the history G of f_e (newest first):
//   x_e^P = x_e + h/24 (55 G_0 - 59 G_1 + 37 G_2 - 9 G_3),  x_r^I = S + w (E - S)
//   x_e  <- x_e + h/24 (9 f_e(t_{n+1}, x_r^I, x_e^P) + 19 G_0 - 5 G_1 + G_2)
//   G    <- push f_e(t_{n+1}, x_r^I, x_e)
// The carried round (serial: the only one; parallel: round 2) continues x_e and G; the
// parallel round 1 restarts from the carried x_e and G at the start of each macro step
// and its x_e at t_{m+1} goes to the slow correction, as in the paper.
// Inputs: the fast tick n holds u(t_n); slow job k uses u(t_k), sampled by the fast task.
// A model with held inputs (../input_hold.hpp) gives tick n the polynomial the fast task
// formed from its samples at t_n (StepInput: a HeldInput): every f evaluation above takes it at
// its own time (t_{n+1}; the start-up's RK4 stages), and slow job k the polynomial of tick k R,
// extrapolated over the macro step for parallel's D' at t_{k+1}: the slow task's inputs over
// its macro step come from the samples the fast task took.
// Start-up, as in the paper with RK4 at h: the fast task integrates the whole state with
// RK4 for the first 4 macro steps; slow jobs 0-3 take x_r(t_k) from it and fill F; job 3
// makes the first predictions; the fast history G is the last four RK4 points.
// Restart at a step of an input (a model with input_jumps, ../input_jump.hpp): when the sample
// of tick n steps, both histories hold derivatives of the old input, so the tasks start up
// again from the state at t_n: the fast task integrates the whole state with RK4 from tick n
// (x_r from its interpolation at t_n) until the Adams rounds resume at tick (k_0 + 4) R, where
// k_0 = ceil(n / R) is the first release at or after the step; slow jobs k_0 to k_0 + 3 take
// x_r(t_k) from it, and job k_0 + 3 makes the predictions. Over the restart the fast task's
// tick costs what a start-up tick costs. Every snapshot says from which macro step on the
// Adams rounds run (`adams_from`, with a step at its own tick counted).
// Compensated slow states (a float model's compensated_states, ../compensated_sum.hpp): the
// slow job adds the correction's increment H/24 (9 D + 19 F_0 - 5 F_1 + F_2) to x_r(t_{k-1})
// with Kahan's compensation, the carries in the slow task's data (reset where x_r is taken
// from the fast task's start-up), so that an integrating slow state (a state of charge) keeps
// its sum over the macro steps; 3 additions per compensated state and macro step.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "../compensated_sum.hpp"
#include "../input_hold.hpp"
#include "../input_jump.hpp"
#include "../model.hpp"
#include "../status.hpp"

namespace dualrate {

template <class M, int R, bool Parallel>
struct Mrabm4 {
  static_assert(R >= 1, "dualrate: the rate ratio r = H / h must be a positive integer");
  static_assert(M::kSlow > 0 && M::kFast > 0, "dualrate: mrabm4 needs slow and fast states");
  using Model = M;
  using Scalar = typename M::Scalar;
  using Time = typename M::Time;
  using State = typename M::State;
  using Input = typename M::Input;
  // What a tick takes: the sample, or for a model with held inputs its polynomial over the tick.
  using StepInput = std::conditional_t<HoldsInputs<M>::value, HeldInput<M>, Input>;
  using SlowState = Eigen::Matrix<Scalar, M::kSlow, 1>;
  using FastState = Eigen::Matrix<Scalar, M::kFast, 1>;
  static constexpr int kSlow = M::kSlow;
  static constexpr int kFast = M::kFast;
  static constexpr int kRatio = R;
  static constexpr std::uint32_t kStartupMacroSteps = 4;

  // Fast -> slow: the values at t_k, written by the fast task at release k.
  struct Snapshot {
    State x;             // [x_r; x_e^c]; the x_r part is the fast task's own only during start-up
    FastState xe_first;  // x_e^1(t_k)
    StepInput u;         // u(t_k) (with held inputs: the polynomial of tick k R)
    std::uint64_t adams_from = kStartupMacroSteps;  // the first macro step of Adams rounds
  };
  // Slow -> fast: the interpolation end points of one macro step.
  struct Endpoints {
    SlowState first_start, first_end;  // round 1 (parallel only)
    SlowState start, end;              // the carried round
  };
  struct Fast {
    State x = M::initial_state();  // [last interpolated x_r; carried x_e]
    std::array<FastState, 4> history{};
    FastState xe_first = M::initial_state().template tail<M::kFast>();
    std::array<FastState, 4> history_first{};
    Endpoints ends{};
    std::uint64_t tick = 0;
    std::uint64_t adams_from = std::uint64_t{kStartupMacroSteps} * R;  // ticks before it integrate with RK4
    LastSample<M> last{};                                              // of tick - 1
  };
  // The compensated slow states' carries (the fast part unused); none without compensation.
  using Carries = std::conditional_t<CompensatesStates<M>::value, State, Eigen::Matrix<Scalar, 0, 1>>;
  struct Slow {
    SlowState xr = M::initial_state().template head<M::kSlow>();
    SlowState predicted = SlowState::Zero();
    std::array<SlowState, 4> history{};
    Carries carry = Carries::Zero();
  };

  // One fast tick (n = f.tick) with u = u(t_n) and f.ends latched for its macro step.
  static Status fast_step(Fast& f, Scalar h, const StepInput& u) noexcept {
    const std::uint64_t n = f.tick;
    const Time t_next = static_cast<Time>(n + 1) * static_cast<Time>(h);
    f.adams_from = adams_from(f, u);
    f.last.took(input_sample(u));
    if (n < f.adams_from) {
      startup_step(f, static_cast<Time>(n) * static_cast<Time>(h), h, u);
      if (n + 4 >= f.adams_from) push(f.history, fast_rate(t_next, f.x, input_at(u, t_next)));
      f.xe_first = f.x.template tail<M::kFast>();
    } else {
      const int j = static_cast<int>(n % R) + 1;
      const Scalar w = Scalar(j) / Scalar(R);
      FastState xe = f.x.template tail<M::kFast>();
      const auto& u_next = input_at(u, t_next);  // both rounds' evaluations are at t_{n+1}
      if (Parallel) {
        if (j == 1) {
          f.xe_first = xe;
          f.history_first = f.history;
        }
        substep(t_next, h, u_next, interpolate(f.ends.first_start, f.ends.first_end, w), f.xe_first, f.history_first);
      }
      const SlowState xr = interpolate(f.ends.start, f.ends.end, w);
      substep(t_next, h, u_next, xr, xe, f.history);
      f.x.template head<M::kSlow>() = xr;
      f.x.template tail<M::kFast>() = xe;
    }
    f.tick = n + 1;
    return f.x.allFinite() && f.xe_first.allFinite() ? Status::kOk : Status::kNonFiniteState;
  }

  // What the fast task hands slow job k at release k, before its tick k R with the inputs u.
  static void snapshot(const Fast& f, const StepInput& u, Snapshot& s) noexcept {
    s.x = f.x;
    s.xe_first = f.xe_first;
    s.u = u;
    s.adams_from = adams_from(f, u) / R;
  }

  // Slow job k with the snapshot s of t_k; writes the end points of macro step k + 1 into
  // `next` from job s.adams_from - 1 on.
  static Status slow_step(Slow& s, std::uint64_t k, Scalar h, const Snapshot& in, Endpoints& next) noexcept {
    const Scalar big = h * Scalar(R);
    const Time t = static_cast<Time>(k) * static_cast<Time>(big);
    const FastState xe_slow = Parallel ? in.xe_first : in.x.template tail<M::kFast>();
    const auto& u = input_at(in.u, t);  // t_k, where tick k R's polynomial is (up to rounding of t_k) its sample
    if (k < in.adams_from) {
      s.xr = in.x.template head<M::kSlow>();
      s.carry.setZero();
    } else {
      const SlowState d = slow_rate(t, s.predicted, xe_slow, u);
      const SlowState dx =
          (big / Scalar(24)) * (Scalar(9) * d + Scalar(19) * s.history[0] - Scalar(5) * s.history[1] + s.history[2]);
      if constexpr (CompensatesStates<M>::value)
        CompensatedSum<M>{s.carry}(s.xr, 0, dx);
      else
        s.xr += dx;
    }
    push(s.history, slow_rate(t, s.xr, xe_slow, u));
    if (k + 1 >= in.adams_from) {
      const auto& F = s.history;
      const SlowState a =
          s.xr + (big / Scalar(24)) * (Scalar(55) * F[0] - Scalar(59) * F[1] + Scalar(37) * F[2] - Scalar(9) * F[3]);
      const SlowState b =
          s.xr + (big / Scalar(3)) * (Scalar(27) * F[0] - Scalar(44) * F[1] + Scalar(31) * F[2] - Scalar(8) * F[3]);
      next.first_start = a;
      next.first_end = b;
      if (Parallel) {
        const SlowState d = slow_rate(t + Time(big), a, in.x.template tail<M::kFast>(), input_at(in.u, t + Time(big)));
        const SlowState a2 = s.xr + (big / Scalar(24)) * (Scalar(9) * d + Scalar(19) * F[0] - Scalar(5) * F[1] + F[2]);
        next.start = a2;
        next.end = a2 + (b - a);
      } else {
        next.start = a;
        next.end = b;
      }
      s.predicted = next.start;
    }
    return s.xr.allFinite() && s.predicted.allFinite() ? Status::kOk : Status::kNonFiniteState;
  }

  // End points that hold the slow state at the last one used (a macro step without fresh ones).
  static void hold(Endpoints& e) noexcept {
    e.first_start = e.first_end;
    e.start = e.end;
  }

  // Everything the tasks keep from one macro step to the next, concatenated (verify's local
  // check restarts the reference core from it): at release k, the fast task's state before
  // its tick k R, the end points of macro step k (`ends`) and of macro step k + 1 (`next`,
  // written by job k) and the slow task's state after job k. The order is that of the
  // reference core's DualRateAdams::history(): x, x_e^1, ends, next, x_r, P, G, G^1, F, and
  // with compensated states the slow carries.
  static constexpr int kCarries = CompensatesStates<M>::value ? kSlow : 0;
  static constexpr int kKept = 15 * kSlow + 10 * kFast + kCarries;
  using Kept = Eigen::Matrix<Scalar, kKept, 1>;
  static Kept kept(const Fast& f, const Endpoints& ends, const Endpoints& next, const Slow& s) noexcept {
    Kept v;
    int at = 0;
    const auto put = [&v, &at](const auto& part) {
      v.template segment<std::decay_t<decltype(part)>::RowsAtCompileTime>(at) = part;
      at += std::decay_t<decltype(part)>::RowsAtCompileTime;
    };
    put(f.x);
    put(f.xe_first);
    for (const Endpoints* e : {&ends, &next}) {
      put(e->first_start);
      put(e->first_end);
      put(e->start);
      put(e->end);
    }
    put(s.xr);
    put(s.predicted);
    for (const auto& g : f.history) put(g);
    for (const auto& g : f.history_first) put(g);
    for (const auto& d : s.history) put(d);
    if constexpr (kCarries > 0) put(s.carry.template head<kCarries>());
    return v;
  }

 private:
  // The tick from which f runs Adams rounds, with its next tick's sample taken into account.
  static std::uint64_t adams_from(const Fast& f, const StepInput& u) noexcept {
    if (f.tick == 0 || !f.last.jumped(input_sample(u))) return f.adams_from;
    return ((f.tick + R - 1) / R + kStartupMacroSteps) * R;
  }

  template <class V>
  static void push(std::array<V, 4>& history, const V& newest) noexcept {
    history[3] = history[2];
    history[2] = history[1];
    history[1] = history[0];
    history[0] = newest;
  }

  static SlowState interpolate(const SlowState& a, const SlowState& b, Scalar w) noexcept { return a + w * (b - a); }

  static State join(const SlowState& xr, const FastState& xe) noexcept {
    State x;
    x.template head<M::kSlow>() = xr;
    x.template tail<M::kFast>() = xe;
    return x;
  }

  static FastState fast_rate(Time t, const State& x, const Input& u) noexcept {
    FastState d;
    M::fast_derivatives(t, x, u, d);
    return d;
  }

  static SlowState slow_rate(Time t, const SlowState& xr, const FastState& xe, const Input& u) noexcept {
    SlowState d;
    M::slow_derivatives(t, join(xr, xe), u, d);
    return d;
  }

  static void substep(Time t_next, Scalar h, const Input& u, const SlowState& xr, FastState& xe,
                      std::array<FastState, 4>& g) noexcept {
    const FastState predicted =
        xe + (h / Scalar(24)) * (Scalar(55) * g[0] - Scalar(59) * g[1] + Scalar(37) * g[2] - Scalar(9) * g[3]);
    const FastState d = fast_rate(t_next, join(xr, predicted), u);
    xe += (h / Scalar(24)) * (Scalar(9) * d + Scalar(19) * g[0] - Scalar(5) * g[1] + g[2]);
    push(g, fast_rate(t_next, join(xr, xe), u));
  }

  // Classical RK4 on the whole state, u held over the step (its polynomial at each stage).
  static void startup_step(Fast& f, Time t, Scalar h, const StepInput& u) noexcept {
    const Scalar half = h / Scalar(2);
    State k1, k2, k3, k4;
    M::derivatives(t, f.x, input_sample(u), k1);
    const auto& u_half = input_at(u, t + Time(half));
    M::derivatives(t + Time(half), f.x + half * k1, u_half, k2);
    M::derivatives(t + Time(half), f.x + half * k2, u_half, k3);
    M::derivatives(t + Time(h), f.x + h * k3, input_at(u, t + Time(h)), k4);
    f.x += (h / Scalar(6)) * (k1 + Scalar(2) * k2 + Scalar(2) * k3 + k4);
  }
};

}  // namespace dualrate
