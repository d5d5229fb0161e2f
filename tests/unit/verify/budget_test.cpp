// The response-time analysis of budget.hpp on cases worked by hand (at 1 MHz and CPI 1, a
// cycle is a microsecond): fast jobs of 100 cycles plus 10 of interrupt overhead every
// h = 200 us, slow jobs every H = 10 h = 2000 us.
#include <gtest/gtest.h>

#include "verify/budget.hpp"

namespace dualrate {
namespace {

// Slow job of 800 cycles: R = 810 -> 810 + 5*110 = 1360 -> 1580 -> 1690 -> 1800 -> 1800
// (ceil(1800/200) = 9): R = 1800 us <= 2000 us. U = 110/200 + 810/2000 = 0.955.
TEST(Budget, ResponseTimeAnalysisConverges) {
  const Budget b = schedule({100, 90}, JobCost{800, 800}, 200e-6, 10, "part", 1e6, 1.0, 10);
  EXPECT_TRUE(b.schedulable);
  EXPECT_DOUBLE_EQ(b.fast_response, 110e-6);
  EXPECT_DOUBLE_EQ(*b.slow_response, 1800e-6);
  EXPECT_NEAR(b.utilization, 0.955, 1e-12);
  EXPECT_NEAR(b.margin, 0.1, 1e-12);
  EXPECT_TRUE(b.verdict.empty());
  // The smallest clock is the boundary: a hair above it schedules, a hair below does not.
  EXPECT_LT(b.min_cpu_hz, 1e6);
  EXPECT_TRUE(
      schedule({100, 90}, JobCost{800, 800}, 200e-6, 10, "part", b.min_cpu_hz * (1 + 1e-5), 1.0, 10).schedulable);
  EXPECT_FALSE(
      schedule({100, 90}, JobCost{800, 800}, 200e-6, 10, "part", b.min_cpu_hz * (1 - 1e-3), 1.0, 10).schedulable);
}

// Slow job of 1000 cycles: U = 0.55 + 0.505 > 1, the iteration passes H; the slow task is named.
TEST(Budget, OverloadNamesTheSlowTask) {
  const Budget b = schedule({100, 90}, JobCost{1000, 1000}, 200e-6, 10, "part", 1e6, 1.0, 10);
  EXPECT_FALSE(b.schedulable);
  EXPECT_GT(*b.slow_response, 2000e-6);
  EXPECT_NE(b.verdict.find("the slow task"), std::string::npos) << b.verdict;
  EXPECT_GT(b.min_cpu_hz, 1e6);
}

// The same overload on two cores (the slow task alone on core 1): R_slow = 1000 + 10 = 1010 us
// <= 2000 us, R_fast = 110 us; each core's utilization on its own: 110/200 = 0.55 and
// 1010/2000 = 0.505. With 2000 cycles of slow job, core 1 is the one that misses, and its
// smallest clock is where 2010 cycles fit in H: 1.005 MHz.
TEST(Budget, TwoCoresRunTheSlowTaskUnpreempted) {
  const Budget b = schedule({100, 90}, JobCost{1000, 1000}, 200e-6, 10, "part", 1e6, 1.0, 10, 1);
  EXPECT_TRUE(b.schedulable) << b.verdict;
  EXPECT_DOUBLE_EQ(*b.slow_response, 1010e-6);
  EXPECT_DOUBLE_EQ(b.fast_response, 110e-6);
  EXPECT_NEAR(b.fast_core_utilization, 0.55, 1e-12);
  EXPECT_NEAR(b.slow_core_utilization, 0.505, 1e-12);
  EXPECT_NE(b.json().find("\"cores\":[{\"core\":0,\"tasks\":[\"fast\"],\"utilization\":0.55},"
                          "{\"core\":1,\"tasks\":[\"slow\"],\"utilization\":0.505}]"),
            std::string::npos)
      << b.json();
  const Budget late = schedule({100, 90}, JobCost{2000, 2000}, 200e-6, 10, "part", 1e6, 1.0, 10, 1);
  EXPECT_FALSE(late.schedulable);
  EXPECT_NE(late.verdict.find("the slow task needs 2010 cycles per job on core 1"), std::string::npos) << late.verdict;
  EXPECT_NEAR(late.min_cpu_hz, 1.005e6, 1e-5 * 1.005e6);
}

// CPI scales the cycles; a fast job longer than h names the fast task; single-rate models
// (no slow job) are the fast task alone.
TEST(Budget, CyclesPerInstructionAndTheFastTask) {
  const Budget b = schedule({160, 150}, {}, 200e-6, 1, "part", 1e6, 1.25, 10);
  EXPECT_DOUBLE_EQ(b.fast_cycles_max, 200);
  EXPECT_FALSE(b.schedulable);
  EXPECT_NE(b.verdict.find("the fast task needs 210 cycles"), std::string::npos) << b.verdict;
  EXPECT_FALSE(b.slow_response);
  EXPECT_NEAR(b.min_cpu_hz, 1.05e6, 1e-6 * 1.05e6);
}

// Several models' tasks, rate-monotonic (at 1 MHz, CPI 1: cycles are microseconds): a
// dispatcher of 10 every 100, two tasks of equal priority 2 (20 + 5 every 500, 30 + 5 every
// 500) and one of 100 + 10 every 1000 below them.
//   dispatcher: R = 10.
//   task a: 25 + ceil(R/100) 10 + ceil(R/500) 35: 25 -> 70 -> 70 (the equal-priority task
//           counts as interference both ways).
//   task b: 35 + 10 + 25 = 70 -> 70.
//   task c: 110 + ceil(110/100) 10 + 25 + 35 = 190 -> 190.
// U = 0.1 + 0.05 + 0.07 + 0.11 = 0.33; margin: 1 - 190/1000 = 0.81 (c) vs 0.86 (a, b), 0.9.
TEST(Budget, TaskSetResponseTimesByRateMonotonicPriority) {
  const std::vector<PeriodicTask> tasks = {{"dispatcher", 100e-6, 0, 10, 0, 0},
                                           {"a", 500e-6, 2, 20, 5, 0},
                                           {"b", 500e-6, 2, 30, 5, 0},
                                           {"c", 1000e-6, 3, 100, 10, 0}};
  const TaskSetBudget b = schedule_task_set(tasks, "part", 1e6, 1.0);
  ASSERT_EQ(b.tasks.size(), 4u);
  EXPECT_DOUBLE_EQ(b.tasks[0].response, 10e-6);
  EXPECT_DOUBLE_EQ(b.tasks[1].response, 70e-6);
  EXPECT_DOUBLE_EQ(b.tasks[2].response, 70e-6);
  EXPECT_DOUBLE_EQ(b.tasks[3].response, 190e-6);
  EXPECT_NEAR(b.utilization, 0.33, 1e-12);
  EXPECT_NEAR(b.margin, 0.81, 1e-12);
  EXPECT_TRUE(b.schedulable);
  EXPECT_TRUE(b.verdict.empty());
  // Below the smallest clock the first task that misses is named.
  const TaskSetBudget slow = schedule_task_set(tasks, "part", b.min_cpu_hz * (1 - 1e-3), 1.0);
  EXPECT_FALSE(slow.schedulable);
  EXPECT_NE(slow.verdict.find("the task "), std::string::npos) << slow.verdict;
  EXPECT_TRUE(schedule_task_set(tasks, "part", b.min_cpu_hz * (1 + 1e-5), 1.0).schedulable);
}

}  // namespace
}  // namespace dualrate
