// Calibration limits in the scalar's arithmetic and recomputed values checked
// (docs/calibration.md#limits-in-the-scalar-type), on tests/models/calibration/derived_limits.yaml
// generated in float: Kt's limits [0.03, 0.08] are checked as the floats rounded inward, which
// the A2L file states, so that a write exactly at either is applied and the model's own value on
// its min is valid; a write at which a derived parameter is not finite in float (gain's pole at
// R = 1, big beyond float's range near it) is refused naming it, and changes nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "derived_limits.hpp"

namespace {

using dualrate::calibration::Result;
using dualrate::calibration::Status;
namespace model = derived_limits;

Status calibrate_with(float r, float kt) {
  model::calibration.R = r;
  model::calibration.Kt = kt;
  ++model::calibration_requests.commit;
  Eigen::internal::set_is_malloc_allowed(false);
  const Status s = model::calibrate();
  Eigen::internal::set_is_malloc_allowed(true);
  if (s.result == Result::kApplied) {  // the set computed is taken at the next step's start
    model::Data d;
    EXPECT_EQ(model::step(d, model::Model::scenario_inputs(0)), dualrate::Status::kOk);
  }
  return s;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The smallest float at or above 0.03 and the largest at or below 0.08.
const float kKtMin = 0x1.eb852p-6F;   // 0.0300000012
const float kKtMax = 0x1.47ae14p-4F;  // 0.0799999982

TEST(CalibrationLimits, FloatLimitsAreTheDeclaredOnesRoundedInward) {
  ASSERT_GE(static_cast<double>(kKtMin), 0.03);
  ASSERT_LT(static_cast<double>(std::nextafter(kKtMin, 0.0F)), 0.03);
  ASSERT_LE(static_cast<double>(kKtMax), 0.08);
  ASSERT_GT(static_cast<double>(std::nextafter(kKtMax, 1.0F)), 0.08);
  EXPECT_LT(static_cast<double>(0.03F), 0.03);  // the nearest float to 0.03 lies below it
  EXPECT_TRUE(same_bits(model::calibration.Kt, kKtMin)) << "the model's value on its min, as a float within it";
  EXPECT_EQ(calibrate_with(2.0F, kKtMin).result, Result::kApplied);
}

TEST(CalibrationLimits, WritesAtTheLimitsAreAppliedAndBeyondRefused) {
  EXPECT_EQ(calibrate_with(2.0F, kKtMax).result, Result::kApplied);
  EXPECT_TRUE(same_bits(model::active_constants.parameters.Kt, kKtMax));
  EXPECT_EQ(calibrate_with(0.5F, kKtMin).result, Result::kApplied);
  EXPECT_TRUE(same_bits(model::active_constants.parameters.Kt, kKtMin));
  const Status below = calibrate_with(0.5F, std::nextafter(kKtMin, 0.0F));
  EXPECT_EQ(below.result, Result::kBelowMin);
  EXPECT_EQ(below.value, 1);
  const Status above = calibrate_with(0.5F, std::nextafter(kKtMax, 1.0F));
  EXPECT_EQ(above.result, Result::kAboveMax);
  EXPECT_EQ(above.value, 1);
  EXPECT_EQ(calibrate_with(0.5F, 0.03F).result, Result::kBelowMin);  // the float nearest 0.03
  EXPECT_TRUE(same_bits(model::active_constants.parameters.Kt, kKtMin)) << "refused writes change nothing";
}

TEST(CalibrationLimits, ADerivedValueNotFiniteInFloatIsRefusedByName) {
  ASSERT_STREQ(model::status_value_names[2], "gain");  // after the values R and Kt
  ASSERT_STREQ(model::status_value_names[3], "big");
  ASSERT_EQ(calibrate_with(2.0F, 0.05F).result, Result::kApplied);
  const float gain_before = model::active_constants.parameters.gain;
  const Status pole = calibrate_with(1.0F, 0.05F);  // gain = 1/(R - 1)
  EXPECT_EQ(pole.result, Result::kRecomputedNotFinite);
  EXPECT_EQ(pole.value, 2);
  // big = 1e38/(R - 0.9) = 1e39 at R = 1.0009766 (a float): finite in double, beyond float's range;
  // gain = 1024 there is finite.
  const Status overflow = calibrate_with(1.0F + 0x1p-10F, 0.05F);
  EXPECT_EQ(overflow.result, Result::kRecomputedNotFinite);
  EXPECT_EQ(overflow.value, 3);
  EXPECT_TRUE(same_bits(model::active_constants.parameters.gain, gain_before)) << "refused writes change nothing";
  // Just beyond the pole and away from big's overflow both are finite.
  EXPECT_EQ(calibrate_with(1.25F, 0.05F).result, Result::kApplied);
  EXPECT_TRUE(std::isfinite(model::active_constants.parameters.big));
}

}  // namespace
