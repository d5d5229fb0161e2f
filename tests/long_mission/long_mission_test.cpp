// A generated float model whose equation uses t, run for 10^8 steps (10^5 s at h = 1 ms), against
// the reference core at the same times: the long-mission check. With t in float the
// last steps would see t off by up to half its spacing at 1e5 s, 2^-8 s = 3.9 ms, a phase
// error of 0.025 rad at 1 Hz; with the model's Time (double) the time terms are exact to a
// rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>

#include "generated_run.hpp"
#include "model/model.hpp"
#include "reference_core/reference_core.hpp"
#include "source_tree.hpp"

namespace {

constexpr std::uint64_t kSteps = 100'000'000;
constexpr std::uint64_t kKept = 1000;  // the last second: 20 tau of x

TEST(LongMission, FloatRunOfTenToTheEightStepsFollowsTheDoubleReferenceAtTheSameTimes) {
  const long_mission_test::Samples run = long_mission_test::run_generated(kSteps, kKept);
  ASSERT_TRUE(run.all_ok);
  ASSERT_EQ(run.states.size(), kKept + 1);
  const dualrate::Model model =
      dualrate::load_model_file(dualrate::test::source_path("tests/models/runtime/long_mission.yaml"));
  const dualrate::ReferenceCore core(model);

  // The double reference from the generated state at step kSteps - kKept, stepping with the
  // generated code's h (the float kStep) so that step n is at the same time n h.
  dualrate::RunOptions in_double;
  in_double.scheme = "rk4";
  in_double.step = run.step;
  in_double.t_end = static_cast<double>(kSteps) * run.step;
  const auto reference_step = core.single_step(in_double);
  // Tolerance: each float step rounds its result (u |x|, u = 2^-24) and its increment h/6 (k1 +
  // 2 k2 + 2 k3 + k4) (a few u h |f|, |f| <= (|a| + |x|)/tau = 40, h |f| <= 0.04), and the sine's
  // time term once to float (u |a| / tau in f, u h |a| / tau = 0.02 u in x): under 1.2 u per
  // step with |x|, |y| <= 1. The step contracts errors by 1 - h/tau = 0.98 per step (y's by
  // 0.8, and it follows x), so they add up to at most 1.2 u / 0.02 = 60 u; 64 u = 3.8e-6.
  // The reference's own rounding (double) is 2^-29 of that.
  const double tolerance = 64 * std::ldexp(1.0, -24);
  std::vector<double> x = run.states.front();
  double worst = 0;
  for (std::uint64_t k = 0; k < kKept; ++k) {
    x = reference_step(static_cast<long>(run.first + k), x);
    for (std::size_t i = 0; i < x.size(); ++i) worst = std::max(worst, std::fabs(x[i] - run.states[k + 1][i]));
  }
  EXPECT_LE(worst, tolerance) << "largest difference over the last " << kKept << " steps";
  std::printf("largest difference from the double reference over the last %lu steps: %.3g (tolerance %.3g)\n",
              static_cast<unsigned long>(kKept), worst, tolerance);
  // x follows the sine with the lag's amplitude a / sqrt(1 + (2 pi f tau)^2) = 0.95403: its
  // largest sample over the last second is within a (1 - cos(pi f h)) = 4.9e-6 of it (samples
  // h apart), and the lag's RK4 gain differs from the exact one by O((h / tau)^4) = 1.6e-7.
  double largest = 0;
  for (const auto& s : run.states) largest = std::max(largest, std::fabs(s[0]));
  EXPECT_NEAR(largest, 1 / std::sqrt(1 + std::pow(2 * M_PI * 0.05, 2)), 5e-6 + tolerance);

  // The last steps bit for bit: the reference core's float step (the generated code's
  // operations in float, the time terms in double at n h) from the generated state.
  dualrate::RunOptions in_float = in_double;
  in_float.step = *model.simulation.step;
  in_float.float_time = true;
  const auto float_step = core.single_step_in_float(in_float);
  for (std::uint64_t k = kKept - 3; k < kKept; ++k) {
    const std::vector<double> next = float_step(static_cast<long>(run.first + k), run.states[k]);
    EXPECT_EQ(next, run.states[k + 1]) << "step " << run.first + k;
  }
}

}  // namespace
