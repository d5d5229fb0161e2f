// Stability along the scenario's trajectory (analysis/stability_along_trajectory.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/stability_along_trajectory.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

// y' = -k (1 + x) y with a clock x' = 1 from x = 0: the Jacobian's eigenvalues are 0 and
// -k (1 + t), so at h = 0.04, k = 10 the step's h |lambda| grows from 0.4 at t = 0 to 2.4 at
// t_end = 5. Euler's map there is |1 - 2.4| = 1.4 (unstable from t = 4, where h k (1 + t) = 2);
// rk4's stays below 1, its real-axis limit being h |lambda| = 2.785. The points are the
// high-accuracy solution's, x(t) = t to its tolerance 1e-8, so the worst radius is 1.4 to
// about h k 1e-8 = 4e-9.
Model stiffening() {
  init_symbolic();
  return load_model_text("name: stiffening\nparameters:\n  k: 10\nstates:\n  slow:\n    x: 0\n    y: 1\n"
                         "equations:\n  x: 1\n  y: -k*(1 + x)*y\nsimulation:\n  t_end: 5\n  step: 0.04\n",
                         "stiffening.yaml");
}

TEST(StabilityAlongTrajectory, EulerLeavesItsRegionWhereTheModelStiffens) {
  const Model m = stiffening();
  EXPECT_TRUE(analyze_stability(m, "euler", 0.04).stable);
  const TrajectoryStability euler = stability_along_trajectory(m, "euler", 0.04, 1, {}, 5);
  ASSERT_TRUE(euler.judged);
  EXPECT_EQ(euler.points, kTrajectoryPoints);
  EXPECT_FALSE(euler.stable);
  EXPECT_DOUBLE_EQ(euler.t, 5);
  EXPECT_NEAR(euler.worst.radius, 1.4, 1e-8);
  const Instability why = trajectory_instability(m, "euler", 0.04, 1, euler);
  EXPECT_NE(why.message.find("not along the scenario's trajectory: at t = 5 the spectral radius of its one-step map "
                             "at the model's linearization is 1.4"),
            std::string::npos)
      << why.message;
  EXPECT_NE(why.hint.find("mode -60+0i"), std::string::npos) << why.hint;
  const TrajectoryStability rk4 = stability_along_trajectory(m, "rk4", 0.04, 1, {}, 5);
  EXPECT_TRUE(rk4.judged && rk4.stable);
  EXPECT_NE(trajectory_json(rk4).find("\"judged\":true,\"points\":200,\"stable\":true"), std::string::npos);
}

TEST(StabilityAlongTrajectory, NotJudgedWhereTheInitialStateDecides) {
  init_symbolic();
  const Model linear = load_model_text("name: linear\nstates:\n  slow:\n    x: 1\n    y: 0\n"
                                       "equations:\n  x: -x + 2*y\n  y: -2*x - y\n",
                                       "linear.yaml");
  const TrajectoryStability constant = stability_along_trajectory(linear, "rk4", 0.01, 1, {}, 1);
  EXPECT_FALSE(constant.judged);
  EXPECT_EQ(constant.not_judged, "the Jacobian is constant");
  const Model m = stiffening();
  EXPECT_FALSE(stability_along_trajectory(m, "sp_ll", 0.04, 1, {}, 5).judged);
}

}  // namespace
}  // namespace dualrate
