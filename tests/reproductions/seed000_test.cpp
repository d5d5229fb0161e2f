// Reproductions of seed 000's linear analysis: the stability region of sp_ll on the test
// equation (eqs. 50-58, Figs. 2-3) and its local error against the step (eqs. 60-62,
// Figs. 4-5). The figure legends were lost from the seed's text, so the parameter values are
// ours: alpha in {10, 100, 1000}, beta in {0, 0.1, 0.5} (see tests/reproductions/seed000/REPORT.md).
#include <gtest/gtest.h>

#include <cmath>

#include "seed000.hpp"

namespace dualrate::seed000 {
namespace {

// Agreement bound 1e-8 (issue #3). Both sides are double-precision evaluations of the same
// map: the closed form from a handful of exponentials, the implementation from Pade
// exponentials of 6x6 blocks whose norm grows with |alpha xi| <= 4243, each accurate to a
// few hundred ulps of the entries; the measured worst case is 2e-13.
TEST(Seed000Stability, ImplementationMatchesTheClosedFormM) {
  for (double alpha : kAlphas)
    for (double beta : kBetas) {
      double worst_reference = 0, worst_runtime = 0;
      for_each_grid_xi([&](Complex xi) {
        const double closed = spectral_radius(closed_form_m(alpha, beta, xi, ClosedForm::kProcedure));
        worst_reference = std::max(worst_reference, scaled_difference(sp_ll_spectral_radius(alpha, beta, xi), closed));
        worst_runtime =
            std::max(worst_runtime, scaled_difference(spectral_radius(runtime_step_map(alpha, beta, xi, 1)), closed));
      });
      EXPECT_LE(worst_reference, 1e-8) << "reference core, alpha " << alpha << ", beta " << beta;
      EXPECT_LE(worst_runtime, 1e-8) << "runtime, alpha " << alpha << ", beta " << beta;
    }
}

// The one-step map depends on h and lambda_s only through xi = h lambda_s (a linear,
// autonomous problem), so checking at h = 1 covers every step: here h = 0.01.
TEST(Seed000Stability, MapDependsOnXiOnly) {
  const Complex xi(-1.3, 0.7);
  const Eigen::Matrix4d at_unit_step = runtime_step_map(100, 0.1, xi, 1);
  const Eigen::Matrix4d at_small_step = runtime_step_map(100, 0.1, xi / 0.01, 0.01);
  EXPECT_LE((at_unit_step - at_small_step).cwiseAbs().maxCoeff(), 1e-12);
}

// The paper's printed M12 (eq. 55) reads beta (e^{alpha xi} - 1) where steps 1-3 give
// beta (e^{alpha xi} - 1) / alpha: the boundary-layer integral mu h phi1(h lambda_f) sigma with
// sigma = beta x_n + z_n contributes (beta^2 / alpha)(e^{alpha xi} - 1) to M11 (printed so)
// and (beta / alpha)(e^{alpha xi} - 1) to M12. With coupling the printed forms miss the
// implementation's spectral radius by far more than rounding; without coupling (beta = 0)
// every form reduces to R(xi) and e^{alpha xi}.
TEST(Seed000Stability, PrintedClosedFormsDisagreeWhereCoupled) {
  for (ClosedForm printed : {ClosedForm::kPaper56, ClosedForm::kPaper57})
    for (double beta : kBetas) {
      double worst = 0;
      for_each_grid_xi([&](Complex xi) {
        worst =
            std::max(worst, scaled_difference(spectral_radius(closed_form_m(100, beta, xi, printed)),
                                              spectral_radius(closed_form_m(100, beta, xi, ClosedForm::kProcedure))));
      });
      if (beta == 0)
        EXPECT_LE(worst, 1e-12);
      else
        EXPECT_GE(worst, 1e-2) << "beta " << beta;
    }
}

// Figs. 2-3: the region hardly changes with alpha. Without coupling it is RK4's region cut by
// Re xi <= 0 (eq. 59), whose boundary on the real axis is xi = -2.785293563405 (R(xi) = 1).
// With coupling, as alpha grows with Re xi < 0, e^{alpha xi} vanishes and M tends to
// diag(R((1 - beta^2) xi), 0): the boundary tends to RK4's for the reduced slow eigenvalue
// (1 - beta^2) lambda_s (eq. 53), -2.785293563405 / (1 - beta^2), with O(1 / alpha)
// corrections (terms beta^2 / alpha in M11); checked with constant 1 (measured 0.6).
TEST(Seed000Stability, RegionTendsToRk4sForTheReducedSlowEigenvalue) {
  constexpr double kRk4RealBoundary = -2.785293563405;
  for (double alpha : kAlphas)
    for (double beta : kBetas) {
      const double limit = kRk4RealBoundary / (1 - beta * beta);
      const double boundary =
          stability_boundary_left([&](Complex xi) { return sp_ll_spectral_radius(alpha, beta, xi); }, 0, -5, 1e-10);
      if (beta == 0)
        EXPECT_NEAR(boundary, kRk4RealBoundary, 1e-9) << "alpha " << alpha;
      else
        EXPECT_NEAR(boundary, limit, 1 / alpha) << "alpha " << alpha << ", beta " << beta;
    }
}

// Figs. 4-5, eqs. 60-62: lambda_s = -1 + i, x(0) = z(0) = 1, beta = 0.1. Order p means a local
// error O(h^{p+1}).
// Where the fast mode is resolved by the step (h |lambda_f| <= 0.1 for every alpha, so
// h <= 7e-5), sp_ll's local error comes from neglecting the slow mode's decay during the
// boundary-layer integral (mu int y instead of mu int e^{a(h - s)} y, a = (1 - beta^2)
// lambda_s): it is about beta |lambda_s|^2 |y_0| h^2 / 2, first order and the same for every
// alpha, as the paper finds. RK4's local error is led by (h lambda_f)^5 / 120 and grows with
// alpha; it is compared over h in [0.0125, 0.2], where it stays far above rounding (1e-16).
TEST(Seed000LocalError, FirstOrderAndAlphaIndependentWhileTheStepResolvesTheFastMode) {
  std::vector<double> hs;
  for (int k = 0; k <= 4; ++k) hs.push_back(7e-5 / std::ldexp(1.0, k));
  std::vector<std::vector<double>> sp(3);
  for (int a = 0; a < 3; ++a) {
    for (double h : hs) sp[a].push_back(local_error("sp_ll", kAlphas[a], 0.1, h).x);
    const double order = log_log_slope(hs, sp[a]) - 1;
    EXPECT_GE(order, 0.8) << "alpha " << kAlphas[a];
    EXPECT_LE(order, 1.3) << "alpha " << kAlphas[a];
  }
  for (std::size_t i = 0; i < hs.size(); ++i) {
    const double lo = std::min({sp[0][i], sp[1][i], sp[2][i]}), hi = std::max({sp[0][i], sp[1][i], sp[2][i]});
    EXPECT_LE(hi, 3 * lo) << "h " << hs[i];
  }
  for (double h = 0.2; h >= 0.0125; h /= 2) {
    EXPECT_LT(local_error("rk4", 10, 0.1, h).x, local_error("rk4", 100, 0.1, h).x) << "h " << h;
    EXPECT_LT(local_error("rk4", 100, 0.1, h).x, local_error("rk4", 1000, 0.1, h).x) << "h " << h;
  }
}

// Beyond the fast mode (h |lambda_f| >= 50, where the boundary layer dies out within the step)
// the neglected decay is of the layer's integral, about -y_0 / lambda_f: the local error of x
// tends to beta (1 - beta^2) |lambda_s| |y_0| h / alpha, with y_0 = z_0 + beta x_0 = 1.1. It
// then decreases with alpha, which the paper's "does not depend on alpha" does not cover, and
// has slope 1 in h: read off a log-log plot as in Figs. 4-5, "order one". Checked: slope in
// [0.8, 1.3] and the error within a factor 2 of the asymptote (higher-order terms in h
// |lambda_s| and 1 / (h |lambda_f|) make up the rest; measured ratio at most 1.33).
TEST(Seed000LocalError, StiffRegimeErrorIsFirstOrderInHAndFallsWithAlpha) {
  const double alpha = 1000, beta = 0.1, y0 = 1.1;
  std::vector<double> hs, errors;
  for (double h = 0.2; h >= 0.05; h /= 2) {
    hs.push_back(h);
    errors.push_back(local_error("sp_ll", alpha, beta, h).x);
    const double asymptote = beta * (1 - beta * beta) * std::sqrt(2.0) * y0 * h / alpha;
    EXPECT_LE(errors.back(), 2 * asymptote) << "h " << h;
    EXPECT_GE(errors.back(), asymptote / 2) << "h " << h;
  }
  const double slope = log_log_slope(hs, errors);
  EXPECT_GE(slope, 0.8);
  EXPECT_LE(slope, 1.3);
  EXPECT_GT(local_error("sp_ll", 100, beta, 0.2).x, 3 * local_error("sp_ll", 1000, beta, 0.2).x);
}

}  // namespace
}  // namespace dualrate::seed000
