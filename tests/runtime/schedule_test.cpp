// dualrate/schedule.hpp: scheduled constants interpolated over one and two scheduling values,
// held at the grid's edges, NaN for a NaN scheduling value, and off the grid counted by
// dualrate::scheduling::outside and, through generated code, by Data::off_schedule. Runs in the
// sanitized build too (sanitized.runtime_tests).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <dualrate/schedule.hpp>

#include "jet_acceleration.hpp"

namespace {

using dualrate::lookup::Axis;
using dualrate::lookup::Cell;
using dualrate::lookup::Extrapolation;
using dualrate::lookup::Interpolation;
using dualrate::lookup::locate;

constexpr Axis<double, 3, false> kAxis{{0, 1, 3}, 0};
// Two entries over the grid 0, 1, 3: 2 s + 1 and -s.
constexpr double kTables[2][3] = {{1, 3, 7}, {0, -1, -3}};

void at(double s, double (&out)[2]) {
  const Cell<double> cells[1] = {locate<Interpolation::kLinear, Extrapolation::kClamp>(kAxis, s)};
  const int strides[1] = {1};
  dualrate::scheduling::interpolate(kTables, cells, strides, out);
}

TEST(Schedule, InterpolatesBetweenGridPointsAndHoldsTheEdges) {
  double out[2];
  for (double s : {0.0, 0.5, 1.0, 2.0, 3.0}) {
    at(s, out);
    EXPECT_DOUBLE_EQ(out[0], 2 * s + 1) << s;
    EXPECT_DOUBLE_EQ(out[1], -s) << s;
  }
  at(-5, out);
  EXPECT_EQ(out[0], 1);
  at(1e300, out);
  EXPECT_EQ(out[0], 7);
  at(std::numeric_limits<double>::infinity(), out);
  EXPECT_EQ(out[1], -3);
  at(std::numeric_limits<double>::quiet_NaN(), out);
  EXPECT_TRUE(std::isnan(out[0]) && std::isnan(out[1]));
}

TEST(Schedule, OutsideIsTheComplementOfTheRange) {
  EXPECT_FALSE(dualrate::scheduling::outside(kAxis, 0.0));
  EXPECT_FALSE(dualrate::scheduling::outside(kAxis, 3.0));
  EXPECT_TRUE(dualrate::scheduling::outside(kAxis, -1e-12));
  EXPECT_TRUE(dualrate::scheduling::outside(kAxis, 3.5));
  EXPECT_TRUE(dualrate::scheduling::outside(kAxis, std::numeric_limits<double>::quiet_NaN()));
}

// Two scheduling values (the first outermost): f(s, r) = s + 10 r + s r is bilinear, so the
// interpolation is exact inside every cell.
TEST(Schedule, InterpolatesBilinearlyOverTwoValues) {
  constexpr Axis<float, 3, true> s_axis{{0, 1, 2}, 1};
  constexpr Axis<float, 2, true> r_axis{{0, 4}, 0.25f};
  const auto f = [](float s, float r) { return s + 10 * r + s * r; };
  // The values stay below 60; the weights, products and the sum of four terms round at most
  // 16 times by half an epsilon of numbers up to that.
  constexpr float kBound = 16 * std::numeric_limits<float>::epsilon() * 60;
  float tables[1][6];
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 2; ++k) tables[0][i * 2 + k] = f(s_axis.breakpoints[i], r_axis.breakpoints[k]);
  for (float s : {0.0f, 0.5f, 1.25f, 2.0f})
    for (float r : {0.0f, 1.0f, 4.0f}) {
      const Cell<float> cells[2] = {locate<Interpolation::kLinear, Extrapolation::kClamp>(s_axis, s),
                                    locate<Interpolation::kLinear, Extrapolation::kClamp>(r_axis, r)};
      const int strides[2] = {2, 1};
      float out[1];
      dualrate::scheduling::interpolate(tables, cells, strides, out);
      EXPECT_NEAR(out[0], f(s, r), kBound) << s << " " << r;
    }
}

// jet_acceleration's constants are scheduled over V in [92.8, 252.1] m/s (points: auto).
TEST(Schedule, DataCountsTheStepsThatStartOffTheGrid) {
  jet_acceleration::Data d;
  const jet_acceleration::Model::Input u = jet_acceleration::Model::scenario_inputs(0);
  ASSERT_EQ(jet_acceleration::step(d, u), dualrate::Status::kOk);
  EXPECT_EQ(d.off_schedule, 0u);
  d.x[0] = 300;  // V: the constants are the grid's last point's
  ASSERT_EQ(jet_acceleration::step(d, u), dualrate::Status::kOk);
  EXPECT_EQ(d.off_schedule, 1u);
  EXPECT_TRUE(d.x.allFinite());
  d.x[0] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(jet_acceleration::step(d, u), dualrate::Status::kNonFiniteState);
  EXPECT_EQ(d.off_schedule, 2u);
  EXPECT_EQ(d.steps, 2u);
}

}  // namespace
