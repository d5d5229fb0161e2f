// smfe's macro step in float or double, operation for operation as runtime/include/dualrate/
// schemes/smfe.hpp computes it in a build of generated code in that Scalar: verify's exact step
// check (SchemeHooks::float_reference, double_reference).
#pragma once

#include <vector>

#include "schemes/contract.hpp"

namespace dualrate {

// dualrate::Smfe::step in T (float or double): N = inner_steps forward-Euler steps of h_s, then
// one over the rest of the macro step. h_s is inner_step rounded to T (the header's constant)
// or, with a `grid` (scheduled), interpolated in T at the macro step's start from its values
// `points` at the grid's points, as generated code's SchemeConstants::schedule does.
template <class T>
StepIn<T> smfe_step_in(int inner_steps, double inner_step, const std::vector<std::vector<double>>& grid = {},
                       const std::vector<double>& points = {});

}  // namespace dualrate
