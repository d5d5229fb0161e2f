// smfe's macro step in float, operation for operation as runtime/include/dualrate/schemes/
// smfe.hpp computes it in a float build of generated code: verify's exact step check
// (SchemeInfo::float_reference).
#pragma once

#include <vector>

#include "schemes/contract.hpp"

namespace dualrate {

// dualrate::Smfe::step in float: N = inner_steps forward-Euler steps of h_s, then one over the
// rest of the macro step. h_s is inner_step rounded to float (the header's constant) or, with a
// `grid` (scheduled), interpolated in float at the macro step's start from its values `points`
// at the grid's points, as generated code's SchemeConstants::schedule does.
FloatStep smfe_float_step(int inner_steps, double inner_step, const std::vector<std::vector<double>>& grid = {},
                          const std::vector<double>& points = {});

}  // namespace dualrate
