// A scheme's constants as generated code of a build in float or double holds and applies them,
// for verify's exact step check (verify/local_check.hpp) of the schemes that precompute
// matrices: the step is reproduced operation for operation in the build's arithmetic, so its
// constants must be the very values the header holds, and a wrong one must show.
#pragma once

#include <Eigen/Dense>

#include <vector>

#include "ir/linear_map.hpp"

namespace dualrate {

// Each of the design's matrices (the generator's values, which the header holds rounded to the
// build's Scalar T) checked entry by entry against `own`, the same matrices (by name) computed
// another way (the reference core's). An entry keeps the design's value where the two agree
// within
//   u_T |own_ij| + 2^-40 max_kl |own_kl|,   u_T = 2^-24 (float), 2^-53 (double),
// and takes the reference's otherwise. The first term is one rounding of the entry to T: two
// values that close may round to neighbouring values of T, and no build in T resolves them
// better. The second is what two double computations of a matrix function may differ by in an
// entry much smaller than the matrix (the normwise error of a solve or an exponential, a few
// hundred units of 2^-53 of the largest entry, is far within 2^-40 of it); in float it is 2^-16
// of one rounding of the largest entry, so it moves a product M v by less than that of its
// largest term. A wrong constant (a defect of the generator or of the header) is further off,
// and the step computed with the reference's value differs from the generated code's. The
// structure is the design's. Throws std::logic_error when `own` lacks a matrix of the design or
// its size differs.
template <class T>
std::vector<NamedMatrix> confirmed_constants(const std::vector<NamedMatrix>& design,
                                             const std::vector<NamedMatrix>& own);

// m v in T as a generated function of a build in T computes it (emit/constants.cpp,
// matrix_function): each row's terms left to right in LinearMap's order, the coefficients
// rounded to T, a row of negative terms as the negated sum of its magnitudes; a scheduled
// entry's term is scheduled[entry] v_col, added. Throws std::logic_error when m has scheduled
// entries that `scheduled` lacks.
template <class T>
Eigen::Matrix<T, Eigen::Dynamic, 1> product_in(const LinearMap& m, const Eigen::Matrix<T, Eigen::Dynamic, 1>& v,
                                               const std::vector<T>& scheduled = {});

// A step's place on a schedule's grid in T, as generated code's schedule() finds it
// (dualrate::lookup::locate, linear interpolation, clamped): per scheduling value the cell
// (here by a linear scan of the grid points rounded to T) and the fraction in it; the strides
// of the grid's points (the first value's outermost).
template <class T>
struct CellsIn {
  std::vector<std::size_t> index, stride;
  std::vector<T> fraction;
};
template <class T>
CellsIn<T> locate_in(const std::vector<std::vector<double>>& grid, const std::vector<T>& values);
// A scheduled value at the cells from its values at the grid points, rounded to T, as
// dualrate::scheduling::interpolate: over one value t_i + f (t_{i+1} - t_i), over more the sum
// over the cell's corners of the weights' product times the value (lookup::combine).
template <class T>
T interpolate_in(const std::vector<double>& points, const CellsIn<T>& cells);
// Each scheduled entry of m at the cells (its `tables`).
template <class T>
std::vector<T> scheduled_entries_in(const LinearMap& m, const CellsIn<T>& cells);

}  // namespace dualrate
