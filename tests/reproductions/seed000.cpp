#include "seed000.hpp"

#include <dualrate/schemes/sp_ll.hpp>
#include <unsupported/Eigen/MatrixFunctions>

#include <cmath>
#include <limits>
#include <map>

#include "analysis/stability.hpp"
#include "schemes/sp_ll/sp_ll.hpp"
#include "sp_ll_at_step.hpp"

namespace dualrate::seed000 {

namespace {

void put(Eigen::Matrix4d& m, int row, int col, Complex c) {
  m(row, col) = c.real();
  m(row, col + 1) = -c.imag();
  m(row + 1, col) = c.imag();
  m(row + 1, col + 1) = c.real();
}

// The test equation as a runtime model: dx/dt = J x with J set before use.
struct LinearModel {
  using Scalar = double;
  using Time = double;
  static constexpr int kSlow = 2, kFast = 2, kInputs = 0, kOutputs = 0, kStates = 4;
  using State = Eigen::Matrix<double, 4, 1>;
  using Input = Eigen::Matrix<double, 0, 1>;
  using SlowState = Eigen::Matrix<double, 2, 1>;
  static inline Eigen::Matrix4d j;
  static void derivatives(double, const State& x, const Input&, State& dxdt) noexcept { dxdt = j * x; }
  static void slow_derivatives(double, const State& x, const Input&, SlowState& dxdt) noexcept {
    dxdt = j.topRows<2>() * x;
  }
};

using LinearConstants = dualrate_test::SpLlAtStep<LinearModel>;

}  // namespace

Complex rk4_stability(Complex s) { return 1.0 + s + s * s / 2.0 + s * s * s / 6.0 + s * s * s * s / 24.0; }

Eigen::Matrix2cd closed_form_m(double alpha, double beta, Complex xi, ClosedForm form) {
  const double b2 = beta * beta, e = alpha + b2;
  const Complex ea = std::exp(alpha * xi), ee = std::exp(e * xi);
  const Complex m11 =
      rk4_stability((1 - b2) * xi) + b2 / alpha * (ea - 1.0) - b2 / (alpha * alpha) * (alpha * xi - ea + 1.0);
  const double m12_scale = form == ClosedForm::kProcedure ? 1 / alpha : 1;
  const Complex m12 = beta * m12_scale * (ea - 1.0) - beta * b2 / (alpha * alpha) * (alpha * xi - ea + 1.0);
  Complex m21, m22;
  if (form == ClosedForm::kPaper57) {
    m21 = -beta * m11 + beta * ea + beta / alpha * (ea - 1.0);
    m22 = -beta * m12 + ea + b2 / alpha * (ea - 1.0);
  } else {
    const double c = beta * (b2 - 1);
    m21 = -beta * m11 + beta * ee + c * (m11 - ee) / e - c * (ee - 1.0) * (m11 - 1.0) / (e * e * xi);
    m22 = -beta * m12 + ee + m12 * c / e - m12 * c * (ee - 1.0) / (e * e * xi);
  }
  Eigen::Matrix2cd m;
  m << m11, m12, m21, m22;
  return m;
}

Eigen::Matrix4d test_equation_jacobian(double alpha, double beta, Complex lambda_s) {
  const Complex lambda_f = alpha * lambda_s;
  Eigen::Matrix4d j;
  put(j, 0, 0, lambda_s);
  put(j, 0, 2, beta * lambda_s);  // mu
  put(j, 2, 0, beta * lambda_f);  // delta
  put(j, 2, 2, lambda_f);
  return j;
}

Eigen::Matrix4d reference_step_map(const std::string& scheme, double alpha, double beta, Complex lambda_s, double h) {
  return one_step_map(scheme, test_equation_jacobian(alpha, beta, lambda_s), h, 2);
}

Eigen::Matrix4d runtime_step_map(double alpha, double beta, Complex lambda_s, double h) {
  LinearModel::j = test_equation_jacobian(alpha, beta, lambda_s);
  LinearConstants::set(split_jacobian(LinearModel::j, 2), h);
  Eigen::Matrix4d m;
  for (int col = 0; col < 4; ++col) {
    LinearModel::State x = LinearModel::State::Unit(col);
    SpLl<LinearModel, LinearConstants>::step(0, h, LinearModel::Input(), x);
    m.col(col) = x;
  }
  return m;
}

double spectral_radius(const Eigen::Matrix4d& m) {
  return Eigen::EigenSolver<Eigen::Matrix4d>(m, false).eigenvalues().cwiseAbs().maxCoeff();
}

double spectral_radius(const Eigen::Matrix2cd& m) {
  return Eigen::ComplexEigenSolver<Eigen::Matrix2cd>(m, false).eigenvalues().cwiseAbs().maxCoeff();
}

double sp_ll_spectral_radius(double alpha, double beta, Complex xi) {
  return spectral_radius(reference_step_map("sp_ll", alpha, beta, xi, 1.0));
}

double stability_boundary_left(const std::function<double(Complex)>& rho, double im, double lo, double tolerance) {
  const auto stable = [&](double re) { return rho(Complex(re, im)) <= 1; };
  constexpr int kScan = 400;
  if (stable(lo)) return lo;
  double unstable = lo;
  for (int i = 1; i <= kScan; ++i) {
    const double re = lo * (1 - static_cast<double>(i) / kScan);
    if (stable(re)) {
      double a = unstable, b = re;
      while (b - a > tolerance) {
        const double mid = (a + b) / 2;
        (stable(mid) ? b : a) = mid;
      }
      return b;
    }
    unstable = re;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

LocalError local_error(const std::string& scheme, double alpha, double beta, double h, Complex lambda_s) {
  const Eigen::Matrix4d j = test_equation_jacobian(alpha, beta, lambda_s);
  const Eigen::Vector4d x0(1, 0, 1, 0);
  const Eigen::Vector4d exact = (h * j).exp() * x0;
  const Eigen::Vector4d numeric = one_step_map(scheme, j, h, 2) * x0;
  const Eigen::Vector4d d = numeric - exact;
  return {std::hypot(d[0], d[1]), std::hypot(d[2], d[3])};
}

double log_log_slope(const std::vector<double>& x, const std::vector<double>& y) {
  const auto n = static_cast<double>(x.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double lx = std::log(x[i]), ly = std::log(y[i]);
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace dualrate::seed000
