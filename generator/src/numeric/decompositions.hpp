// Eigen's dense decompositions of dynamic-size double matrices, instantiated in one unit
// (decompositions.cpp) and called through these functions: each costs the unit that
// instantiates it 2.6 to 16 s of compilation (g++ -O2; clang with the sanitizers about twice),
// and several folders use each. The results are Eigen's, operation for operation: a vector
// right-hand side is solved as a vector (Eigen's matrix-vector kernels), a matrix as a matrix.
#pragma once

#include <Eigen/Dense>

#include <memory>

namespace dualrate {

// Eigenvalues and right eigenvectors (Eigen::EigenSolver), in Eigen's order.
struct EigenPairs {
  Eigen::VectorXcd values;
  Eigen::MatrixXcd vectors;
};
EigenPairs eigen_pairs(const Eigen::MatrixXd& m);

// e^m (unsupported/Eigen/MatrixFunctions: scaling and squaring with Pade approximants).
Eigen::MatrixXd matrix_exponential(const Eigen::MatrixXd& m);

// m^-1 by partial pivoting (MatrixBase::inverse, a dynamic size's PartialPivLU).
Eigen::MatrixXd partial_pivot_inverse(const Eigen::MatrixXd& m);

// a^-1 b by partial pivoting (MatrixBase::partialPivLu().solve).
Eigen::VectorXd partial_pivot_solve(const Eigen::MatrixXd& a, const Eigen::VectorXd& b);

// m^-1 of a complex m by full pivoting (MatrixBase::fullPivLu().inverse).
Eigen::MatrixXcd full_pivot_inverse(const Eigen::MatrixXcd& m);

// Eigen::FullPivLU of a double matrix: rank-revealing, so that invertible() is trusted.
class FullPivotLu {
 public:
  explicit FullPivotLu(const Eigen::MatrixXd& m);
  FullPivotLu(const FullPivotLu&) = delete;
  FullPivotLu& operator=(const FullPivotLu&) = delete;
  ~FullPivotLu();

  bool invertible() const;
  Eigen::VectorXd solve(const Eigen::VectorXd& b) const;
  Eigen::MatrixXd solve_matrix(const Eigen::MatrixXd& b) const;
  Eigen::MatrixXd inverse() const;

 private:
  std::unique_ptr<Eigen::FullPivLU<Eigen::MatrixXd>> lu_;
};

}  // namespace dualrate
