#include "numeric/decompositions.hpp"

#include <unsupported/Eigen/MatrixFunctions>

namespace dualrate {

EigenPairs eigen_pairs(const Eigen::MatrixXd& m) {
  const Eigen::EigenSolver<Eigen::MatrixXd> es(m, true);
  return {es.eigenvalues(), es.eigenvectors()};
}

Eigen::MatrixXd matrix_exponential(const Eigen::MatrixXd& m) { return m.exp(); }

Eigen::MatrixXd partial_pivot_inverse(const Eigen::MatrixXd& m) { return m.inverse(); }

Eigen::VectorXd partial_pivot_solve(const Eigen::MatrixXd& a, const Eigen::VectorXd& b) {
  return a.partialPivLu().solve(b);
}

Eigen::MatrixXcd full_pivot_inverse(const Eigen::MatrixXcd& m) { return m.fullPivLu().inverse(); }

FullPivotLu::FullPivotLu(const Eigen::MatrixXd& m) : lu_(std::make_unique<Eigen::FullPivLU<Eigen::MatrixXd>>(m)) {}
FullPivotLu::~FullPivotLu() = default;
bool FullPivotLu::invertible() const { return lu_->isInvertible(); }
Eigen::VectorXd FullPivotLu::solve(const Eigen::VectorXd& b) const { return lu_->solve(b); }
Eigen::MatrixXd FullPivotLu::solve_matrix(const Eigen::MatrixXd& b) const { return lu_->solve(b); }
Eigen::MatrixXd FullPivotLu::inverse() const { return lu_->inverse(); }

}  // namespace dualrate
