// Look-up tables of the model language (`tables:` in a model file): the interpolant over a
// grid of 1 to 4 axes, as Simulink's n-D Lookup Table with "linear point-slope" or "flat"
// interpolation and "clip" or "linear" extrapolation.
//
// Axis d has breakpoints b_0 < ... < b_{N-1}; the values v[i_0, ..., i_{D-1}] are stored with
// the first axis outermost. For an argument x on axis d, its cell i is the largest i <= N-2 with
// b_i <= x (0 below b_0): a breakpoint belongs to the cell on its right, the last breakpoint to
// the last cell. With fraction f = (x - b_i) / (b_{i+1} - b_i):
//   linear:  T(x) = sum over the 2^D corners c of prod_d (c_d ? f_d : 1 - f_d) v[i + c]
//   flat:    T(x) = v[j], j the largest index with b_j <= x (f_d is 0 or 1)
//   clamp extrapolation:  x is held at [b_0, b_{N-1}] first (its slope there is 0);
//   linear extrapolation: the end cell's linear function continues (f < 0 or f > 1).
// The partial derivative in argument d (Slope bit d set) replaces the factor of axis d by
// -1/(b_{i+1} - b_i) and 1/(b_{i+1} - b_i): the slope of the cell, 0 where x is clamped.
//
// Bounded and safe for every argument: a uniform axis finds its cell by index arithmetic and
// one comparison each way, any other axis by a binary search of ceil(log2(N-1)) steps, fixed
// by N; no index leaves [0, N-2]. NaN gives NaN (value and slopes); +-inf and huge arguments
// clamp, or extrapolate linearly (then +-inf, or a number far enough out to overflow the
// fraction, gives a non-finite value, which the step reports as a non-finite state).
// The generator's reference core evaluates tables by its own linear scan
// (generator/src/model/tables.cpp).
#pragma once

#include <cmath>
#include <cstddef>

namespace dualrate {
namespace lookup {

enum class Interpolation { kLinear, kFlat };
enum class Extrapolation { kClamp, kLinear };

// Breakpoints of one axis. Uniform: b_i = b_0 + i / inverse_spacing up to rounding (the cell is
// then checked against the breakpoints themselves, so rounding never misplaces an argument).
template <class Scalar, int N, bool Uniform>
struct Axis {
  static_assert(N >= 2, "an axis has at least two breakpoints");
  static constexpr int kSize = N;
  static constexpr bool kUniform = Uniform;
  Scalar breakpoints[N];
  Scalar inverse_spacing;  // Uniform only (0 otherwise)
};

// An argument's place on its axis: cell index, fraction, and the factor its slope takes.
template <class Scalar>
struct Cell {
  int index;
  Scalar fraction;
  Scalar inverse_width;  // 1 / (b_{i+1} - b_i), 0 where the argument is clamped
};

// Steps of the binary search over `cells` cells: ceil(log2(cells)).
constexpr int search_steps(int cells) noexcept {
  int steps = 0;
  for (int reach = 1; reach < cells; reach *= 2) ++steps;
  return steps;
}

template <class T>
struct Identity {
  using type = T;
};

// The cell of x on `axis` (x not NaN).
template <class Scalar, int N, bool Uniform>
int cell_index(const Axis<Scalar, N, Uniform>& axis, Scalar x) noexcept {
  const Scalar* b = axis.breakpoints;
  if constexpr (Uniform) {
    const Scalar q = (x - b[0]) * axis.inverse_spacing;
    int i = q >= Scalar(1) ? (q < Scalar(N - 2) ? static_cast<int>(q) : N - 2) : 0;
    if (i < N - 2 && x >= b[i + 1])
      ++i;
    else if (i > 0 && x < b[i])
      --i;
    return i;
  } else {
    constexpr int kSteps = search_steps(N - 1);
    int base = 0;
    int span = N - 1;  // candidates base .. base + span - 1
    for (int step = 0; step < kSteps; ++step) {
      const int half = span / 2;
      if (x >= b[base + half]) base += half;
      span -= half;
    }
    return base;
  }
}

template <Interpolation I, Extrapolation E, class Scalar, int N, bool Uniform>
Cell<Scalar> locate(const Axis<Scalar, N, Uniform>& axis, Scalar x) noexcept {
  static_assert(I == Interpolation::kLinear || E == Extrapolation::kClamp,
                "flat interpolation holds the end values (clamp extrapolation)");
  if (std::isnan(x)) return {0, x, x};
  const Scalar* b = axis.breakpoints;
  [[maybe_unused]] bool held = false;
  if constexpr (E == Extrapolation::kClamp) {
    if (x < b[0] || x > b[N - 1]) {
      x = x < b[0] ? b[0] : b[N - 1];
      held = true;
    }
  }
  const int i = cell_index(axis, x);
  if constexpr (I == Interpolation::kFlat) {
    return {i, x >= b[i + 1] ? Scalar(1) : Scalar(0), Scalar(0)};
  } else {
    const Scalar width = b[i + 1] - b[i];
    return {i, (x - b[i]) / width, held ? Scalar(0) : Scalar(1) / width};
  }
}

// sum over the corners of the cells' box of weight * value; Strides[d] = the values one step
// along axis d apart.
template <unsigned Slope, int D, class Scalar, std::size_t Count>
Scalar combine(const Scalar (&values)[Count], const Cell<Scalar> (&cells)[D], const int (&strides)[D]) noexcept {
  static_assert(D >= 1 && D <= 4, "tables have 1 to 4 axes");
  static_assert(Slope < (1u << D), "a slope is taken in one of the table's arguments");
  Scalar sum = 0;
  for (unsigned corner = 0; corner < (1u << D); ++corner) {
    std::size_t offset = 0;
    Scalar weight = 1;
    for (int d = 0; d < D; ++d) {
      const bool upper = ((corner >> d) & 1u) != 0;
      offset += static_cast<std::size_t>((cells[d].index + (upper ? 1 : 0)) * strides[d]);
      if ((Slope >> d) & 1u)
        weight *= upper ? cells[d].inverse_width : -cells[d].inverse_width;
      else
        weight *= upper ? cells[d].fraction : Scalar(1) - cells[d].fraction;
    }
    sum += weight * values[offset];
  }
  return sum;
}

// T(x0 [, x1 [, x2 [, x3]]]) or, with Slope bit d set, its partial derivative in x_d (at most
// one bit in generated code; several give the mixed derivative).
template <Interpolation I, Extrapolation E, unsigned Slope, class Scalar, int N0, bool U0>
Scalar table(const Scalar (&values)[N0], const Axis<Scalar, N0, U0>& a0, typename Identity<Scalar>::type x0) noexcept {
  const Cell<Scalar> cells[1] = {locate<I, E>(a0, x0)};
  const int strides[1] = {1};
  return combine<Slope>(values, cells, strides);
}

template <Interpolation I, Extrapolation E, unsigned Slope, class Scalar, int N0, bool U0, int N1, bool U1>
Scalar table(const Scalar (&values)[N0 * N1], const Axis<Scalar, N0, U0>& a0, typename Identity<Scalar>::type x0,
             const Axis<Scalar, N1, U1>& a1, typename Identity<Scalar>::type x1) noexcept {
  const Cell<Scalar> cells[2] = {locate<I, E>(a0, x0), locate<I, E>(a1, x1)};
  const int strides[2] = {N1, 1};
  return combine<Slope>(values, cells, strides);
}

template <Interpolation I, Extrapolation E, unsigned Slope, class Scalar, int N0, bool U0, int N1, bool U1, int N2,
          bool U2>
Scalar table(const Scalar (&values)[N0 * N1 * N2], const Axis<Scalar, N0, U0>& a0, typename Identity<Scalar>::type x0,
             const Axis<Scalar, N1, U1>& a1, typename Identity<Scalar>::type x1, const Axis<Scalar, N2, U2>& a2,
             typename Identity<Scalar>::type x2) noexcept {
  const Cell<Scalar> cells[3] = {locate<I, E>(a0, x0), locate<I, E>(a1, x1), locate<I, E>(a2, x2)};
  const int strides[3] = {N1 * N2, N2, 1};
  return combine<Slope>(values, cells, strides);
}

template <Interpolation I, Extrapolation E, unsigned Slope, class Scalar, int N0, bool U0, int N1, bool U1, int N2,
          bool U2, int N3, bool U3>
Scalar table(const Scalar (&values)[N0 * N1 * N2 * N3], const Axis<Scalar, N0, U0>& a0,
             typename Identity<Scalar>::type x0, const Axis<Scalar, N1, U1>& a1, typename Identity<Scalar>::type x1,
             const Axis<Scalar, N2, U2>& a2, typename Identity<Scalar>::type x2, const Axis<Scalar, N3, U3>& a3,
             typename Identity<Scalar>::type x3) noexcept {
  const Cell<Scalar> cells[4] = {locate<I, E>(a0, x0), locate<I, E>(a1, x1), locate<I, E>(a2, x2),
                                 locate<I, E>(a3, x3)};
  const int strides[4] = {N1 * N2 * N3, N2 * N3, N3, 1};
  return combine<Slope>(values, cells, strides);
}

}  // namespace lookup
}  // namespace dualrate
