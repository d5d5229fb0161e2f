// The response-time analysis of budget.hpp on cases worked by hand (at 1 MHz and CPI 1, a
// cycle is a microsecond): fast jobs of 100 cycles plus 10 of interrupt overhead every
// h = 200 us, slow jobs every H = 10 h = 2000 us.
#include <gtest/gtest.h>

#include "budget.hpp"

namespace dualrate {
namespace {

// Slow job of 800 cycles: R = 810 -> 810 + 5*110 = 1360 -> 1580 -> 1690 -> 1800 -> 1800
// (ceil(1800/200) = 9): R = 1800 us <= 2000 us. U = 110/200 + 810/2000 = 0.955.
TEST(Budget, ResponseTimeAnalysisConverges) {
  const Budget b = schedule({100, 90}, {800, 800}, 200e-6, 10, "part", 1e6, 1.0, 10);
  EXPECT_TRUE(b.schedulable);
  EXPECT_DOUBLE_EQ(b.fast_response, 110e-6);
  EXPECT_DOUBLE_EQ(b.slow_response, 1800e-6);
  EXPECT_NEAR(b.utilization, 0.955, 1e-12);
  EXPECT_NEAR(b.margin, 0.1, 1e-12);
  EXPECT_TRUE(b.verdict.empty());
  // The smallest clock is the boundary: a hair above it schedules, a hair below does not.
  EXPECT_LT(b.min_cpu_hz, 1e6);
  EXPECT_TRUE(schedule({100, 90}, {800, 800}, 200e-6, 10, "part", b.min_cpu_hz * (1 + 1e-5), 1.0, 10).schedulable);
  EXPECT_FALSE(schedule({100, 90}, {800, 800}, 200e-6, 10, "part", b.min_cpu_hz * (1 - 1e-3), 1.0, 10).schedulable);
}

// Slow job of 1000 cycles: U = 0.55 + 0.505 > 1, the iteration passes H; the slow task is named.
TEST(Budget, OverloadNamesTheSlowTask) {
  const Budget b = schedule({100, 90}, {1000, 1000}, 200e-6, 10, "part", 1e6, 1.0, 10);
  EXPECT_FALSE(b.schedulable);
  EXPECT_GT(b.slow_response, 2000e-6);
  EXPECT_NE(b.verdict.find("the slow task"), std::string::npos) << b.verdict;
  EXPECT_GT(b.min_cpu_hz, 1e6);
}

// CPI scales the cycles; a fast job longer than h names the fast task; single-rate models
// (no slow job) are the fast task alone.
TEST(Budget, CyclesPerInstructionAndTheFastTask) {
  const Budget b = schedule({160, 150}, {}, 200e-6, 1, "part", 1e6, 1.25, 10);
  EXPECT_DOUBLE_EQ(b.fast_cycles_max, 200);
  EXPECT_FALSE(b.schedulable);
  EXPECT_NE(b.verdict.find("the fast task needs 210 cycles"), std::string::npos) << b.verdict;
  EXPECT_LT(b.slow_response, 0);
  EXPECT_NEAR(b.min_cpu_hz, 1.05e6, 1e-6 * 1.05e6);
}

}  // namespace
}  // namespace dualrate
