// The update x_{n+1} = x_n + dx_n of a step, plainly or compensated. In float, a state whose
// increments are small against its value (a state of charge, a position, an angle) loses up to
// half a unit in the last place of x at every step, u_f |x| with u_f = 2^-24: over N steps
// up to N u_f |x| (SOC near 0.9 at 1 ms for 600,000 steps: up to 3.2e-2). A model declares
// such states (Model::compensated_states, chosen by the generator); their steps add the increment
// with Kahan's compensated summation, which keeps the part of the sum the add rounded off in a
// carry c (Data::carry) and feeds it into the next step's increment:
//   y = dx - c,   s = x + y,   c = (s - x) - y,   x = s.
// Then x - c equals x_0 + sum dx to within about 2 u_f |x| + O(N u_f^2) sum |dx| (Higham,
// Accuracy and Stability of Numerical Algorithms, 2nd ed., Sec. 4.3), instead of N u_f |x|;
// the state x the next step reads is that sum rounded once (its last carry is at most half a
// unit in its last place). Cost: 4 additions per compensated state and step, and a Scalar of
// data each. It needs IEEE arithmetic as written: reassociation (-ffast-math) would fold c to 0.
#pragma once

#include <array>
#include <type_traits>

#include "model.hpp"

#if defined(__FAST_MATH__)
#error "dualrate: compensated sums need IEEE arithmetic; build without -ffast-math (or -fassociative-math)"
#endif

namespace dualrate {

// Whether model M compensates some of its states' sums: it has
//   static constexpr std::array<bool, kStates> compensated_states.
template <class M, class = void>
struct CompensatesStates : std::false_type {};
template <class M>
struct CompensatesStates<M, std::void_t<decltype(M::compensated_states)>> : std::true_type {
  static_assert(std::is_same<std::remove_cv_t<decltype(M::compensated_states)>, std::array<bool, M::kStates>>::value,
                "dualrate: Model::compensated_states must be std::array<bool, kStates>");
};

// x += dx, over the entries of x from state `first` on: the plain update of every scheme.
struct PlainSum {
  template <class X, class D>
  void operator()(X&& x, int /*first*/, const D& dx) const noexcept {
    x += dx;
  }
  // x = (x + a) + b, rounded in that order.
  template <class X, class A, class B>
  void operator()(X&& x, int /*first*/, const A& a, const B& b) const noexcept {
    x = x + a + b;
  }
};

// The same with Kahan's compensation for M's compensated states, whose carries `carry` keeps
// (the others added as PlainSum adds them).
template <class M>
struct CompensatedSum {
  using Scalar = typename M::Scalar;
  typename M::State& carry;

  template <class X, class D>
  void operator()(X&& x, int first, const D& dx) const noexcept {
    for (int k = 0; k < dx.size(); ++k) add(x[k], first + k, dx[k]);
  }
  // The compensated states take a + b as their increment.
  template <class X, class A, class B>
  void operator()(X&& x, int first, const A& a, const B& b) const noexcept {
    for (int k = 0; k < a.size(); ++k) {
      if (M::compensated_states[static_cast<std::size_t>(first + k)]) {
        add(x[k], first + k, Scalar(a[k] + b[k]));
      } else {
        x[k] = x[k] + a[k] + b[k];
      }
    }
  }

 private:
  void add(Scalar& x, int i, Scalar dx) const noexcept {
    if (!M::compensated_states[static_cast<std::size_t>(i)]) {
      x += dx;
      return;
    }
    const Scalar y = dx - carry[i];
    const Scalar s = x + y;
    carry[i] = (s - x) - y;
    x = s;
  }
};

}  // namespace dualrate
