// Seed 000's linear analysis (stability, eqs. 50-58; local error, eqs. 60-62) of the sp_ll
// scheme, shared by the reproduction tests and the report program.
//
// Test equation (50): x' = lambda_s x + mu z, z' = delta x + lambda_f z with
// alpha = lambda_f / lambda_s, beta = delta / lambda_f = mu / lambda_s, xi = h lambda_s (51).
// lambda_s is complex, the schemes work on real states: the equation is realified, each
// complex number a + ib becoming the block [[a, -b], [b, a]] and the state
// (Re x, Im x, Re z, Im z). Every operation of the schemes (products, sums, inverses,
// exponentials of such block matrices) maps block matrices to block matrices, so the
// realified one-step map is the realification of the complex one; its eigenvalues are those
// of the complex map and their conjugates, and the spectral radii are equal.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <string>
#include <vector>

namespace dualrate::seed000 {

using Complex = std::complex<double>;

// Parameters of Figs. 2-5 (their legends were lost from the seed's text: our choice).
inline constexpr double kAlphas[] = {10, 100, 1000};
inline constexpr double kBetas[] = {0, 0.1, 0.5};

// Calls f(xi) for xi on a grid over the upper left quarter plane [-3, 0] x [0, 3], step 0.1,
// without xi = 0: the region is symmetric about the real axis and eq. 59 bounds it by
// Re xi <= 0.
template <class F>
void for_each_grid_xi(F&& f) {
  for (int i = 0; i <= 30; ++i)
    for (int k = 0; k <= 30; ++k)
      if (i != 30 || k != 0) f(Complex(-3 + 0.1 * i, 0.1 * k));
}

// |a - b| / max(1, b): how spectral radii are compared.
inline double scaled_difference(double a, double b) { return std::abs(a - b) / std::max(1.0, b); }

// RK4's stability function R (eq. 49).
Complex rk4_stability(Complex s);

// The closed forms of the one-step matrix M (eq. 57) for the test equation.
enum class ClosedForm {
  kProcedure,  // eqs. 55-56 with M12's second term beta (e^{alpha xi} - 1) / alpha: what steps 1-3 give
  kPaper56,    // eqs. 55-56 as printed: M12's second term beta (e^{alpha xi} - 1)
  kPaper57,    // the entries listed under eq. 57 as printed (M21, M22 with e^{alpha xi})
};

Eigen::Matrix2cd closed_form_m(double alpha, double beta, Complex xi, ClosedForm form);

// The realified 4x4 Jacobian of eq. 50 for lambda_s (two slow states, then two fast).
Eigen::Matrix4d test_equation_jacobian(double alpha, double beta, Complex lambda_s);

// One-step map of the reference core's sp_ll (block exponentials computed every step) or of
// another fixed-step scheme of the reference core, for the test equation at step h.
Eigen::Matrix4d reference_step_map(const std::string& scheme, double alpha, double beta, Complex lambda_s, double h);

// One-step map of the runtime's dualrate::SpLl (the code generated models run), with its
// constants computed by the generator's sp_ll_constants for step h.
Eigen::Matrix4d runtime_step_map(double alpha, double beta, Complex lambda_s, double h);

double spectral_radius(const Eigen::Matrix4d& m);
double spectral_radius(const Eigen::Matrix2cd& m);

// The spectral radius of the reference core's sp_ll one-step map at xi (h = 1).
double sp_ll_spectral_radius(double alpha, double beta, Complex xi);

// The boundary of the region of absolute stability rho(xi) <= 1 (eq. 58) along the line
// Im xi = im: the leftmost Re xi in [lo, 0] where rho <= 1, found by bisection to
// `tolerance` after a scan from lo (NaN when no point of the line is stable).
double stability_boundary_left(const std::function<double(Complex)>& rho, double im, double lo, double tolerance);

// Local errors (eq. 61) after one step of size h from x(0) = z(0) = 1 against the exact
// solution e^{Ah} (eq. 60), for lambda_s of eq. 62 by default.
struct LocalError {
  double x = 0, z = 0;
};
LocalError local_error(const std::string& scheme, double alpha, double beta, double h,
                       Complex lambda_s = Complex(-1, 1));

// Least-squares slope of log(y) against log(x).
double log_log_slope(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace dualrate::seed000
