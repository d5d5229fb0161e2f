#include "numeric/ode.hpp"

namespace dualrate {

namespace {

using Vector = std::vector<double>;

Vector axpy(const Vector& x, double a, const Vector& k) {
  Vector r(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) r[i] = x[i] + a * k[i];
  return r;
}

}  // namespace

RightHandSide linear_rhs(const Eigen::MatrixXd& j) {
  return [&j](double, const Vector& x, Vector& dx) {
    const Eigen::VectorXd v = j * Eigen::Map<const Eigen::VectorXd>(x.data(), j.rows());
    dx.assign(v.data(), v.data() + j.rows());
  };
}

Vector euler_step(const RightHandSide& f, double t, double h, const Vector& x) {
  Vector k1;
  f(t, x, k1);
  return axpy(x, h, k1);
}

Vector heun_step(const RightHandSide& f, double t, double h, const Vector& x0) {
  Vector x = x0, k1, k2;
  f(t, x, k1);
  f(t + h, axpy(x, h, k1), k2);
  for (std::size_t j = 0; j < x.size(); ++j) x[j] += h / 2 * (k1[j] + k2[j]);
  return x;
}

Vector rk4_step(const RightHandSide& f, double t, double h, const Vector& x0) {
  Vector x = x0, k1, k2, k3, k4;
  f(t, x, k1);
  f(t + h / 2, axpy(x, h / 2, k1), k2);
  f(t + h / 2, axpy(x, h / 2, k2), k3);
  f(t + h, axpy(x, h, k3), k4);
  for (std::size_t j = 0; j < x.size(); ++j) x[j] += h / 6 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
  return x;
}

}  // namespace dualrate
