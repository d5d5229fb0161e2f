// sp_ll under calibration (docs/calibration.md): what generated code computes on the target to
// recompute sp_ll's constants (seed 000, eqs. 40, 43, 44, 47) when f_z, g_x or g_z depend on a
// tunable value.
#pragma once

#include <vector>

#include "model/model.hpp"
#include "schemes/contract.hpp"

namespace dualrate {

// The steps for step h: g_z, g_x, f_z at t = 0, the initial state and inputs, as expressions of
// the calibrated parameters; g_z^-1, g_z^-1 g_x, A = g_z + g_z^-1 g_x f_z, and the phi blocks
// of h g_z and h A with an exponential whose plan covers a proven bound of their norms over the
// whole calibration range. Empty when none of the blocks depends on a tunable value. Throws a
// ModelError when a tunable table reaches a block, g_z is not proven invertible over the range,
// or no plan covers it.
std::vector<RecomputeStep> sp_ll_calibration_steps(const Model& m, double h);

}  // namespace dualrate
