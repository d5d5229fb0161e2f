// Seed 001 reproductions: N grows like log(1/eps) (eq. 17), SMFE's evaluations per unit time
// against forward Euler at its stability limit, and on the adaptive control example the
// error is set by the macro step D, barely by N (Table I's protocol). Eq. 14's exactness for
// linear systems is tests/unit/schemes/smfe_test.cpp.
#include <gtest/gtest.h>

#include "model/functions.hpp"
#include "seed001.hpp"

namespace dualrate {
namespace {

// Over six decades of eps the exact N rises by ln(10)/ln(2) = 3.3 per decade (|1 + h_s
// lambda_f| = 1 - D = 0.5 with the paper's h_s = eps D), within one of eq. 17's bound; the
// slope over the six decades is within 10% of 3.32. Forward Euler needs |lambda_f| / 2 =
// 1/(2 eps) = 5e7 evaluations per unit time at eps = 1e-8, SMFE (N + 1) / D, about 54 with
// N near 26 (eq. 17: ln(5e7)/ln 2 = 25.6): more than 5e5 times fewer.
TEST(Seed001, InnerStepsGrowLikeLogOneOverEps) {
  init_symbolic();
  std::vector<seed001::NPoint> points;
  for (int k = 2; k <= 8; ++k) points.push_back(seed001::n_for(std::pow(10.0, -k)));
  for (const auto& p : points) {
    EXPECT_LE(std::fabs(p.n - p.eq17), 1.0 + 1e-9) << "eps " << p.eps << " N " << p.n << " eq. 17 " << p.eq17;
    RecordProperty(fmt::format("N_eps_1e{}", static_cast<int>(std::round(std::log10(p.eps)))), p.n);
  }
  const double slope = (points.back().n - points.front().n) / 6.0;
  EXPECT_NEAR(slope, std::log(10.0) / std::log(2.0), 0.33);
  EXPECT_GT(points.back().euler_rate / points.back().smfe_rate, 5e5);
}

// Table I's protocol on the adaptive example (h_s = eps = 0.01, dead-beat for the fast mode,
// so N = 1 already puts the state on the slow manifold). What holds: the error is that of
// the large forward-Euler step of length D - N h_s. Its mean squared error, quadratic in
// that first-order error, scales like (D - N h_s)^2: against N = 1, N = 2 and 3 change it by
// 0.5 to 1.1 times ((D - N h_s) / (D - h_s))^2 (more inner steps only shorten the large
// step; the fast mode is already settled). Forward Euler on the reduced model with step D
// is as accurate to within a factor 2, and from D = 0.2 to 0.05 the error falls by more
// than 4.
TEST(Seed001, AdaptiveExampleErrorIsSetByDNotByN) {
  init_symbolic();
  for (const double d : {0.2, 0.1, 0.05}) {
    const double base = seed001::mse(seed001::slow_plane(d, 1), d);
    for (const int n : {2, 3}) {
      if (n * 0.01 >= d) continue;
      const double expected = std::pow((d - n * 0.01) / (d - 0.01), 2);
      const double ratio = seed001::mse(seed001::slow_plane(d, n), d) / base / expected;
      EXPECT_GT(ratio, 0.5) << "D " << d << " N " << n;
      EXPECT_LT(ratio, 1.1) << "D " << d << " N " << n;
    }
    const double reduced = seed001::mse(seed001::slow_plane(d, 0), d);
    EXPECT_LT(base / reduced, 2.0) << d;
    EXPECT_GT(base / reduced, 0.5) << d;
    RecordProperty(fmt::format("mse_D_{}", d), fmt::format("{:.3e} reduced {:.3e}", base, reduced));
  }
  const double coarse = seed001::mse(seed001::slow_plane(0.2, 1), 0.2);
  const double fine = seed001::mse(seed001::slow_plane(0.05, 1), 0.05);
  EXPECT_GT(coarse / fine, 4.0);
}

}  // namespace
}  // namespace dualrate
