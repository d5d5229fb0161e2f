// The run-time solve of a second-order model whose mass matrix depends on the coordinates:
// M(q) q'' = f(t, q, q', u) gives q'' = M(q)^-1 f, by a fixed-size Cholesky factorization
// M = L L^T (Eigen::LLT on a stack matrix: no heap) and two triangular solves. Generated
// derivatives() call it once per evaluation with the entries and forces written out.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include <limits>

namespace dualrate {

// a = M^-1 f for a symmetric positive definite M (its lower triangle is read). When M is not
// positive definite at this q the factorization fails and every entry of a is a quiet NaN,
// which the schemes' finiteness check reports as a non-finite state.
template <class Scalar, int N>
Eigen::Matrix<Scalar, N, 1> solve_mass(const Eigen::Matrix<Scalar, N, N>& mass,
                                       const Eigen::Matrix<Scalar, N, 1>& force) noexcept {
  const Eigen::LLT<Eigen::Matrix<Scalar, N, N>> factor(mass);
  if (factor.info() != Eigen::Success)
    return Eigen::Matrix<Scalar, N, 1>::Constant(std::numeric_limits<Scalar>::quiet_NaN());
  return factor.solve(force);
}

}  // namespace dualrate
