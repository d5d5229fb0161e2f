// The Jacobian blocks seed 000's SP-LL scheme works with: [[f_x, f_z], [g_x, g_z]], with the
// entries the model's equations allow to be nonzero.
#pragma once

#include <Eigen/Dense>

#include "ir/linear_map.hpp"

namespace dualrate {

// The blocks of the Jacobian [[f_x, f_z], [g_x, g_z]] at a point, and the entries of f_z, g_x
// and g_z the model's equations allow to be nonzero (empty when not known).
struct SpLlBlocks {
  Eigen::MatrixXd fx, fz, gx, gz;
  Pattern fz_structure{}, gx_structure{}, gz_structure{};
};

// Splits a Jacobian after its first `slow` rows and columns.
SpLlBlocks split_jacobian(const Eigen::MatrixXd& j, std::size_t slow);

}  // namespace dualrate
