// Generated code linked into a host program through dualrate_add_model(): steps run with
// Eigen's heap use forbidden, faults are reported and the hook is called.
#include <gtest/gtest.h>

#include <dualrate/status.hpp>

namespace {
int fault_hook_calls = 0;
}
void count_fault(dualrate::Status) noexcept { ++fault_hook_calls; }
#define DUALRATE_FAULT_HOOK count_fault

#include "blowup.hpp"
#include "pendulum_particle.hpp"
#include "pendulum_particle_float.hpp"

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
  EXPECT_EQ(d.x, last);                       // the failed step did not change the state
  EXPECT_EQ(d.steps, static_cast<std::uint64_t>(steps - 1));
  EXPECT_GT(d.time(blowup::kStep), 0.9);      // x' = x^2 blows up near t = 1
  EXPECT_STREQ(dualrate::to_string(s), "non-finite state");
}

}  // namespace
