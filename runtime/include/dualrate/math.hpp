// Scalar functions that model expressions may use beyond <cmath>. Their values define
// the semantics of the model language (the generator's reference core implements the
// same definitions independently):
//   sign(x)      = -1, 0, 1 for x < 0, x == 0, x > 0
//   heaviside(x) = 0 for x < 0, 1 for x >= 0   (model function `step`; right-continuous)
//   min(a, b)    = a if a <= b else b
//   max(a, b)    = a if a >= b else b
//   powi<N>(x)   = x^N for a positive integer N, as N-1 multiplications left to right
#pragma once

namespace dualrate {
namespace math {

template <class S>
constexpr S sign(S x) noexcept {
  return x > S(0) ? S(1) : (x < S(0) ? S(-1) : S(0));
}

template <class S>
constexpr S heaviside(S x) noexcept {
  return x >= S(0) ? S(1) : S(0);
}

template <class S>
constexpr S min(S a, S b) noexcept {
  return a <= b ? a : b;
}

template <class S>
constexpr S max(S a, S b) noexcept {
  return a >= b ? a : b;
}

template <int N, class S>
constexpr S powi(S x) noexcept {
  static_assert(N >= 1, "dualrate::math::powi: N must be positive");
  S p = x;
  for (int i = 1; i < N; ++i) p *= x;
  return p;
}

}  // namespace math
}  // namespace dualrate
