// What a number of the model file becomes in generated code's scalar (model/scalar_type.hpp):
// the nearest float, and a tunable value's limits rounded inward, so that a float lies within
// the declared limits exactly when it lies within the rounded ones; the checks of derived
// parameters at the calibration range's points and at a write (model/tunable.hpp,
// model/calibration.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "base/diagnostics.hpp"
#include "model/calibration.hpp"
#include "model/loader.hpp"
#include "model/model.hpp"
#include "model/scalar_type.hpp"
#include "model/tunable.hpp"

namespace dualrate {
namespace {

TEST(ScalarLimits, RoundedInwardToFloat) {
  const ScalarLimits l = scalar_limits(0.03, 0.08, ScalarType::kFloat);
  EXPECT_EQ(l.min, static_cast<double>(0x1.eb852p-6F));
  EXPECT_EQ(l.max, static_cast<double>(0x1.47ae14p-4F));
  EXPECT_GE(l.min, 0.03);
  EXPECT_LT(static_cast<double>(std::nextafter(static_cast<float>(l.min), 0.0F)), 0.03);
  EXPECT_LE(l.max, 0.08);
  EXPECT_GT(static_cast<double>(std::nextafter(static_cast<float>(l.max), 1.0F)), 0.08);
  // Limits that floats hold stay; double's are the declared ones.
  EXPECT_EQ(scalar_limits(0.5, 2.0, ScalarType::kFloat).min, 0.5);
  EXPECT_EQ(scalar_limits(0.5, 2.0, ScalarType::kFloat).max, 2.0);
  EXPECT_EQ(scalar_limits(0.03, 0.08, ScalarType::kDouble).min, 0.03);
  // Beyond float's range: the largest float; no float within [1e39, 1e40].
  EXPECT_EQ(scalar_limits(-1e300, 1e300, ScalarType::kFloat).max,
            static_cast<double>(std::numeric_limits<float>::max()));
  EXPECT_EQ(scalar_limits(-1e300, 1e300, ScalarType::kFloat).min,
            -static_cast<double>(std::numeric_limits<float>::max()));
  EXPECT_TRUE(scalar_limits(1e39, 1e40, ScalarType::kFloat).empty());
  // Two limits between the same two floats.
  EXPECT_TRUE(scalar_limits(0.1000000001, 0.1000000002, ScalarType::kFloat).empty());
  EXPECT_FALSE(scalar_limits(0.1000000001, 0.1000000002, ScalarType::kDouble).empty());
}

TEST(ScalarLimits, AModelValueOnALimitIsWithinIt) {
  const ScalarLimits l = scalar_limits(0.03, 0.08, ScalarType::kFloat);
  EXPECT_LT(in_scalar(0.03, ScalarType::kFloat), 0.03);  // the nearest float lies outside
  EXPECT_EQ(in_scalar_limits(0.03, l, ScalarType::kFloat), l.min);
  EXPECT_EQ(in_scalar_limits(0.05, l, ScalarType::kFloat), in_scalar(0.05, ScalarType::kFloat));
  EXPECT_EQ(in_scalar_limits(0.03, scalar_limits(0.03, 0.08, ScalarType::kDouble), ScalarType::kDouble), 0.03);
}

TEST(ScalarLimits, NearestFloatWithItsOverflow) {
  const double max = std::numeric_limits<float>::max();
  EXPECT_EQ(in_scalar(max + 0x1p102, ScalarType::kFloat), max);           // below half a unit beyond: rounds down
  EXPECT_TRUE(std::isinf(in_scalar(max + 0x1p103, ScalarType::kFloat)));  // the tie rounds to even: infinity
  EXPECT_TRUE(std::isinf(in_scalar(-1e39, ScalarType::kFloat)));
  EXPECT_EQ(in_scalar(1e39, ScalarType::kDouble), 1e39);
}

constexpr const char* kPole = R"(name: pole
parameters:
  R: {value: 2.0, tunable: true, min: 0.5, max: 2.0}
  gain: 1/(R - 1.25)
states:
  x: 0
equations:
  x: -gain*x
simulation: {t_end: 0.01, scheme: rk4, step: 1.0e-3}
)";

TEST(DerivedValues, NotFiniteAtAPointOfTheRangeIsAnErrorNamingIt) {
  const Model m = load_model_text(kPole, "pole.yaml");
  try {
    require_finite_derived(m, ScalarType::kDouble);
    FAIL() << "gain's pole at R = 1.25, the centre of R's range, is a point of the grid";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.loc().line, 4);
    EXPECT_NE(std::string(e.what()).find("derived parameter 'gain' is not finite in double at R = 1.25"),
              std::string::npos)
        << e.what();
  }
  // At a write: refused, naming it; nothing changes.
  const CalibrationValues start = initial_calibration(m);
  const WriteCheck pole = check_write(m, start, {0.1, {}, {{"R", {1.25}, {}, false}}});
  EXPECT_FALSE(pole.applied);
  EXPECT_EQ(pole.reason, "derived parameter gain is not finite at these values");
  EXPECT_EQ(pole.values, start);
  EXPECT_TRUE(check_write(m, start, {0.1, {}, {{"R", {1.5}, {}, false}}}).applied);
}

TEST(DerivedValues, BeyondFloatsRangeIsAnErrorInFloatOnly) {
  std::string text = kPole;
  text.replace(text.find("1/(R - 1.25)"), 12, "1.0e38*R*R");  // 4e38 at R = 2
  const Model m = load_model_text(text, "big.yaml");
  EXPECT_NO_THROW(require_finite_derived(m, ScalarType::kDouble));
  EXPECT_THROW(require_finite_derived(m, ScalarType::kFloat), ModelError);
}

// The layout text a header states, and what a2l says when a program's differs from a model's:
// each value by name, with its position, size or limits in both.
TEST(CalibrationLayout, DifferencesNameTheValue) {
  const char* kTwo = R"(name: two
parameters:
  R: {value: 1.0, tunable: true, min: 0.5, max: 2.0}
  Kt: {value: 0.05, tunable: true, min: 0.03, max: 0.08}
tables:
  f:
    breakpoints: [[0, 1]]
    values: [0.1, 0.2]
    tunable: true
    min: 0
    max: 1
states:
  x: 0
equations:
  x: -R*Kt*x + f(x)
simulation: {t_end: 0.01, scheme: rk4, step: 1.0e-3}
)";
  const Model m = load_model_text(kTwo, "two.yaml");
  const std::string text = calibration_layout_text(m, 1e-3, ScalarType::kDouble);
  EXPECT_EQ(text,
            "double h=0x1.0624dd2f1a9fcp-10;R[0x1p-1,0x1p+1];Kt[0x1.eb851eb851eb8p-6,0x1.47ae147ae147bp-4];"
            "f[2][0x0p+0,0x1p+0];");
  EXPECT_TRUE(layout_differences(text, text).empty());
  std::string other = kTwo;
  other.replace(other.find("max: 0.08"), 9, "max: 0.09");
  other.replace(other.find("values: [0.1, 0.2]"), 18, "values: [0.1, 0.2, 0.3]");
  other.replace(other.find("breakpoints: [[0, 1]]"), 21, "breakpoints: [[0, 1, 2]]");
  const std::vector<std::string> d =
      layout_differences(text, calibration_layout_text(load_model_text(other, "two.yaml"), 1e-3, ScalarType::kDouble));
  ASSERT_EQ(d.size(), 2U);
  EXPECT_EQ(d[0], "Kt's limits are [0.03, 0.08] in the program, [0.03, 0.09] in the model");
  EXPECT_EQ(d[1], "f has 2 values in the program, 3 in the model");
  std::string swapped = kTwo;
  const std::string r_line = "  R: {value: 1.0, tunable: true, min: 0.5, max: 2.0}\n";
  swapped.erase(swapped.find(r_line), r_line.size());
  swapped.insert(swapped.find("tables:"), r_line);
  const std::vector<std::string> e =
      layout_differences(calibration_layout_text(load_model_text(swapped, "two.yaml"), 1e-4, ScalarType::kFloat), text);
  ASSERT_EQ(e.size(), 5U);
  EXPECT_EQ(e[0], "scalar float in the program, double here");
  EXPECT_EQ(e[1], "step 0.0001 in the program, 0.001 here");
  EXPECT_EQ(e[2], "R is value 1 in the program, 0 in the model");
  EXPECT_EQ(e[3], "Kt is value 0 in the program, 1 in the model");
  EXPECT_EQ(e[4],
            "Kt's limits are [0.030000001192092896, 0.07999999821186066] in the program, [0.03, 0.08] in the "
            "model");  // rounded inward to float; R's 0.5 and 2 are floats, the same in both
}

}  // namespace
}  // namespace dualrate
