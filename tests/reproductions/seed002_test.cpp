// Seed 002 reproductions (models/walking_robot.yaml): Theorem 1's O(eps) error of the
// quasistatic solution outside the initial layer, the boundary-layer correction inside it,
// and the stable step gained by eliminating the feet.
#include <gtest/gtest.h>

#include "model/functions.hpp"
#include "seed002.hpp"

namespace dualrate {
namespace {

// m_N halved four times from the paper's 0.02: the platform's error against the full model
// (high-accuracy solution) for t in [0.25, 2] falls like eps^1. The fitted slope lies in
// [0.8, 1.2] (the bound: the O(eps^2) remainder and the reference's 1e-12 tolerance
// bend a pure power law slightly), and each halving shrinks the error by 1.6 to 2.4.
TEST(Seed002, QuasistaticErrorIsOrderEps) {
  init_symbolic();
  std::vector<seed002::EpsPoint> points;
  for (int k = 0; k <= 4; ++k) points.push_back(seed002::eps_point(0.02 / std::pow(2.0, k)));
  for (std::size_t i = 0; i < points.size(); ++i) {
    RecordProperty(fmt::format("error_eps_{:.5f}", points[i].eps), fmt::format("{:.4e}", points[i].error));
    if (i == 0) continue;
    const double ratio = points[i - 1].error / points[i].error;
    EXPECT_GT(ratio, 1.6) << points[i].eps;
    EXPECT_LT(ratio, 2.4) << points[i].eps;
  }
  const double s = seed002::slope(points);
  RecordProperty("slope", fmt::format("{:.4f}", s));
  EXPECT_GE(s, 0.8);
  EXPECT_LE(s, 1.2);
}

// Inside the layer (h = 0.2 ms, the first 5 steps; the fast modes decay like e^{-1500 t}) the
// outer solution misses the feet's velocity transient by its full size; the correction with
// e^{h A_zz} leaves less than a tenth of that (what remains: the layer's nonlinearity and its
// O(eps) coupling to the slow states).
TEST(Seed002, BoundaryLayerCorrectionFollowsTheInitialLayer) {
  init_symbolic();
  const seed002::LayerErrors e = seed002::layer_errors(2e-4, 5);
  RecordProperty("corrected", fmt::format("{:.4e}", e.corrected));
  RecordProperty("outer", fmt::format("{:.4e}", e.outer));
  EXPECT_GT(e.outer, 0.3 * e.peak);
  EXPECT_LT(e.corrected, 0.1 * e.outer);
}

// The feet's modes (-1400 to -2500 1/s) limit RK4 on the full model to about 1.1 ms; on the
// reduced form the platform's and the feet's quasi-static relaxation (-46 1/s) allow 60 ms.
TEST(Seed002, EliminationGainsMoreThanTenTimesTheStep) {
  init_symbolic();
  const Model m = seed002::robot(0.02);
  const StabilityReport r = analyze_stability(m, "quasistatic", 0.01);
  ASSERT_TRUE(r.full_rk4_max_stable_step.has_value());
  RecordProperty("rk4_full", fmt::format("{:.6g}", *r.full_rk4_max_stable_step));
  RecordProperty("quasistatic", fmt::format("{:.6g}", r.max_stable_step));
  EXPECT_TRUE(r.stable);
  EXPECT_GT(r.max_stable_step / *r.full_rk4_max_stable_step, 10.0);
}

}  // namespace
}  // namespace dualrate
