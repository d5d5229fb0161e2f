// A scheme's constants as a float build's generated code holds and applies them, for verify's
// exact step check (verify/local_check.hpp) of the schemes that precompute matrices: the step
// is reproduced operation for operation in float, so its constants must be the very floats the
// header holds, and a wrong one must show.
#pragma once

#include <Eigen/Dense>

#include <vector>

#include "ir/linear_map.hpp"

namespace dualrate {

// Each of the design's matrices (the generator's values, which the header holds rounded to
// float) checked entry by entry against `own`, the same matrices (by name) computed another way
// (the reference core's). An entry keeps the design's value where the two agree within
//   u_f (|own_ij| + 2^-16 max_kl |own_kl|),   u_f = 2^-24,
// and takes the reference's otherwise. The first term is one float rounding of the entry: two
// values that close may round to neighbouring floats, and no float build resolves them better.
// The second is what two double computations of a matrix function may differ by in an entry
// much smaller than the matrix (the normwise error of a solve or an exponential, a few hundred
// units of 2^-53 of the largest entry, is far within 2^-40 of it): such an entry moves a
// product M v by less than 2^-16 of one float rounding of its largest term. A wrong constant
// (a defect of the generator or of the header) is further off, and the step computed with the
// reference's value differs from the generated code's. The structure is the design's.
// Throws std::logic_error when `own` lacks a matrix of the design or its size differs.
std::vector<NamedMatrix> confirmed_constants(const std::vector<NamedMatrix>& design,
                                             const std::vector<NamedMatrix>& own);

// m v in float as a float build's generated function computes it (emit/constants.cpp,
// matrix_function): each row's terms left to right in LinearMap's order, the coefficients
// rounded to float, a row of negative terms as the negated sum of its magnitudes; a scheduled
// entry's term is scheduled[entry] v_col, added. Throws std::logic_error when m has scheduled
// entries that `scheduled` lacks.
Eigen::VectorXf product_in_float(const LinearMap& m, const Eigen::VectorXf& v,
                                 const std::vector<float>& scheduled = {});

// A step's place on a schedule's grid in float, as generated code's schedule() finds it
// (dualrate::lookup::locate, linear interpolation, clamped): per scheduling value the cell
// (here by a linear scan of the grid points rounded to float) and the fraction in it; the
// strides of the grid's points (the first value's outermost).
struct FloatCells {
  std::vector<std::size_t> index, stride;
  std::vector<float> fraction;
};
FloatCells locate_in_float(const std::vector<std::vector<double>>& grid, const std::vector<float>& values);
// A scheduled value at the cells from its values at the grid points, rounded to float, as
// dualrate::scheduling::interpolate: over one value t_i + f (t_{i+1} - t_i), over more the sum
// over the cell's corners of the weights' product times the value (lookup::combine).
float interpolate_in_float(const std::vector<double>& points, const FloatCells& cells);
// Each scheduled entry of m at the cells (its `tables`).
std::vector<float> scheduled_entries_in_float(const LinearMap& m, const FloatCells& cells);

}  // namespace dualrate
