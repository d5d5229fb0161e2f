#include "schemes/sp_ll/blocks.hpp"

namespace dualrate {

using Eigen::MatrixXd;

SpLlBlocks split_jacobian(const MatrixXd& j, std::size_t slow) {
  const auto s = static_cast<Eigen::Index>(slow), f = j.rows() - s;
  return {j.topLeftCorner(s, s), j.topRightCorner(s, f), j.bottomLeftCorner(f, s), j.bottomRightCorner(f, f)};
}

}  // namespace dualrate
