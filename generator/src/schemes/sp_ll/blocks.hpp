// The Jacobian blocks seed 000's SP-LL scheme works with: [[f_x, f_z], [g_x, g_z]], with the
// entries the model's equations allow to be nonzero.
#pragma once

#include <Eigen/Dense>

#include "ir/linear_map.hpp"
#include "model/model.hpp"

namespace dualrate {

// The blocks of the Jacobian [[f_x, f_z], [g_x, g_z]] at a point, and the entries of f_z, g_x
// and g_z the model's equations allow to be nonzero (empty when not known). For a model with
// held inputs also g_u = dg/du, its columns of inputs held at their sample zero (their rate is
// zero: dualrate::SpLl never applies them); without, g_u has no columns.
struct SpLlBlocks {
  Eigen::MatrixXd fx, fz, gx, gz, gu{};
  Pattern fz_structure{}, gx_structure{}, gz_structure{}, gu_structure{};
};

// Splits a Jacobian after its first `slow` rows and columns.
SpLlBlocks split_jacobian(const Eigen::MatrixXd& j, std::size_t slow);

// SpLlBlocks::gu from m's input Jacobian d(dx/dt)/du: its rows after the first `slow`, the
// columns of inputs held at their sample zeroed.
Eigen::MatrixXd held_input_columns(const Model& m, const Eigen::MatrixXd& input_jacobian, std::size_t slow);

}  // namespace dualrate
