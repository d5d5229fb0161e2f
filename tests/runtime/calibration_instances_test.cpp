// Two instances of one calibrated model (generate --instances left,right, docs/calibration.md):
// each has its own types, active constants and hand-over, so that instances stepped in two
// tasks never read a set the other is replacing. The model is tests/models/calibration/motor.yaml
// with sp_ll, whose step reads recomputed matrices as well as parameters (motor_sp_ll is the same
// model generated as one instance), and models/vehicle_driveline.yaml as dual-rate tasks
// (mrabm4_parallel), whose instances take a set at their own releases.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <type_traits>

#include "driveline_pair.hpp"
#include "motor_pair.hpp"
#include "motor_sp_ll.hpp"

namespace {

using dualrate::calibration::Result;
using dualrate::calibration::Status;
namespace left = motor_pair::left;
namespace right = motor_pair::right;

static_assert(!std::is_same_v<left::Data, right::Data>, "one instance's Data cannot be stepped as the other's");
static_assert(!std::is_same_v<left::Model, right::Model>);

template <class Data, class Step>
void step_with_scenario(Data& d, Step step) {
  Eigen::internal::set_is_malloc_allowed(false);
  const dualrate::Status s = step(d, motor_sp_ll::Model::scenario_inputs(d.time(motor_sp_ll::kStep)));
  Eigen::internal::set_is_malloc_allowed(true);
  ASSERT_EQ(s, dualrate::Status::kOk);
}

Status commit_pair() {
  ++motor_pair::calibration_requests.commit;
  Eigen::internal::set_is_malloc_allowed(false);
  const Status s = motor_pair::calibrate();
  Eigen::internal::set_is_malloc_allowed(true);
  return s;
}

// Each instance follows a commit from its own next step, bit for bit as the one instance of
// motor_sp_ll does (the same code on other constants); a set is computed only once both took
// the last one.
TEST(CalibrationInstances, EachTakesTheSetAtItsOwnStep) {
  left::Data l;
  right::Data r;
  motor_sp_ll::Data one;
  for (int i = 0; i < 40; ++i) {
    step_with_scenario(l, left::step);
    step_with_scenario(r, right::step);
    step_with_scenario(one, motor_sp_ll::step);
  }
  ASSERT_EQ(l.x, one.x);
  ASSERT_EQ(r.x, one.x);

  motor_pair::calibration.R = 1.6;
  ASSERT_EQ(commit_pair().result, Result::kApplied);
  motor_sp_ll::calibration.R = 1.6;
  ++motor_sp_ll::calibration_requests.commit;
  ASSERT_EQ(motor_sp_ll::calibrate().result, Result::kApplied);

  step_with_scenario(l, left::step);
  EXPECT_EQ(left::active_constants.values.R, 1.6);
  EXPECT_EQ(right::active_constants.values.R, 1.0) << "right has not stepped since the commit";
  // Right still holds its computed set: the next commit waits, and is not marked handled.
  motor_pair::calibration.Kt = 0.07;
  const std::uint32_t handled = motor_pair::calibration_handled.commit;
  EXPECT_EQ(commit_pair().result, Result::kPending);
  EXPECT_EQ(motor_pair::calibration_handled.commit, handled);

  step_with_scenario(r, right::step);
  step_with_scenario(one, motor_sp_ll::step);
  EXPECT_EQ(right::active_constants.values.R, 1.6);
  EXPECT_EQ(l.x, one.x);
  EXPECT_EQ(r.x, one.x);
  EXPECT_EQ(motor_pair::calibrate().result, Result::kApplied) << "the waiting commit, once both took the last";
  EXPECT_EQ(left::active_constants.values.Kt, 0.05) << "taken at left's next step";
  step_with_scenario(l, left::step);
  EXPECT_EQ(left::active_constants.values.Kt, 0.07);

  // The model's values again, taken by both: no set left waiting for another test.
  motor_pair::calibration = {1.0, 0.05, {0.08, 0.1, 0.13, 0.2}};
  step_with_scenario(r, right::step);
  EXPECT_EQ(commit_pair().result, Result::kApplied);
  step_with_scenario(l, left::step);
  step_with_scenario(r, right::step);
  motor_sp_ll::calibration.R = 1.0;
  ++motor_sp_ll::calibration_requests.commit;
  EXPECT_EQ(motor_sp_ll::calibrate().result, Result::kApplied);
  step_with_scenario(one, motor_sp_ll::step);
}

// Whether `active` is, byte for byte, one of the sets.
template <std::size_t N>
bool one_of(const motor_pair::Constants& active, const motor_pair::Constants (&sets)[N]) {
  for (const motor_pair::Constants& set : sets)
    if (std::memcmp(&active, &set, sizeof set) == 0) return true;
  return false;
}

// The instances stepped by two threads (two tasks, on two cores) while the main thread commits
// two sets in turn: after every step, each instance's active constants are whole: equal to one
// set recalibrate() computed, never a mix of two; each instance sees every set handed to it.
TEST(CalibrationInstances, TwoTasksEachReadAWholeSet) {
  const motor_pair::Calibration values[2] = {{0.6, 0.035, {0.0, 0.3, 0.4, 0.9}}, {1.9, 0.075, {0.2, 0.2, 0.5, 1.0}}};
  motor_pair::Constants sets[3] = {left::active_constants, {}, {}};
  ASSERT_EQ(std::memcmp(&left::active_constants, &right::active_constants, sizeof sets[0]), 0);
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(motor_pair::recalibrate(values[i], sets[i + 1]).applied());

  constexpr int kCommits = 200;
  std::atomic<bool> stop{false};
  int changes[2] = {0, 0};
  bool whole[2] = {true, true};
  const auto run = [&](auto step, const motor_pair::Constants& active, auto data, int& n, bool& ok) {
    motor_pair::Constants seen = active;
    while (!stop.load(std::memory_order_relaxed)) {
      if (step(data, motor_sp_ll::Model::scenario_inputs(data.time(motor_sp_ll::kStep))) != dualrate::Status::kOk)
        ok = false;
      if (!one_of(active, sets)) ok = false;
      if (std::memcmp(&seen, &active, sizeof seen) != 0) {
        ++n;
        seen = active;
      }
    }
  };
  std::thread a(run, left::step, std::cref(left::active_constants), left::Data{}, std::ref(changes[0]),
                std::ref(whole[0]));
  std::thread b(run, right::step, std::cref(right::active_constants), right::Data{}, std::ref(changes[1]),
                std::ref(whole[1]));
  int applied = 0;
  for (int k = 0; k < kCommits; ++k) {
    motor_pair::calibration = values[k % 2];
    ++motor_pair::calibration_requests.commit;
    Status s = motor_pair::calibrate();
    while (s.result == Result::kPending) {
      std::this_thread::yield();
      s = motor_pair::calibrate();
    }
    applied += s.applied();
  }
  // The last set, once both instances took it.
  while (!left::constants_handoff.spare() || !right::constants_handoff.spare()) std::this_thread::yield();
  stop = true;
  a.join();
  b.join();
  EXPECT_EQ(applied, kCommits);
  EXPECT_TRUE(whole[0]) << "left read a mixed set, or its step failed";
  EXPECT_TRUE(whole[1]) << "right read a mixed set, or its step failed";
  // Consecutive commits alternate the sets and each is taken before the next is computed.
  EXPECT_EQ(changes[0], kCommits);
  EXPECT_EQ(changes[1], kCommits);
  EXPECT_EQ(std::memcmp(&left::active_constants, &sets[2], sizeof sets[2]), 0);
}

// One tick of an instance's tasks, run one after the other (the sequential executive).
template <class Tasks, class Fast, class Slow>
void tick(Tasks& tasks, Fast fast_task, Slow slow_task) {
  bool release = false;
  ASSERT_EQ(fast_task(tasks, driveline_pair::front::Model::default_inputs(), release), dualrate::Status::kOk);
  if (release) {
    ASSERT_EQ(slow_task(tasks), dualrate::Status::kOk);
  }
}

TEST(CalibrationInstances, DualRateTasksTakeTheSetAtTheirOwnRelease) {
  namespace front = driveline_pair::front;
  namespace rear = driveline_pair::rear;
  front::Tasks f(front::kStep);
  rear::Tasks r(rear::kStep);
  const double k_p = driveline_pair::calibration.k_p;
  driveline_pair::calibration.k_p = 0.1;
  ++driveline_pair::calibration_requests.commit;
  ASSERT_EQ(driveline_pair::calibrate().result, Result::kApplied);
  tick(f, front::fast_task, front::slow_task);  // tick 0, a release
  EXPECT_EQ(front::active_constants.values.k_p, 0.1);
  EXPECT_EQ(rear::active_constants.values.k_p, k_p);

  driveline_pair::calibration.k_i = 0.02;
  ++driveline_pair::calibration_requests.commit;
  EXPECT_EQ(driveline_pair::calibrate().result, Result::kPending) << "rear has not taken the last set";
  tick(r, rear::fast_task, rear::slow_task);
  EXPECT_EQ(rear::active_constants.values.k_p, 0.1);
  ASSERT_EQ(driveline_pair::calibrate().result, Result::kApplied);
  // Not at ticks 1 to kRatio - 1, which release no slow job: at tick kRatio.
  for (int n = 1; n < front::kRatio; ++n) tick(f, front::fast_task, front::slow_task);
  EXPECT_NE(front::active_constants.values.k_i, 0.02);
  tick(f, front::fast_task, front::slow_task);
  EXPECT_EQ(front::active_constants.values.k_i, 0.02);
  // The layout `dualrate a2l --instance` reads: the object's size, and its fast task's state.
  EXPECT_EQ(front::tasks_layout[0], sizeof f);
  EXPECT_EQ(reinterpret_cast<const char*>(&f) + front::tasks_layout[1],
            reinterpret_cast<const char*>(f.fast_state().x.data()));
}

}  // namespace
