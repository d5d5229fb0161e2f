// Second-order model files (coordinates, mass, forces, small): lowered to first-order states
// that every scheme runs. The quarter car in relative coordinates (constant non-diagonal mass
// matrix) follows models/quarter_car.yaml's trajectory.
#include <gtest/gtest.h>

#include <cmath>

#include "functions.hpp"
#include "model.hpp"
#include "reference_core.hpp"
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

}  // namespace
}  // namespace dualrate
