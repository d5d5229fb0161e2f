// mrabm4's restart at a step of an input (runtime/include/dualrate/schemes/mrabm4.hpp,
// input_jump.hpp) on models/battery_cell.yaml (h = 1 ms, H = 10 h; the current I declares
// jump: 5 A): the state of charge counts the current exactly across its steps, serial and
// parallel, with the steps at a release, in a macro step and at its last tick, and in float with
// the slow job's compensated sums; a change of exactly the jump is no step, one above it restarts.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "battery_float.hpp"
#include "battery_parallel.hpp"
#include "battery_serial.hpp"

namespace {

struct Serial {
  using Model = battery_serial::Model;
  using Tasks = battery_serial::Tasks;
  static constexpr double kStep = battery_serial::kStep;
};
struct Parallel {
  using Model = battery_parallel::Model;
  using Tasks = battery_parallel::Tasks;
  static constexpr double kStep = battery_parallel::kStep;
};
struct SerialFloat {
  using Model = battery_float::Model;
  using Tasks = battery_float::Tasks;
  static constexpr double kStep = static_cast<double>(battery_float::kStep);
};

constexpr long kTicks = 150000;  // 150 s

// The battery's current without its ripple: 40 A from tick 20000 + shift, -100 A from 80000 +
// shift, 20 A from 120000 + shift.
double current(long n, long shift) {
  if (n >= 120000 + shift) return 20;
  if (n >= 80000 + shift) return -100;
  return n >= 20000 + shift ? 40 : 0;
}

// The largest difference, at any release, between the SOC of the tasks' rows and the exact count
// SOC_0 - sum of h I_n / Q over the ticks before the release.
template <class Form>
double charge_error(long shift) {
  using Model = typename Form::Model;
  const auto tasks = std::make_unique<typename Form::Tasks>(Form::kStep);
  long double counted = 0.9L;
  double worst = 0;
  Eigen::internal::set_is_malloc_allowed(false);
  for (long n = 0; n < kTicks; ++n) {
    typename Model::Input u;
    u << current(n, shift);
    bool release = false;
    EXPECT_EQ(tasks->fast(u, release), dualrate::Status::kOk);
    if (release) {
      EXPECT_EQ(tasks->slow(), dualrate::Status::kOk);
      worst = std::max(worst, std::abs(static_cast<double>(counted) - static_cast<double>(tasks->row().x(0))));
    }
    counted -= static_cast<long double>(static_cast<typename Model::Scalar>(Form::kStep)) *
               static_cast<long double>(current(n, shift)) / static_cast<long double>(Model::Q);
  }
  Eigen::internal::set_is_malloc_allowed(true);
  return worst;
}

// Constant currents: Adams and RK4 integrate I/Q exactly, so what is left is rounding: at most
// one rounding of SOC (2^-53 |SOC| < 1.2e-16) per add, 150,000 RK4 or 15,000 Adams adds: 1.8e-11.
// Without the restart the first step alone leaves about H (40 A) / (2 Q) = 2.8e-6.
constexpr double kRoundingBound = 150000 * 1.2e-16;

template <class Form>
void expect_exact_charge() {
  for (const long shift : {0L, 5L, 9L}) {
    const double error = charge_error<Form>(shift);
    EXPECT_LE(error, kRoundingBound) << "steps " << shift << " ticks after a release";
  }
}

TEST(Mrabm4Restart, CountsTheChargeAcrossStepsSerial) { expect_exact_charge<Serial>(); }

TEST(Mrabm4Restart, CountsTheChargeAcrossStepsParallel) { expect_exact_charge<Parallel>(); }

// In float the slow job adds SOC with a compensated sum (its slow states are the build's
// compensated_states): over the 15,000 macro steps the SOC stays within what a compensated sum
// and the restarts' plain adds leave, against the exact count with the float step h:
//   Kahan's sum of the increments: 2 u |SOC| (u = 2^-24, |SOC| < 1) = 1.2e-7, plus each
//   increment's own rounding, a few u of it (5 u sum |dx|, sum |dx| < 0.2: 6e-8);
//   the start-up and the 3 restarts, 4 R = 40 RK4 ticks each, added plainly: 160 half units
//   in the last place, 160 u / 2 = 4.8e-6.
// Measured 6.0e-7. Plain float sums leave up to 15,000 u / 2 = 4.5e-4: measured 7.4e-5 here with
// the slow job's sums plain.
constexpr double kFloatBound = 2 * 0x1p-24 + 5 * 0x1p-24 * 0.2 + 160 * 0x1p-24 / 2;

TEST(Mrabm4Restart, CompensatesTheChargeInFloat) {
  static_assert(SerialFloat::Model::compensated_states[0], "the SOC is a compensated state");
  static_assert(SerialFloat::Tasks::Kept::RowsAtCompileTime == 16 * 2 + 10 * 2,
                "the kept values end with the slow carries");
  EXPECT_LE(charge_error<SerialFloat>(0), kFloatBound);
}

// A change of exactly the declared 5 A is no step; 5.5 A is, at tick 1003, so the Adams rounds
// resume at the release of ceil(1003 / 10) + 4 = 105 macro steps.
TEST(Mrabm4Restart, StepsAreChangesAboveTheJump) {
  using Model = Serial::Model;
  const auto tasks = std::make_unique<Serial::Tasks>(Serial::kStep);
  const auto run = [&tasks](long from, long to, double before, double after, long at) {
    for (long n = from; n < to; ++n) {
      typename Model::Input u;
      u << (n < at ? before : after);
      bool release = false;
      ASSERT_EQ(tasks->fast(u, release), dualrate::Status::kOk);
      if (release) {
        ASSERT_EQ(tasks->slow(), dualrate::Status::kOk);
      }
    }
  };
  run(0, 1000, 0, 5, 500);
  EXPECT_EQ(tasks->fast_state().adams_from, 40U);
  run(1000, 1010, 5, 10.5, 1003);
  EXPECT_EQ(tasks->fast_state().adams_from, 1050U);
  EXPECT_EQ(Model::input_jumps[0], 5.0);
}

}  // namespace
