// Interval bounds (numeric/interval.hpp): every value an expression takes over a box lies within
// its bound (checked on a grid of the box, evaluated by GiNaC), the bounds of simple monotone
// expressions are their exact ranges to rounding, what cannot be bounded is refused, the bound of
// an inverse's norm holds over its box, and sp_ll's exponential plan, fixed from these bounds,
// covers the norms at random points of the calibration range of real models.
#include <gtest/gtest.h>

#include <dualrate/expm.hpp>

#include <cmath>
#include <random>

#include "model/tunable.hpp"
#include "numeric/calibrated_jacobian.hpp"
#include "numeric/interval.hpp"
#include "schemes/sp_ll/calibration.hpp"
#include "test_support.hpp"

namespace dualrate {
namespace {

const GiNaC::symbol x("x"), y("y");

double at(const GiNaC::ex& e, double xv, double yv) {
  return GiNaC::ex_to<GiNaC::numeric>(e.subs(GiNaC::lst{x == xv, y == yv}).evalf()).to_double();
}

TEST(Interval, EveryValueOverTheBoxLiesWithinItsBound) {
  const IntervalMap box{{x, {-1, 2}}, {y, {0.5, 3}}};
  const GiNaC::ex expressions[] = {x * y,
                                   GiNaC::pow(x, 2),
                                   1 / y,
                                   GiNaC::sin(x) * GiNaC::exp(y),
                                   x / y - GiNaC::pow(y, 3),
                                   GiNaC::sqrt(y),
                                   GiNaC::cos(3 * x),
                                   GiNaC::tanh(x * y),
                                   GiNaC::log(y) * x,
                                   GiNaC::pow(x - 1, 3) + GiNaC::cosh(x)};
  for (const GiNaC::ex& e : expressions) {
    const Interval b = bound(e, box);
    for (int i = 0; i <= 40; ++i)
      for (int j = 0; j <= 40; ++j) {
        const double v = at(e, -1 + 3.0 * i / 40, 0.5 + 2.5 * j / 40);
        ASSERT_GE(v, b.lo) << e << " at grid point " << i << ", " << j;
        ASSERT_LE(v, b.hi) << e << " at grid point " << i << ", " << j;
      }
  }
}

// Monotone or single-use expressions: the bound is the exact range, widened by a few ulps.
TEST(Interval, SimpleExpressionsAreBoundedTightly) {
  const IntervalMap box{{x, {-1, 2}}, {y, {0.5, 3}}};
  const auto expect_range = [&](const GiNaC::ex& e, double lo, double hi) {
    const Interval b = bound(e, box);
    EXPECT_NEAR(b.lo, lo, 1e-14 * std::max(1.0, std::fabs(lo))) << e;
    EXPECT_NEAR(b.hi, hi, 1e-14 * std::max(1.0, std::fabs(hi))) << e;
  };
  expect_range(GiNaC::pow(x, 2), 0, 4);
  expect_range(x * y, -3, 6);
  expect_range(1 / y, 1 / 3.0, 2);
  expect_range(GiNaC::sin(x), std::sin(-1.0), 1);  // passes pi/2
  expect_range(GiNaC::exp(y), std::exp(0.5), std::exp(3.0));
}

TEST(Interval, WhatCannotBeBoundedIsRefused) {
  const IntervalMap box{{x, {-1, 2}}, {y, {0.5, 3}}};
  EXPECT_THROW(bound(1 / x, box), IntervalError);
  EXPECT_THROW(bound(GiNaC::log(x), box), IntervalError);
  EXPECT_THROW(bound(GiNaC::sqrt(x), box), IntervalError);
  EXPECT_THROW(bound(GiNaC::tan(y), box), IntervalError);  // passes pi/2
  EXPECT_THROW(bound(GiNaC::symbol("z") * x, box), IntervalError);
}

// ||G^-1||_1 over G = [[a, 1], [0.5, b]], a in [-3, -2], b in [-4, -3]: the bound holds at every
// point of a grid, is exact to rounding for a box of one point, and fails for a box that holds a
// singular matrix.
TEST(Interval, TheInverseNormBoundHoldsOverItsBox) {
  IntervalMatrix g{Eigen::MatrixXd(2, 2), Eigen::MatrixXd(2, 2)};
  g.lo << -3, 1, 0.5, -4;
  g.hi << -2, 1, 0.5, -3;
  const std::optional<double> b = inverse_norm_bound(g);
  ASSERT_TRUE(b);
  double largest = 0;
  for (int i = 0; i <= 20; ++i)
    for (int j = 0; j <= 20; ++j) {
      Eigen::Matrix2d m;
      m << -3 + i / 20.0, 1, 0.5, -4 + j / 20.0;
      largest = std::max(largest, m.inverse().cwiseAbs().colwise().sum().maxCoeff());
    }
  EXPECT_GE(*b, largest);
  EXPECT_LT(*b, 4 * largest) << "a usable bound for a box this wide";
  IntervalMatrix point{g.hi, g.hi};
  Eigen::Matrix2d m = g.hi;
  const double exact = m.inverse().cwiseAbs().colwise().sum().maxCoeff();
  ASSERT_TRUE(inverse_norm_bound(point));
  EXPECT_NEAR(*inverse_norm_bound(point), exact, 1e-13 * exact);
  IntervalMatrix singular = g;
  singular.lo(0, 0) = -1;
  singular.hi(0, 0) = 1;
  singular.lo(1, 1) = -1;
  singular.hi(1, 1) = 1;  // holds [[0.5, 1], [0.5, 1]], which is singular
  EXPECT_FALSE(inverse_norm_bound(singular));
}

// A box is bisected while it cannot be bounded: here while wider than a quarter of [0, 1].
TEST(Interval, BoundOverBoxBisectsUntilEveryPartIsBounded) {
  int calls = 0;
  const auto bound_in = [&](const TunableBox& b) -> std::optional<BoxBound> {
    ++calls;
    const Interval k = b.at("k");
    if (k.hi - k.lo > 0.25) return std::nullopt;
    return BoxBound{k.hi * k.hi, k.middle() * k.middle()};
  };
  const std::optional<double> largest = bound_over_box({{"k", {0, 1}}}, bound_in);
  ASSERT_TRUE(largest);
  EXPECT_EQ(*largest, 1.0);
  EXPECT_GE(calls, 7);  // [0, 1] into 4 quarters, and the looser parts again
  EXPECT_FALSE(bound_over_box({{"k", {0, 1}}}, bound_in, 3)) << "the budget leaves a part unbounded";
}

// sp_ll's exponentials take one plan for every write (emit: phi_blocks<m, s>): it must cover
// ||h g_z||_1 and ||h A||_1 at every point of the range, here 2000 random ones of each model.
TEST(Interval, SpLlPlanCoversTheWholeCalibrationRange) {
  for (const char* file : {"models/servo_actuator_lag.yaml", "tests/models/calibration/motor.yaml",
                           "examples/motor_controller/motor.yaml"}) {
    const Model m = test::load(test::source_path(file));
    const double h = m.simulation.step.value();
    const std::vector<RecomputeStep> steps = sp_ll_calibration_steps(m, h);
    ASSERT_EQ(steps.size(), 9U) << file;
    const RecomputeStep& phi = steps.back();
    const double reach = std::ldexp(expm::theta<double>(phi.degree), phi.squarings);
    std::mt19937 random(7);
    std::uniform_real_distribution<double> unit(0, 1);
    for (int k = 0; k < 2000; ++k) {
      TunablePoint p;
      for (const Parameter& q : m.parameters)
        if (q.tunable) p[q.name] = q.min + (q.max - q.min) * unit(random);
      const GiNaC::exmap values = parameter_values_at(m, p);
      const auto block = [&](std::size_t i) {
        return evaluate_block(steps[i].entries, steps[i].rows, steps[i].cols, values);
      };
      const Eigen::MatrixXd gz = block(0), a = gz + gz.inverse() * block(1) * block(2);
      const double norm =
          h * std::max(gz.cwiseAbs().colwise().sum().maxCoeff(), a.cwiseAbs().colwise().sum().maxCoeff());
      ASSERT_LE(norm, reach) << file << " at point " << k;
    }
  }
}

}  // namespace
}  // namespace dualrate
