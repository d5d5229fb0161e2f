// Second-order model files (coordinates, mass, forces, small): lowered to first-order states
// that every scheme runs. The quarter car in relative coordinates (constant non-diagonal mass
// matrix) follows models/quarter_car.yaml's trajectory.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>

#include "model/functions.hpp"
#include "base/diagnostics.hpp"
#include "schemes/quasistatic/quasistatic.hpp"
#include "model/model.hpp"
#include "reference_core/reference_core.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

TEST(SecondOrder, LowersToPositionsVelocitiesAndTheSmallVelocitiesAsFast) {
  const Model m = test::load(test::source_path("models/quarter_car_relative.yaml"));
  ASSERT_TRUE(m.second_order.has_value());
  const SecondOrder& so = *m.second_order;
  ASSERT_EQ(m.states.size(), 4u);
  EXPECT_EQ(m.slow_count, 3u);
  EXPECT_EQ(m.states[0].name, "zs");
  EXPECT_EQ(m.states[1].name, "d");
  EXPECT_EQ(m.states[2].name, "zs_dot");
  EXPECT_EQ(m.states[3].name, "d_dot");  // d is small: its velocity is the fast state
  EXPECT_TRUE(m.states[3].fast);
  EXPECT_EQ(so.position, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(so.velocity, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(so.small, (std::vector<std::size_t>{1}));
  EXPECT_EQ(so.small_parameter, "mu");
  EXPECT_FALSE(so.diagonal);
}

// The same motion as the first-order quarter car: zs and zu = zs + d, RK4 at the models'
// step over 3 s. The two are algebraically equal formulations, so they differ by rounding
// only: per step a few ulps of the state (1e-15 relative), accumulated over 3000 steps of a
// stable system, at most 3e-12 of the largest displacement; bound 1e-10 of it.
TEST(SecondOrder, QuarterCarInRelativeCoordinatesFollowsTheFirstOrderModel) {
  const Model relative = test::load(test::source_path("models/quarter_car_relative.yaml"));
  const Model absolute = test::load(test::source_path("models/quarter_car.yaml"));
  const Trace a = ReferenceCore(relative).simulate({"rk4", 1e-3, 3, 1});
  const Trace b = ReferenceCore(absolute).simulate({"rk4", 1e-3, 3, 1});
  ASSERT_EQ(a.rows.size(), b.rows.size());
  double scale = 0, worst = 0;
  for (std::size_t k = 0; k < a.rows.size(); ++k) {
    const double zs = a.rows[k][1], zu = a.rows[k][1] + a.rows[k][2];
    scale = std::max({scale, std::fabs(b.rows[k][1]), std::fabs(b.rows[k][3])});
    worst = std::max({worst, std::fabs(zs - b.rows[k][1]), std::fabs(zu - b.rows[k][3])});
  }
  EXPECT_GT(scale, 0.04);  // the kerb (5 cm) moved the car
  EXPECT_LE(worst, 1e-10 * scale);
}

// --param reaches the mass matrix: with a heavier wheel the motion changes.
TEST(SecondOrder, MassMatrixFollowsParameterOverrides) {
  init_symbolic();
  const std::string file = test::source_path("models/quarter_car_relative.yaml");
  const Model light = load_model_file(file);
  const Model heavy = load_model_file(file, {{"mu", 80}});
  const Trace a = ReferenceCore(light).simulate({"rk4", 1e-3, 0.3, 1});
  const Trace b = ReferenceCore(heavy).simulate({"rk4", 1e-3, 0.3, 1});
  EXPECT_GT(std::fabs(a.rows.back()[2] - b.rows.back()[2]), 1e-4);
}

// A mass matrix of the coordinates (models/light_double_pendulum.yaml): the velocities' rates
// are the solved accelerations, whose symbolic M(q)^-1 f the reference core evaluates; at a
// state away from the initial one they equal M(q) \ f computed here from the file's
// formulas with Eigen. Both are a 2x2 solve of cond(M) ~ 400 in double: 1e-12 relative.
TEST(SecondOrder, CoordinateDependentMassIsSolvedForTheAccelerations) {
  const Model m = test::load(test::source_path("models/light_double_pendulum.yaml"));
  const SecondOrder& so = *m.second_order;
  EXPECT_FALSE(so.constant_mass);
  ASSERT_EQ(so.accelerations.size(), 2u);
  EXPECT_TRUE(m.variables.back().solved);
  EXPECT_EQ(m.variables.back().name, "q2_ddot");
  EXPECT_TRUE(m.states[so.velocity[1]].rhs.is_equal(so.accelerations[1]));

  const double q1 = 0.7, q2 = -0.4, w1 = 1.3, w2 = -2.1, target = 0.5;
  const double m1 = 1, l1 = 1, m2 = 0.01, l2 = 0.5, k = 2, c = 0.5, g = 9.81, b1 = 0.1, kp = 30, kd = 6;
  Eigen::Matrix2d mass;
  mass << (m1 + m2) * l1 * l1, m2 * l1 * l2 * std::cos(q1 - q2), m2 * l1 * l2 * std::cos(q1 - q2), m2 * l2 * l2;
  const double joint = k * (q2 - q1) + c * (w2 - w1), coupling = m2 * l1 * l2 * std::sin(q1 - q2);
  const Eigen::Vector2d force(
      kp * (target - q1) - kd * w1 - b1 * w1 + joint - (m1 + m2) * g * l1 * std::sin(q1) - coupling * w2 * w2,
      -joint - m2 * g * l2 * std::sin(q2) + coupling * w1 * w1);
  const Eigen::Vector2d expected = mass.llt().solve(force);
  std::vector<double> dx;
  ReferenceCore(m).derivatives(0, {q1, q2, w1, w2}, {target}, dx);
  ASSERT_EQ(dx.size(), 4u);
  EXPECT_EQ(dx[0], w1);
  EXPECT_EQ(dx[1], w2);
  EXPECT_NEAR(dx[2], expected[0], 1e-12 * expected.norm());
  EXPECT_NEAR(dx[3], expected[1], 1e-12 * expected.norm());
}

// The quasistatic scheme inverts M0's large block at generation time: it refuses a mass matrix
// of the coordinates, at the mass section.
TEST(SecondOrder, QuasistaticRefusesACoordinateDependentMass) {
  const Model m = test::load(test::source_path("models/light_double_pendulum.yaml"));
  try {
    quasistatic_form(m);
    FAIL() << "quasistatic accepted a q-dependent mass matrix";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.loc().line, m.second_order->mass_loc.line);
    EXPECT_NE(std::string(e.what()).find("constant mass matrix"), std::string::npos);
  }
}

}  // namespace
}  // namespace dualrate
