// Held inputs in the runtime (dualrate/input_hold.hpp) and in generated code: the polynomial a
// hold forms from the samples, the samples a Data keeps, and models/fan_drive.yaml's generated
// rk4 step (its voltage and load held linearly) in double and float.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "fan_drive_double.hpp"
#include "fan_drive_float.hpp"
#include "pendulum_particle.hpp"

namespace {

// A model's input side alone: three inputs held zero, linearly and quadratically.
struct ThreeInputs {
  using Scalar = double;
  using Time = double;
  static constexpr int kInputs = 3;
  using Input = Eigen::Matrix<Scalar, kInputs, 1>;
  static constexpr std::array<int, kInputs> input_holds{{0, 1, 2}};
};

static_assert(dualrate::HoldsInputs<ThreeInputs>::value);
static_assert(!dualrate::HoldsInputs<pendulum_particle::Model>::value);
// A model without holds keeps nothing more than its state and counters.
static_assert(sizeof(pendulum_particle::Data) == sizeof(dualrate::StepData<pendulum_particle::Model>));

// Each hold reproduces a polynomial input of its degree exactly (h a power of two: the samples,
// their differences and the stage offsets are exact), once it has the samples it needs: the first
// step holds the sample, the second takes the line through two.
TEST(InputHold, EachHoldExtrapolatesItsDegreeExactly) {
  const double h = 0.125;
  const auto u = [](double t) {
    const double v = 1 + 2 * t + 3 * t * t;
    return ThreeInputs::Input(v, v, v);
  };
  dualrate::InputSamples<ThreeInputs> samples;
  for (int n = 0; n < 5; ++n) {
    const double t = n * h;
    const dualrate::HeldInput<ThreeInputs> held = samples.hold(t, h, u(t));
    for (const double s : {0.0, h / 2, h}) {
      const ThreeInputs::Input at = dualrate::input_at(held, t + s);
      EXPECT_EQ(at[0], u(t)[0]) << "zero hold, step " << n;
      const double line = n == 0 ? u(t)[1] : u(t)[1] + s * (u(t)[1] - u(t - h)[1]) / h;
      EXPECT_EQ(at[1], line) << "linear hold, step " << n << ", s = " << s;
      const double quadratic = n < 2 ? line : u(t + s)[2];
      EXPECT_EQ(at[2], quadratic) << "quadratic hold, step " << n << ", s = " << s;
    }
    samples.took(u(t));
  }
}

// The scenario's inputs and their rates at t (fan_drive.yaml's simulation section).
template <class M>
dualrate::HeldInput<M> known_inputs(double t) {
  using S = typename M::Scalar;
  constexpr double pi = 3.14159265358979323846;
  const double w_v = 2 * pi * 8, w_d = 2 * pi * 3;
  dualrate::HeldInput<M> u;
  u.start = t;
  u.value << S(18 + 6 * std::sin(w_v * t)), S(0.02 * std::sin(w_d * t));
  u.rate << S(6 * w_v * std::cos(w_v * t)), S(0.02 * w_d * std::cos(w_d * t));
  u.curvature << S(-6 * w_v * w_v * std::sin(w_v * t) / 2), S(-0.02 * w_d * w_d * std::sin(w_d * t) / 2);
  return u;
}

// omega and I after 0.5 s of generated rk4 steps of the header's h, with the inputs sampled (held
// linearly from the samples) or with their rates known (each step's Taylor polynomial), and each
// state's largest magnitude over the run.
template <class Model>
struct Outcome {
  typename Model::State end, largest;
};
template <class Data, class Model, class Step>
Outcome<Model> run(Step step, bool rates) {
  Data d;
  Outcome<Model> r{Model::State::Zero(), Model::State::Zero()};
  Eigen::internal::set_is_malloc_allowed(false);
  const double h = 1e-4;
  for (long n = 0; n < 5000; ++n) {
    const dualrate::HeldInput<Model> u = known_inputs<Model>(static_cast<double>(n) * h);
    const dualrate::Status s = rates ? step(d, u) : step(d, u.value);
    if (s != dualrate::Status::kOk) break;
    r.largest = r.largest.cwiseMax(d.x.cwiseAbs());
  }
  Eigen::internal::set_is_malloc_allowed(true);
  EXPECT_EQ(d.steps, 5000U);
  r.end = d.x;
  return r;
}

// Held linearly, rk4 at h = 1e-4 ends within 1e-5 (relative to each state's largest magnitude, as
// verify measures) of the same steps with the inputs' rates known, whose error is third order in
// h (the quadratic Taylor polynomial's); the reference core's tests
// (tests/unit/reference/input_hold_test.cpp) compare both with the high-accuracy solution.
TEST(InputHold, GeneratedRk4HeldLinearly) {
  using M = fan_drive_double::Model;
  const auto step = [](auto& d, const auto& u) { return fan_drive_double::step(d, u); };
  const Outcome<M> sampled = run<fan_drive_double::Data, M>(step, false);
  const Outcome<M> known = run<fan_drive_double::Data, M>(step, true);
  for (int k = 0; k < M::kStates; ++k)
    EXPECT_NEAR(sampled.end[k], known.end[k], 1e-5 * std::max(1.0, known.largest[k])) << M::state_names[k];
  EXPECT_GT(sampled.end[0], 100.0);  // spinning
}

// In float the same, to float's rounding over 5000 steps (2^-24 per step's increment, at most
// 5000 * 6e-8 of the state): within 1e-3 relative.
TEST(InputHold, GeneratedFloatRk4FollowsDouble) {
  const auto step_d = [](auto& d, const auto& u) { return fan_drive_double::step(d, u); };
  const auto step_f = [](auto& d, const auto& u) { return fan_drive_float::step(d, u); };
  const auto x_d = run<fan_drive_double::Data, fan_drive_double::Model>(step_d, false).end;
  const auto x_f = run<fan_drive_float::Data, fan_drive_float::Model>(step_f, false).end;
  EXPECT_NEAR(static_cast<double>(x_f[0]), x_d[0], 1e-3 * 300);
  EXPECT_NEAR(static_cast<double>(x_f[1]), x_d[1], 1e-3 * 3);
}

// A step that fails (a non-finite input) keeps the state and the samples: the next step
// extrapolates from the samples before it.
TEST(InputHold, FailedStepKeepsTheSamples) {
  fan_drive_double::Data d;
  const fan_drive_double::Model::Input u(18, 0);
  ASSERT_EQ(fan_drive_double::step(d, u), dualrate::Status::kOk);
  const auto kept = d.samples;
  const fan_drive_double::Model::State x = d.x;
  EXPECT_NE(fan_drive_double::step(d, fan_drive_double::Model::Input(std::nan(""), 0)), dualrate::Status::kOk);
  EXPECT_EQ(d.x, x);
  EXPECT_EQ(d.samples.count, kept.count);
  EXPECT_EQ(d.samples.previous, kept.previous);
  EXPECT_EQ(d.steps, 1U);
}

}  // namespace
