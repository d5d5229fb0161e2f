// Linear stability analysis: one-step maps built from the schemes' reference implementations
// against their closed-form stability functions.
#include <gtest/gtest.h>

#include <complex>

#include "analysis.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

// For dx/dt = lambda x the one-step map is R(h lambda): 1 + z (Euler), 1 + z + z^2/2 (Heun),
// 1 + z + z^2/2 + z^3/6 + z^4/24 (RK4, seed 000 eq. 49). A 2x2 real block [[a, -b], [b, a]]
// has eigenvalues a +- ib, so its map has spectral radius |R(h (a + ib))|.
TEST(Analysis, OneStepMapMatchesStabilityPolynomials) {
  for (const auto& [a, b] : std::vector<std::pair<double, double>>{{-1, 0}, {-3, 40}, {0, 700}, {-50, 2}}) {
    Eigen::MatrixXd j(2, 2);
    j << a, -b, b, a;
    for (double h : {1e-3, 5e-3, 2e-2}) {
      const std::complex<double> z(h * a, h * b);
      const double euler = std::abs(1.0 + z);
      const double heun = std::abs(1.0 + z + z * z / 2.0);
      const double rk4 = std::abs(1.0 + z + z * z / 2.0 + z * z * z / 6.0 + z * z * z * z / 24.0);
      const auto radius = [&](const char* s) {
        return Eigen::EigenSolver<Eigen::MatrixXd>(one_step_map(s, j, h)).eigenvalues().cwiseAbs().maxCoeff();
      };
      // Both sides are a few dozen floating-point operations on numbers with |z| <= 14, so
      // they agree to some tens of ulps of max(1, |R|): inside 1e-12 relative.
      EXPECT_NEAR(radius("euler"), euler, 1e-12 * std::max(1.0, euler));
      EXPECT_NEAR(radius("rk2"), heun, 1e-12 * std::max(1.0, heun));
      EXPECT_NEAR(radius("rk4"), rk4, 1e-12 * std::max(1.0, rk4));
    }
  }
}

TEST(Analysis, PendulumRk4IsUnstableAtTheSeedsStepAndStableBelowIt) {
  const Model m = test::load(test::source_path("models/pendulum_particle.yaml"));
  const StabilityReport coarse = analyze_stability(m, "rk4", 0.005);
  EXPECT_FALSE(coarse.stable);
  EXPECT_GT(coarse.spectral_radius, 1.5);  // |R(3.54i)| = 4.03 for the fast mode sqrt(k/m2) = 707 rad/s
  const StabilityReport fine = analyze_stability(m, "rk4", 0.001);
  EXPECT_TRUE(fine.stable);
  // The fast modes are +-i sqrt(k/m2) (seed 000: the particle on its spring).
  EXPECT_NEAR(fine.fast_eigenvalues.cwiseAbs().maxCoeff(), std::sqrt(5 / 1e-5), 1e-6);
  EXPECT_GT(fine.separation, 100);
}

}  // namespace
}  // namespace dualrate
