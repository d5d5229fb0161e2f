#include "schemes/sp_ll/blocks.hpp"

namespace dualrate {

using Eigen::MatrixXd;

SpLlBlocks split_jacobian(const MatrixXd& j, std::size_t slow) {
  const auto s = static_cast<Eigen::Index>(slow), f = j.rows() - s;
  return {j.topLeftCorner(s, s), j.topRightCorner(s, f), j.bottomLeftCorner(f, s), j.bottomRightCorner(f, f)};
}

MatrixXd held_input_columns(const Model& m, const MatrixXd& input_jacobian, std::size_t slow) {
  MatrixXd gu = input_jacobian.bottomRows(input_jacobian.rows() - static_cast<Eigen::Index>(slow));
  for (std::size_t k = 0; k < m.inputs.size(); ++k)
    if (m.inputs[k].hold == InputHold::kZero) gu.col(static_cast<Eigen::Index>(k)).setZero();
  return gu;
}

}  // namespace dualrate
