// Stability along the scenario's trajectory (analysis/stability_along_trajectory.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>

#include "analysis/stability_along_trajectory.hpp"
#include "reference/sampled_trajectory.hpp"
#include "reference_core/reference_core.hpp"
#include "registry/registry.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

// y' = -k (1 + x) y with a clock x' = 1 from x = 0: the Jacobian's eigenvalues are 0 and
// -k (1 + t), so at h = 0.04, k = 10 the step's h |lambda| grows from 0.4 at t = 0 to 2.4 at
// t_end = 5. Euler's map there is |1 - 2.4| = 1.4 (unstable from t = 4, where h k (1 + t) = 2);
// rk4's stays below 1, its real-axis limit being h |lambda| = 2.785. The points are the
// high-accuracy solution's, x(t) = t to its tolerance 1e-10 (kTrajectoryTolerance), so the
// worst radius is 1.4 to about h k 1e-10 = 4e-11.
Model stiffening() {
  init_symbolic();
  return load_model_text(
      "name: stiffening\nparameters:\n  k: 10\nstates:\n  slow:\n    x: 0\n    y: 1\n"
      "equations:\n  x: 1\n  y: -k*(1 + x)*y\nsimulation:\n  t_end: 5\n  step: 0.04\n",
      "stiffening.yaml");
}

TEST(StabilityAlongTrajectory, EulerLeavesItsRegionWhereTheModelStiffens) {
  const Model m = stiffening();
  EXPECT_TRUE(analyze_stability(m, "euler", 0.04).stable);
  const TrajectoryStability euler = stability_along_trajectory(m, "euler", 0.04, 1, {}, ScenarioTrajectory(m, 5));
  ASSERT_TRUE(euler.judged);
  EXPECT_EQ(euler.points, static_cast<std::size_t>(kTrajectoryIntervals));
  EXPECT_FALSE(euler.stable);
  EXPECT_DOUBLE_EQ(euler.t, 5);
  EXPECT_NEAR(euler.worst.radius, 1.4, 1e-8);
  const Instability why = trajectory_instability(m, "euler", 0.04, 1, euler);
  EXPECT_NE(why.message.find("not along the scenario's trajectory: at t = 5 the spectral radius of its one-step map "
                             "at the model's linearization is 1.4"),
            std::string::npos)
      << why.message;
  EXPECT_NE(why.hint.find("mode -60+0i 1/s decides it there"), std::string::npos) << why.hint;
  const TrajectoryStability rk4 = stability_along_trajectory(m, "rk4", 0.04, 1, {}, ScenarioTrajectory(m, 5));
  EXPECT_TRUE(rk4.judged && rk4.stable);
  EXPECT_NE(trajectory_json(rk4).find("\"judged\":true,\"points\":400,\"stable\":true"), std::string::npos);
}

TEST(StabilityAlongTrajectory, NotJudgedWhereTheInitialStateDecides) {
  init_symbolic();
  const Model linear = load_model_text(
      "name: linear\nstates:\n  slow:\n    x: 1\n    y: 0\n"
      "equations:\n  x: -x + 2*y\n  y: -2*x - y\n",
      "linear.yaml");
  const TrajectoryStability constant =
      stability_along_trajectory(linear, "rk4", 0.01, 1, {}, ScenarioTrajectory(linear, 1));
  EXPECT_FALSE(constant.judged);
  EXPECT_EQ(constant.not_judged, "the Jacobian is constant");
  const Model m = stiffening();
  const TrajectoryStability no_design = stability_along_trajectory(m, "sp_ll", 0.04, 1, {}, ScenarioTrajectory(m, 5));
  EXPECT_FALSE(no_design.judged);
  EXPECT_NE(no_design.not_judged.find("sp_ll needs both slow and fast states"), std::string::npos)
      << no_design.not_judged;
}

// A scheme with constants is judged with the design's constants at every point: the map at the
// initial state's Jacobian is the scheme's own map there, built from that Jacobian, bit for bit.
// sp_ll's constants are the exponentials of the same blocks, computed the same way; smfe's map
// is its runtime step (smfe_step) on the identity's columns, the analysis's its reference step
// on each unit vector: the same N + 1 Euler steps with the same h_s and N.
TEST(StabilityAlongTrajectory, TheDesignsMapAtTheInitialStateIsTheSchemesOwn) {
  for (const auto& [file, scheme] : {std::pair<std::string, std::string>{"pendulum_particle", "sp_ll"},
                                     {"quarter_car_c", "sp_ll"},
                                     {"quarter_car_c", "smfe"}}) {
    const Model m = test::load(test::source_path("models/" + file + ".yaml"));
    const double h = *m.simulation.step;
    GenerateRequest request{scheme, h, 1, ScalarType::kDouble, {}};
    const SchemeDesign design = precompute_scheme(m, request);
    const ReferenceCore core(m);
    const Eigen::MatrixXd j = core.jacobian_at(0, core.initial_state(), core.inputs_at(0));
    const Eigen::MatrixXd own = one_step_map(scheme, j, h, m.slow_count);
    const Eigen::MatrixXd map = find_scheme(scheme)->hooks.design_step_map(design, j, m.slow_count, h);
    EXPECT_EQ((map - own).cwiseAbs().maxCoeff(), 0) << file << " " << scheme;
  }
}

// pendulum_particle under sp_ll with its linearization frozen at the initial state (the file's
// choice): undamped, its modes are on the imaginary axis everywhere. At the seed's step h =
// 0.005 (Figs. 7-8) the initial state's constants give a map of radius 1 + 2.5e-8 at t = 4.825,
// where the swing has moved f_z and g_x by 96%: above 1 + kStabilityMargin, reported as
// advisory (generate warns, analyze says so). At the file's step 0.001 the worst is 1 + 1e-11:
// stable.
TEST(StabilityAlongTrajectory, TheFrozenDesignIsJudgedAndReported) {
  const Model m = test::load(test::source_path("models/pendulum_particle.yaml"));
  ASSERT_EQ(m.simulation.linearization, Linearization::kFrozen);
  EXPECT_TRUE(stability_along_trajectory(m, "sp_ll", *m.simulation.step, 1, {}, ScenarioTrajectory(m, 5)).stable);
  const double h = 0.005;
  const TrajectoryStability r = stability_along_trajectory(m, "sp_ll", h, 1, {}, ScenarioTrajectory(m, 5));
  ASSERT_TRUE(r.judged);
  EXPECT_TRUE(r.advisory);
  EXPECT_FALSE(r.stable);
  EXPECT_GT(r.worst.radius, 1 + kStabilityMargin);
  EXPECT_LT(r.worst.radius, 1 + 1e-7);
  EXPECT_NE(trajectory_text(r, "sp_ll").find("UNSTABLE (the initial state's constants; generate warns)"),
            std::string::npos);
  EXPECT_NE(trajectory_json(r).find("\"advisory\":true"), std::string::npos);
  // No mode grows: the warning names the stiffest (a pendulum's swing, on the imaginary axis).
  EXPECT_GT(std::abs(r.worst.mode.imag()), 1);
  const Instability why = trajectory_instability(m, "sp_ll", h, 1, r);
  EXPECT_NE(why.message.find("with the initial state's constants"), std::string::npos) << why.message;
  EXPECT_NE(why.hint.find("its stiffest mode there is"), std::string::npos) << why.hint;
}

}  // namespace
}  // namespace dualrate
