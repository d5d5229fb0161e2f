// Partitioned Runge-Kutta (PRK) dual-rate step of seed 003 (Shome, Haug, Jay 2004), for
// x' = f(x, z) (slow) and z' = g(x, z) (fast): one step h for both partitions, the slow
// part with tableau (A, b), the fast part with (Â, b̂), every stage i = 1..s evaluated at
// the pair of stage values (eqs. 18-21):
//
//   X_i = x_n + h sum_j a_ij F_j,   Z_i = z_n + h sum_j â_ij G_j,                 (eqs. 18, 19)
//   F_i = f(t_n + c_i h, X_i, Z_i), G_i = g(t_n + ĉ_i h, X_i, Z_i),
//   x_{n+1} = x_n + h sum_i b_i F_i,  z_{n+1} = z_n + h sum_i b̂_i G_i,           (eqs. 20, 21)
//
// with c_i = sum_j a_ij and ĉ_i = sum_j â_ij. The paper's stage equations have no time
// argument (autonomous systems); a model's explicit time dependence is evaluated at each
// partition's own abscissa, and so are held inputs (dualrate/input_hold.hpp); a sample is
// held constant over the step. F_i is computed only at stages whose column of A or whose
// b_i is non-zero, G_i likewise for Â and b̂, and zero coefficients are dropped at compile
// time: for Prk25 one step costs 2 slow and 5 fast right-hand-side evaluations.
//
// Tableau T: static constexpr int kStages, kOrder; double a[s][s], b[s], a_fast[s][s],
// b_fast[s] (strictly lower triangular: explicit).
#pragma once

#include <type_traits>
#include <utility>

#include "../compensated_sum.hpp"
#include "../input_hold.hpp"
#include "../model.hpp"

namespace dualrate {

// The 2-5 PRK of seed 003, Table 6: a 2-stage second-order slow tableau (only columns 2
// and 4 non-zero) and a 5-stage fast tableau whose stability polynomial is Table 5's
// R(z) = 1 + z + z^2/2 + 3z^3/16 + z^4/32 + z^5/128 (imaginary stability interval
// [-4i, 4i]); order 2 with the coupling conditions b.ĉ = b̂.c = 1/2.
// The printed fast tableau is garbled in the seed's copy. Read as printed: every entry but
// â32 and â42. The copy prints row 3 as (0.11732777, 0.18207389), where the second number
// repeats â51, and row 4 as (0.24343069, 0.50337891, 0.15850599), where 0.50337891 belongs
// to row 3: â32 = 0.50337891. â42 is unreadable; it is derived from b.ĉ = 1/2 (the only
// condition it enters linearly with ĉ2 fixed): â42 = (1/2 - b2 ĉ2)/b4 - â41 - â43. With it,
// every order, coupling and stability condition holds to 5.4e-9 (the printed digits'
// rounding); tests/unit/schemes/prk_test.cpp checks them to 1e-8.
struct Prk25Tableau {
  static constexpr int kStages = 5;
  static constexpr int kOrder = 2;
  static constexpr double a[5][5] = {
      {0, 0, 0, 0, 0},
      {0, 0, 0, 0, 0},
      {0, 0.52737769, 0, 0, 0},
      {0, 0.99958447, 0, 0, 0},
      {0, 0.52396768, 0, 0.52396768, 0},
  };
  static constexpr double b[5] = {0, 0.499792148, 0, 0.50020785, 0};
  static constexpr double a_fast[5][5] = {
      {0, 0, 0, 0, 0},
      {0.59790623, 0, 0, 0, 0},
      {0.11732777, 0.50337891, 0, 0, 0},
      {0.24343069, 0.00023845780664969570, 0.15850599, 0, 0},
      {0.18207389, 0.59242460, 0.04915701, 0.77296315, 0},
  };
  static constexpr double b_fast[5] = {0.43737671, 0.04851406, 0.05112046, 0.25112462, 0.21186415};
};

template <class M, class T>
struct Prk {
  using Scalar = typename M::Scalar;
  using Time = typename M::Time;
  using State = typename M::State;
  using Input = typename M::Input;
  using SlowState = typename M::SlowState;
  using FastState = typename M::FastState;
  static constexpr int kStages = T::kStages;
  static constexpr int order = T::kOrder;

  // Of one tableau (a, b): whether stage i's derivative is used by a later stage or by the
  // update, stage i's abscissa, and how many stages are evaluated.
  using Matrix = double[T::kStages][T::kStages];
  using Weights = double[T::kStages];
  static constexpr bool used(const Matrix& a, const Weights& b, int i) {
    bool u = b[i] != 0;
    for (int k = i + 1; k < kStages; ++k) u = u || a[k][i] != 0;
    return u;
  }
  static constexpr double abscissa(const Matrix& a, int i) {
    double c = 0;
    for (int j = 0; j < i; ++j) c += a[i][j];
    return c;
  }
  static constexpr int evaluations(const Matrix& a, const Weights& b) {
    int n = 0;
    for (int i = 0; i < kStages; ++i) n += used(a, b, i) ? 1 : 0;
    return n;
  }
  static constexpr bool slow_used(int i) { return used(T::a, T::b, i); }
  static constexpr bool fast_used(int i) { return used(T::a_fast, T::b_fast, i); }
  static constexpr int slow_evaluations() { return evaluations(T::a, T::b); }
  static constexpr int fast_evaluations() { return evaluations(T::a_fast, T::b_fast); }

  // U: the inputs as a sample held constant (Input) or a HeldInput evaluated at each stage's time.
  // Sum: prk adds its stages plainly (a model does not compensate states under it).
  template <class U, class Sum = PlainSum>
  static void step(Time t, Scalar h, const U& u, State& x, Sum = {}) noexcept {
    static_assert(std::is_same<Sum, PlainSum>::value, "dualrate: prk does not compensate sums");
    SlowState f[kStages];
    FastState g[kStages];
    stages(t, h, u, x, f, g, std::make_integer_sequence<int, kStages>{});
    update(h, x, f, g, std::make_integer_sequence<int, kStages>{});
  }

 private:
  template <int I, int J>
  static void add_stage(State& s, Scalar h, const SlowState* f, const FastState* g) noexcept {
    if constexpr (T::a[I][J] != 0) s.template head<M::kSlow>() += (h * Scalar(T::a[I][J])) * f[J];
    if constexpr (T::a_fast[I][J] != 0) s.template tail<M::kFast>() += (h * Scalar(T::a_fast[I][J])) * g[J];
  }

  template <int I, class U, int... J>
  static void stage(Time t, Scalar h, const U& u, const State& x, SlowState* f, FastState* g,
                    std::integer_sequence<int, J...>) noexcept {
    if constexpr (slow_used(I) || fast_used(I)) {
      State s = x;  // NOLINT(performance-unnecessary-copy-initialization): stage 0 adds nothing to it
      (add_stage<I, J>(s, h, f, g), ...);
      constexpr double c = abscissa(T::a, I), c_fast = abscissa(T::a_fast, I);
      if constexpr (slow_used(I)) {
        if constexpr (c == 0) {
          M::slow_derivatives(t, s, input_sample(u), f[I]);
        } else {
          M::slow_derivatives(t + Time(Scalar(c) * h), s, input_at(u, t + Time(Scalar(c) * h)), f[I]);
        }
      }
      if constexpr (fast_used(I)) {
        if constexpr (c_fast == 0) {
          M::fast_derivatives(t, s, input_sample(u), g[I]);
        } else {
          M::fast_derivatives(t + Time(Scalar(c_fast) * h), s, input_at(u, t + Time(Scalar(c_fast) * h)), g[I]);
        }
      }
    }
  }

  template <int... I, class U>
  static void stages(Time t, Scalar h, const U& u, const State& x, SlowState* f, FastState* g,
                     std::integer_sequence<int, I...>) noexcept {
    (stage<I>(t, h, u, x, f, g, std::make_integer_sequence<int, I>{}), ...);
  }

  template <int I>
  static void add_update(State& x, Scalar h, const SlowState* f, const FastState* g) noexcept {
    if constexpr (T::b[I] != 0) x.template head<M::kSlow>() += (h * Scalar(T::b[I])) * f[I];
    if constexpr (T::b_fast[I] != 0) x.template tail<M::kFast>() += (h * Scalar(T::b_fast[I])) * g[I];
  }

  template <int... I>
  static void update(Scalar h, State& x, const SlowState* f, const FastState* g,
                     std::integer_sequence<int, I...>) noexcept {
    (add_update<I>(x, h, f, g), ...);
  }
};

template <class M>
using Prk25 = Prk<M, Prk25Tableau>;

}  // namespace dualrate
