#include "numeric/ode.hpp"

namespace dualrate {

namespace {

using Vector = std::vector<double>;

}  // namespace

RightHandSide linear_rhs(const Eigen::MatrixXd& j) {
  return [&j](double, const Vector& x, Vector& dx) {
    const Eigen::VectorXd v = j * Eigen::Map<const Eigen::VectorXd>(x.data(), j.rows());
    dx.assign(v.data(), v.data() + j.rows());
  };
}

Vector euler_step(const RightHandSide& f, double t, double h, const Vector& x) { return euler_step_in(f, t, h, x); }

Vector heun_step(const RightHandSide& f, double t, double h, const Vector& x) { return heun_step_in(f, t, h, x); }

Vector rk4_step(const RightHandSide& f, double t, double h, const Vector& x) { return rk4_step_in(f, t, h, x); }

}  // namespace dualrate
