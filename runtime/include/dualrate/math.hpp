// Scalar functions that model expressions may use beyond <cmath>. Their values define
// the semantics of the model language (the generator's reference core implements the
// same definitions independently):
//   sign(x)      = -1, 0, 1 for x < 0, x == 0, x > 0
//   heaviside(x) = 0 for x < 0, 1 for x >= 0   (model function `step`; right-continuous)
//   min(a, b)    = a if a <= b else b
//   max(a, b)    = a if a >= b else b
//   powi<N>(x)   = x^N for a positive integer N, as N-1 multiplications left to right
// The elementary functions of <dualrate/portable_math.h>'s list (sin ... pow), for float and
// double: with DUALRATE_PORTABLE_MATH defined, the portable libm
// (<dualrate/portable_math.h>, link libdualrate_libm.a built for the platform), which gives
// the same bits on the host and on every target; otherwise the platform's <cmath>, whose
// last bit may differ between C libraries.
#pragma once

#include <cmath>

#include <dualrate/portable_math.h>

namespace dualrate {
namespace math {

#ifdef DUALRATE_PORTABLE_MATH
#define DUALRATE_MATH_FUNCTION1(name)                                         \
  inline double name(double x) noexcept { return ::dualrate_libm_##name(x); } \
  inline float name(float x) noexcept { return ::dualrate_libm_##name##f(x); }
#define DUALRATE_MATH_FUNCTION2(name)                                                      \
  inline double name(double x, double y) noexcept { return ::dualrate_libm_##name(x, y); } \
  inline float name(float x, float y) noexcept { return ::dualrate_libm_##name##f(x, y); }
#else
#define DUALRATE_MATH_FUNCTION1(name) using std::name;
#define DUALRATE_MATH_FUNCTION2(name) using std::name;
#endif
DUALRATE_LIBM_UNARY(DUALRATE_MATH_FUNCTION1)
DUALRATE_LIBM_BINARY(DUALRATE_MATH_FUNCTION2)
#undef DUALRATE_MATH_FUNCTION1
#undef DUALRATE_MATH_FUNCTION2

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
