// Generated code linked into a host program through dualrate_add_model(): steps run with
// Eigen's heap use forbidden, faults are reported and the hook is called.
#include <gtest/gtest.h>

#include <dualrate/mass.hpp>
#include <dualrate/status.hpp>

namespace {
int fault_hook_calls = 0;
}
void count_fault(dualrate::Status) noexcept { ++fault_hook_calls; }
#define DUALRATE_FAULT_HOOK count_fault

#include "blowup.hpp"
#include "pendulum_particle.hpp"
#include "pendulum_particle_float.hpp"
#include "pendulum_sp_ll.hpp"
#include "adaptive_parasitic.hpp"
#include "quarter_car.hpp"

namespace {

TEST(Runtime, PendulumStepsWithoutHeapInDoubleAndFloat) {
  pendulum_particle::Data d;
  pendulum_particle_float::Data f;
  const pendulum_particle::Model::Input u = pendulum_particle::Model::default_inputs();
  const pendulum_particle_float::Model::Input uf = pendulum_particle_float::Model::default_inputs();
  Eigen::internal::set_is_malloc_allowed(false);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(pendulum_particle::step(d, u), dualrate::Status::kOk);
    ASSERT_EQ(pendulum_particle_float::step(f, uf), dualrate::Status::kOk);
  }
  Eigen::internal::set_is_malloc_allowed(true);
  EXPECT_EQ(d.steps, 1000u);
  EXPECT_DOUBLE_EQ(d.time(pendulum_particle::kStep), 1000 * pendulum_particle::kStep);
  // float and double runs of the same model stay close (rounding only, short run)
  for (int i = 0; i < pendulum_particle::Model::kStates; ++i) EXPECT_NEAR(d.x[i], f.x[i], 1e-3);
}

// sp_ll in float at h = 0.005 over 10 s: no heap, no fault, and the energy (eq. 68) of the
// float run stays within 1e-3 relative of its initial value, the bound the double run keeps
// (tests/unit/schemes/sp_ll_test.cpp).
TEST(Runtime, SpLlStepsInFloatWithoutHeap) {
  pendulum_sp_ll::Data d;
  const pendulum_sp_ll::Model::Input u;
  pendulum_sp_ll::Model::Output y0, y;
  pendulum_sp_ll::Model::outputs(0, d.x, u, y0);
  Eigen::internal::set_is_malloc_allowed(false);
  for (int i = 0; i < 2000; ++i) ASSERT_EQ(pendulum_sp_ll::step(d, u), dualrate::Status::kOk);
  Eigen::internal::set_is_malloc_allowed(true);
  pendulum_sp_ll::Model::outputs(d.time(pendulum_sp_ll::kStep), d.x, u, y);
  EXPECT_LT(std::fabs(y[0] - y0[0]), 1e-3f * std::fabs(y0[0]));
}

// prk25 in float at h = 0.04 (Heun is unstable beyond 0.0208 s on this model) over the
// model's 3 s kerb scenario: no heap, no fault, and both masses settle on the 5 cm kerb
// (the wheel hop decays within 0.3 s, the body bounce within 3 s: 1 cm is far above the
// scheme's error at this step and far below a growing mode's).
TEST(Runtime, Prk25StepsInFloatWithoutHeap) {
  quarter_car::Data d;
  Eigen::internal::set_is_malloc_allowed(false);
  for (int i = 0; i < 75; ++i)
    ASSERT_EQ(quarter_car::step(d, quarter_car::Model::scenario_inputs(d.time(quarter_car::kStep))),
              dualrate::Status::kOk);
  Eigen::internal::set_is_malloc_allowed(true);
  EXPECT_NEAR(d.x[0], 0.05f, 0.01f);
  EXPECT_NEAR(d.x[2], 0.05f, 0.01f);
}

// smfe in float at D = 0.05 (forward Euler's limit on this model is 0.0203 s) over the 10 s
// scenario: no heap, no fault, and the adaptive gain settles at the high-accuracy solution's
// k_inf = 2.1264 up to SMFE's first-order error in D (the double run ends at 2.1389).
TEST(Runtime, SmfeStepsInFloatWithoutHeap) {
  adaptive_parasitic::Data d;
  Eigen::internal::set_is_malloc_allowed(false);
  for (int i = 0; i < 200; ++i)
    ASSERT_EQ(adaptive_parasitic::step(d, adaptive_parasitic::Model::default_inputs()), dualrate::Status::kOk);
  Eigen::internal::set_is_malloc_allowed(true);
  EXPECT_NEAR(d.x[1], 2.1264f, 0.02f);
}

TEST(Runtime, NonFiniteStateIsReportedAndThePreviousStateKept) {
  blowup::Data d;
  const blowup::Model::Input u;
  dualrate::Status s = dualrate::Status::kOk;
  blowup::Model::State last;
  int steps = 0;
  for (; steps < 1000 && s == dualrate::Status::kOk; ++steps) {
    last = d.x;
    s = blowup::step(d, u);
  }
  ASSERT_EQ(s, dualrate::Status::kNonFiniteState);
  EXPECT_EQ(fault_hook_calls, 1);
  EXPECT_TRUE(d.x.allFinite());
  EXPECT_EQ(d.x, last);  // the failed step did not change the state
  EXPECT_EQ(d.steps, static_cast<std::uint64_t>(steps - 1));
  EXPECT_GT(d.time(blowup::kStep), 0.9);  // x' = x^2 blows up near t = 1
  EXPECT_STREQ(dualrate::to_string(s), "non-finite state");
}

// dualrate::solve_mass on a 3x3 SPD matrix against the exact solution: M x = f with x chosen,
// f = M x computed exactly in integers; LLT's backward error is a few ulps times cond(M)
// (here 10), so 1e-14 in double and 1e-5 in float (float epsilon 1.2e-7 times 10 times
// a safety factor of 8). No heap.
TEST(Runtime, MassSolveIsCholeskyWithoutHeap) {
  Eigen::Matrix3d m;
  m << 4, 1, 0, 1, 3, 1, 0, 1, 2;
  const Eigen::Vector3d x(1, -2, 3);
  const Eigen::Vector3d f = m * x;
  Eigen::internal::set_is_malloc_allowed(false);
  const Eigen::Vector3d a = dualrate::solve_mass(m, f);
  const Eigen::Vector3f b = dualrate::solve_mass(Eigen::Matrix3f(m.cast<float>()), Eigen::Vector3f(f.cast<float>()));
  Eigen::internal::set_is_malloc_allowed(true);
  EXPECT_LT((a - x).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_LT((b.cast<double>() - x).cwiseAbs().maxCoeff(), 1e-5);
}

// A mass matrix that is not positive definite at some q gives NaN accelerations, which the
// schemes report as a non-finite state instead of integrating garbage.
TEST(Runtime, MassSolveOfAnIndefiniteMatrixIsNotFinite) {
  Eigen::Matrix2d m;
  m << 1, 2, 2, 1;  // eigenvalues 3 and -1
  EXPECT_FALSE(dualrate::solve_mass(m, Eigen::Vector2d(1, 1)).allFinite());
}

}  // namespace
