// Calibration of generated code (dualrate/calibration.hpp, docs/calibration.md) on the model of
// tests/models/calibration/motor.yaml, with rk4 and sp_ll: writes to `calibration` and a commit
// are checked and computed by calibrate() and taken whole by the next step; the trajectory then
// equals that of the same model generated with the new values fixed; refused writes, and writes
// not committed, change nothing; a reset sets the values back to the applied ones.
// Every calibrate() and step runs with Eigen's heap forbidden.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "motor.hpp"
#include "motor_fixed.hpp"
#include "motor_fixed_sp_ll.hpp"
#include "motor_r16.hpp"
#include "motor_r16_sp_ll.hpp"
#include "motor_sp_ll.hpp"

namespace {

using dualrate::calibration::Result;
using dualrate::calibration::Status;

// Steps each of a and b `steps` times with its model's scenario inputs.
template <class A, class B>
void step_both(typename A::Data& a, typename B::Data& b, int steps) {
  for (int i = 0; i < steps; ++i) {
    Eigen::internal::set_is_malloc_allowed(false);
    const dualrate::Status sa = A::step(a, A::Model::scenario_inputs(a.time(A::kStep)));
    const dualrate::Status sb = B::step(b, B::Model::scenario_inputs(b.time(B::kStep)));
    Eigen::internal::set_is_malloc_allowed(true);
    ASSERT_EQ(sa, dualrate::Status::kOk);
    ASSERT_EQ(sb, dualrate::Status::kOk);
  }
}

Status calibrate_rk4() {
  Eigen::internal::set_is_malloc_allowed(false);
  const Status s = motor::calibrate();
  Eigen::internal::set_is_malloc_allowed(true);
  return s;
}

// What a calibration tool does once it has written a set's values: a new commit number.
Status commit_rk4() {
  ++motor::calibration_requests.commit;
  return calibrate_rk4();
}

struct RK4 {
  using Data = motor::Data;
  using Model = motor::Model;
  static constexpr Model::Scalar kStep = motor::kStep;
  static dualrate::Status step(Data& d, const Model::Input& u) { return motor::step(d, u); }
};
struct Fixed {
  using Data = motor_fixed::Data;
  using Model = motor_fixed::Model;
  static constexpr Model::Scalar kStep = motor_fixed::kStep;
  static dualrate::Status step(Data& d, const Model::Input& u) { return motor_fixed::step(d, u); }
};
struct R16 {
  using Data = motor_r16::Data;
  using Model = motor_r16::Model;
  static constexpr Model::Scalar kStep = motor_r16::kStep;
  static dualrate::Status step(Data& d, const Model::Input& u) { return motor_r16::step(d, u); }
};

// rk4 reads the calibrated parameters where the fixed code has literals: the same double
// operations, so the trajectories are equal bit for bit, before and after the write.
TEST(Calibration, WriteTakesEffectAtTheNextStepBitForBit) {
  motor::Data d;
  motor_fixed::Data fixed;
  step_both<RK4, Fixed>(d, fixed, 150);
  ASSERT_EQ(d.x, fixed.x);

  motor::calibration.R = 1.6;
  const Status s = commit_rk4();
  EXPECT_EQ(s.result, Result::kApplied);
  EXPECT_EQ(motor::calibration_handled.commit, motor::calibration_requests.commit);
  EXPECT_EQ(motor::Model::R, 1.0) << "the step takes the new set, not calibrate()";
  motor_r16::Data r16;
  r16.x = d.x;
  r16.steps = d.steps;
  step_both<RK4, R16>(d, r16, 150);
  EXPECT_EQ(motor::Model::R, 1.6);
  EXPECT_EQ(motor::Model::tau, 1.0e-4 / 1.6);
  EXPECT_EQ(d.x, r16.x);

  // Outside [0.5, 2]: refused, named, and the step goes on with R = 1.6.
  motor::calibration.R = 3.0;
  const Status refused = commit_rk4();
  EXPECT_EQ(refused.result, Result::kAboveMax);
  EXPECT_EQ(refused.value, 0);
  EXPECT_STREQ(motor::status_value_names[refused.value], "R");
  EXPECT_EQ(motor::calibration_status.result, Result::kAboveMax);
  EXPECT_EQ(calibrate_rk4().result, Result::kAboveMax) << "no new commit: nothing is computed again";
  step_both<RK4, R16>(d, r16, 50);
  EXPECT_EQ(d.x, r16.x);

  // A table value below its min, then a NaN: refused, each by its index (R, Kt, friction[0..3]).
  motor::calibration.R = 1.6;
  motor::calibration.friction[2] = -0.5;
  EXPECT_EQ(commit_rk4().result, Result::kBelowMin);
  EXPECT_EQ(motor::calibration_status.value, 4);
  EXPECT_STREQ(motor::status_value_names[4], "friction[2]");
  motor::calibration.friction[2] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(commit_rk4().result, Result::kNotFinite);
  motor::calibration.friction[2] = 0.13;
  EXPECT_EQ(commit_rk4().result, Result::kApplied);
  step_both<RK4, R16>(d, r16, 20);
  EXPECT_EQ(d.x, r16.x);

  // A second commit before the step took the first: calibrate() waits for the step, and the
  // commit stays unhandled until then.
  motor::calibration.Kt = 0.06;
  EXPECT_EQ(commit_rk4().result, Result::kApplied);
  motor::calibration.Kt = 0.07;
  EXPECT_EQ(commit_rk4().result, Result::kPending);
  EXPECT_NE(motor::calibration_handled.commit, motor::calibration_requests.commit);
  step_both<RK4, R16>(d, r16, 1);
  EXPECT_EQ(motor::Model::Kt, 0.06);
  EXPECT_EQ(calibrate_rk4().result, Result::kApplied);
  EXPECT_EQ(motor::calibration_handled.commit, motor::calibration_requests.commit);
  step_both<RK4, R16>(d, r16, 1);
  EXPECT_EQ(motor::Model::Kt, 0.07);
  EXPECT_EQ(motor::Model::Ke, 0.07) << "Ke: {value: Kt} follows Kt";
}

// Writes commit whole: a map written in parts and two coupled gains are taken together at the
// commit, never in part; a refused set stays in the working values until a reset sets them back
// to the active ones, which the tool can read (active_constants.values).
TEST(Calibration, WritesCommitWholeAndAResetRestoresTheActiveValues) {
  motor::Data d;
  motor::calibration = motor::calibration_applied;
  ASSERT_EQ(commit_rk4().result, Result::kApplied);
  ASSERT_EQ(motor::step(d, motor::Model::scenario_inputs(0)), dualrate::Status::kOk);
  const motor::Calibration before = motor::active_constants.values;

  // Without a commit, writes change nothing, however many calibrate() calls and steps follow.
  motor::calibration.Kt = 0.05;
  motor::calibration.friction[0] = 0.2;
  motor::calibration.friction[1] = 0.25;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(calibrate_rk4().result, Result::kApplied);
    ASSERT_EQ(motor::step(d, motor::Model::scenario_inputs(0)), dualrate::Status::kOk);
  }
  EXPECT_TRUE(dualrate::calibration::same(motor::active_constants.values, before));
  EXPECT_EQ(motor::Model::Kt, before.Kt);

  // The rest of the map, then the commit: all of it in the step after.
  motor::calibration.friction[2] = 0.3;
  motor::calibration.friction[3] = 0.35;
  ASSERT_EQ(commit_rk4().result, Result::kApplied);
  ASSERT_EQ(motor::step(d, motor::Model::scenario_inputs(0)), dualrate::Status::kOk);
  EXPECT_TRUE(dualrate::calibration::same(motor::active_constants.values, motor::calibration));
  EXPECT_EQ(motor::Model::Kt, 0.05);
  EXPECT_EQ(motor::Model::friction_values_[3], 0.35);

  // A refused set stays in the working values, the active ones unchanged; a reset sets the
  // working values back to them, and the next commit is applied.
  const motor::Calibration active = motor::active_constants.values;
  motor::calibration.R = 2.5;
  motor::calibration.Kt = 0.06;
  EXPECT_EQ(commit_rk4().result, Result::kAboveMax);
  EXPECT_EQ(motor::calibration.R, 2.5);
  ++motor::calibration_requests.reset;
  EXPECT_EQ(calibrate_rk4().result, Result::kAboveMax) << "a reset alone commits nothing";
  EXPECT_EQ(motor::calibration_handled.reset, motor::calibration_requests.reset);
  EXPECT_TRUE(dualrate::calibration::same(motor::calibration, active));
  motor::calibration.Kt = 0.06;
  EXPECT_EQ(commit_rk4().result, Result::kApplied);
  ASSERT_EQ(motor::step(d, motor::Model::scenario_inputs(0)), dualrate::Status::kOk);
  EXPECT_EQ(motor::Model::Kt, 0.06);
  EXPECT_EQ(motor::Model::R, active.R);
}

// sp_ll's matrices recomputed by recalibrate() (the runtime's expm, in double) against the
// generator's (Eigen's expm at generation) for R = 1.6: each a 1 x 1 here, the Padé
// approximant of degree 13 without squaring (||h g_z|| <= 2) is accurate to a few units of
// double rounding u = 2^-53 in each, and the generator's is as well; 64 u covers both with
// the evaluation of the entries of g_z, g_x, f_z (a product and a division each).
TEST(Calibration, SpLlConstantsRecomputedOnTheTarget) {
  motor_sp_ll::calibration.R = 1.6;
  ++motor_sp_ll::calibration_requests.commit;
  Eigen::internal::set_is_malloc_allowed(false);
  const Status s = motor_sp_ll::calibrate();
  motor_sp_ll::Data d;
  const dualrate::Status stepped = motor_sp_ll::step(d, motor_sp_ll::Model::scenario_inputs(0));
  Eigen::internal::set_is_malloc_allowed(true);
  ASSERT_EQ(s.result, Result::kApplied);
  ASSERT_EQ(stepped, dualrate::Status::kOk);
  const auto& c = motor_sp_ll::active_constants;
  using R16Constants = motor_r16_sp_ll::SchemeConstants;
  const motor_r16_sp_ll::SchemeConstants::Schedule none{};
  const Eigen::Matrix<double, 1, 1> one = Eigen::Matrix<double, 1, 1>::Ones();
  const Eigen::Matrix<double, 1, 1> expected[] = {R16Constants::gz_inv(none, one), R16Constants::fz(none, one),
                                                  R16Constants::a(none, one),      R16Constants::p1(none, one),
                                                  R16Constants::p2(none, one),     R16Constants::q1(none, one),
                                                  R16Constants::q2(none, one)};
  const double got[] = {c.gz_inv[0], c.fz[0], c.a[0], c.p1[0], c.p2[0], c.q1[0], c.q2[0]};
  const double u = std::ldexp(1.0, -53);
  for (int i = 0; i < 7; ++i) EXPECT_NEAR(got[i], expected[i][0], 64 * u * std::fabs(expected[i][0])) << i;
  EXPECT_EQ(motor_sp_ll::Model::R, 1.6);
}

// sp_ll's exponentials take the plan fixed over the whole range (phi_blocks<m, s>): a write at
// each corner of the box of R and Kt is computable and applied.
TEST(Calibration, SpLlEveryCornerOfTheRangeIsApplied) {
  motor_sp_ll::Data d;
  for (const double r : {0.5, 2.0})
    for (const double kt : {0.03, 0.08}) {
      motor_sp_ll::calibration.R = r;
      motor_sp_ll::calibration.Kt = kt;
      ++motor_sp_ll::calibration_requests.commit;
      Eigen::internal::set_is_malloc_allowed(false);
      const Status s = motor_sp_ll::calibrate();
      const dualrate::Status stepped = motor_sp_ll::step(d, motor_sp_ll::Model::scenario_inputs(0));
      Eigen::internal::set_is_malloc_allowed(true);
      EXPECT_EQ(s.result, Result::kApplied) << "R = " << r << ", Kt = " << kt;
      EXPECT_EQ(stepped, dualrate::Status::kOk);
      EXPECT_EQ(motor_sp_ll::Model::R, r);
    }
  motor_sp_ll::calibration.Kt = 0.05;
}

// Before any write, sp_ll's calibrated code and the fixed code hold the same literals: the
// same trajectory bit for bit.
TEST(Calibration, SpLlUnwrittenEqualsFixed) {
  motor_sp_ll::calibration.R = 1.0;
  ++motor_sp_ll::calibration_requests.commit;
  Eigen::internal::set_is_malloc_allowed(false);
  EXPECT_EQ(motor_sp_ll::calibrate().result, Result::kApplied);
  Eigen::internal::set_is_malloc_allowed(true);
  motor_sp_ll::Data d;
  motor_fixed_sp_ll::Data fixed;
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(motor_sp_ll::step(d, motor_sp_ll::Model::scenario_inputs(d.time(motor_sp_ll::kStep))),
              dualrate::Status::kOk);
    const auto u = motor_fixed_sp_ll::Model::scenario_inputs(fixed.time(motor_fixed_sp_ll::kStep));
    ASSERT_EQ(motor_fixed_sp_ll::step(fixed, u), dualrate::Status::kOk);
  }
  // The recomputed set at R = 1 is the runtime's expm of the same matrices: equal to rounding
  // (64 u as above) per step, which the stable fast mode does not accumulate beyond its sum.
  EXPECT_NEAR(d.x[0], fixed.x[0], 1e-12 * std::fabs(fixed.x[0]));
  EXPECT_NEAR(d.x[1], fixed.x[1], 1e-12 * std::fabs(fixed.x[1]));
}

}  // namespace
