// Compensated sums (dualrate/compensated_sum.hpp): a state of charge counted by rk4 in float
// over 600,000 steps of 1 ms keeps its sum with its carry, and loses it without.
#include <gtest/gtest.h>

#include <cmath>

#include <dualrate/runtime.hpp>

namespace {

// SOC' = -I / Q at a constant I = 40 A, Q = 72000 C, from SOC = 0.9; `Compensated` says
// whether it declares the state compensated.
template <bool Compensated>
struct Charge {
  using Scalar = float;
  using Time = double;
  static constexpr int kSlow = 1, kFast = 0, kInputs = 1, kOutputs = 0;
  static constexpr int kStates = kSlow + kFast;
  using State = Eigen::Matrix<Scalar, kStates, 1>;
  using Input = Eigen::Matrix<Scalar, kInputs, 1>;
  static State initial_state() noexcept { return State::Constant(0.9f); }
  static void derivatives(Time /*t*/, const State& /*x*/, const Input& u, State& dxdt) noexcept {
    dxdt[0] = -u[0] / 72000.0f;
  }
};
struct CompensatedCharge : Charge<true> {
  static constexpr std::array<bool, kStates> compensated_states{{true}};
};
using PlainCharge = Charge<false>;

static_assert(dualrate::CompensatesStates<CompensatedCharge>::value);
static_assert(!dualrate::CompensatesStates<PlainCharge>::value);

constexpr long kSteps = 600000;
constexpr float kStep = 1e-3f;

template <class M>
dualrate::Data<M> count() {
  dualrate::Data<M> d;
  const typename M::Input current = M::Input::Constant(40.0f);
  for (long n = 0; n < kSteps; ++n)
    if (dualrate::advance<dualrate::Rk4<M>>(d, kStep, current) != dualrate::Status::kOk) ADD_FAILURE();
  return d;
}

// Every step adds the same float increment dx (rk4's four equal stages, rounded as the scheme
// rounds them), so the exact sum of what the steps add is x_0 + N dx. Kahan's sum is within
// 2 u_f sum |dx| + O(N u_f^2) sum |dx| of it (Higham, Sec. 4.3) and the state the data holds within
// half a unit in the last place, u_f |x|, of that (u_f = 2^-24).
TEST(CompensatedSum, KeepsACountedChargeOver600000Steps) {
  using M = CompensatedCharge;
  M::State x = M::initial_state(), k;
  M::derivatives(0, x, M::Input::Constant(40.0f), k);
  const float dx = (kStep / 6.0f) * (k[0] + 2.0f * k[0] + 2.0f * k[0] + k[0]);
  const double added = static_cast<double>(x[0]) + kSteps * static_cast<double>(dx);
  const double u = std::ldexp(1.0, -24), total = kSteps * std::fabs(static_cast<double>(dx));
  const dualrate::Data<M> d = count<M>();
  const double bound = 2 * u * total + kSteps * u * u * total + u * std::fabs(added);
  EXPECT_LE(std::fabs(static_cast<double>(d.x[0]) - added), bound);
  EXPECT_LE(std::fabs(static_cast<double>(d.x[0]) - static_cast<double>(d.carry[0]) - added), bound);
  // Against the charge itself, 0.9 - 40 * 600 / 72000: dx is the exact increment rounded a few
  // times (within 8 u_f of it), so the 1e-5 is far off.
  EXPECT_LT(std::fabs(static_cast<double>(d.x[0]) - (0.9 - 40.0 * 600 / 72000)), 1e-5);
}

// Without the carry each add rounds to float's spacing near the value (6e-8 near 0.9 against an
// increment of 5.6e-7), always the same way for the same increment: the sum drifts by far more.
TEST(CompensatedSum, APlainSumLosesTheCharge) {
  const dualrate::Data<PlainCharge> plain = count<PlainCharge>();
  const dualrate::Data<CompensatedCharge> compensated = count<CompensatedCharge>();
  const double exact = 0.9 - 40.0 * 600 / 72000;
  EXPECT_GT(std::fabs(static_cast<double>(plain.x[0]) - exact),
            100 * std::fabs(static_cast<double>(compensated.x[0]) - exact));
}

}  // namespace
