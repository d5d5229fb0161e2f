// Ordinary differential equations as the reference core and the analysis step them: a
// right-hand side on plain vectors, the linear one dx/dt = J x, and the explicit Runge-Kutta
// steps of the textbook (forward Euler, Heun, classical RK4), written plainly.
#pragma once

#include <Eigen/Dense>

#include <functional>
#include <vector>

namespace dualrate {

// dx/dt = f(t, x), with whatever the caller holds (inputs) fixed.
using RightHandSide = std::function<void(double t, const std::vector<double>& x, std::vector<double>& dxdt)>;

// dx/dt = J x; J must outlive the function.
RightHandSide linear_rhs(const Eigen::MatrixXd& j);

// One step of size h from (t, x): x + h f(t, x).
std::vector<double> euler_step(const RightHandSide& f, double t, double h, const std::vector<double>& x);
// Heun's method (explicit trapezoidal rule): k1 = f(t, x), k2 = f(t + h, x + h k1), x + h/2 (k1 + k2).
std::vector<double> heun_step(const RightHandSide& f, double t, double h, const std::vector<double>& x);
// Classical fourth-order Runge-Kutta: x + h/6 (k1 + 2 k2 + 2 k3 + k4).
std::vector<double> rk4_step(const RightHandSide& f, double t, double h, const std::vector<double>& x);

}  // namespace dualrate
