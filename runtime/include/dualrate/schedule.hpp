// Scheduled constants (`simulation: linearization: scheduled` in a model file): a scheme's
// precomputed matrices (and scalars: smfe's inner step), tabulated by the generator at the
// points of a grid of one or two scheduling values s(x, u) and interpolated linearly at every
// step, as gain scheduling interpolates controller gains. Each scheduled scalar, and each
// matrix entry that is nonzero at some grid point, has a table over the grid (the first scheduling value's axis
// outermost); at a step,
//   M(s) = sum over the corners c of s's cell of prod_d (c_d ? f_d : 1 - f_d) M(grid point i + c)
// (for one value, M_i + f (M_{i+1} - M_i)) with s clamped to the grid's range (dualrate/lookup.hpp's linear
// interpolation with clamp extrapolation). A NaN scheduling value gives NaN constants, so the step reports a non-finite
// state. No exponential, inverse or search beyond lookup's bounded one.
//
// Unscheduled constants (exact or frozen linearization) use the empty Unscheduled, so a
// scheme passes the schedule of its step to every matrix function either way.
#pragma once

#include "lookup.hpp"

namespace dualrate {

struct Unscheduled {};

namespace scheduling {

// The value of one scheduled constant at the cells' point, from its table over the grid; over
// one scheduling value M_i + f (M_{i+1} - M_i) (3 operations).
template <int D, class Scalar, int Points>
Scalar interpolate(const Scalar (&table)[Points], const lookup::Cell<Scalar> (&cells)[D],
                   const int (&strides)[D]) noexcept {
  if constexpr (D == 1) {
    const int i = cells[0].index;
    return table[i] + cells[0].fraction * (table[i + 1] - table[i]);
  } else {
    return lookup::combine<0u>(table, cells, strides);
  }
}

// out[j] = entry j of a matrix at the cells' point, each from its table as above.
template <int D, class Scalar, int Entries, int Points>
void interpolate(const Scalar (&tables)[Entries][Points], const lookup::Cell<Scalar> (&cells)[D],
                 const int (&strides)[D], Scalar (&out)[Entries]) noexcept {
  for (int j = 0; j < Entries; ++j) out[j] = interpolate(tables[j], cells, strides);
}

// Whether s lies outside [first, last] of the axis (NaN counts as outside).
template <class Scalar, int N, bool Uniform>
bool outside(const lookup::Axis<Scalar, N, Uniform>& axis, Scalar s) noexcept {
  return !(s >= axis.breakpoints[0] && s <= axis.breakpoints[N - 1]);
}

}  // namespace scheduling
}  // namespace dualrate
