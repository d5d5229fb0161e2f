#include "model/scalar_type.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dualrate {

namespace {

constexpr double kFloatMax = std::numeric_limits<float>::max();
constexpr double kInfinity = std::numeric_limits<double>::infinity();
// FLT_MAX plus half its unit in the last place (0x1.fffffep127 + 0x1p103): from there on a
// double rounds to infinity (the runtime's calibration::finite_in takes the same bound).
constexpr double kFloatOverflow = 0x1.ffffffp127;

// The smallest float at or above v (finite), +inf when none is finite.
double float_at_or_above(double v) {
  if (v > kFloatMax) return kInfinity;
  if (v < -kFloatMax) return -kFloatMax;
  float f = static_cast<float>(v);
  if (static_cast<double>(f) < v) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}

double float_at_or_below(double v) { return -float_at_or_above(-v); }

}  // namespace

const char* to_string(ScalarType s) { return s == ScalarType::kFloat ? "float" : "double"; }

ScalarType scalar_type(const std::string& name) { return name == "float" ? ScalarType::kFloat : ScalarType::kDouble; }

double in_scalar(double v, ScalarType s) {
  if (s == ScalarType::kDouble || !std::isfinite(v)) return v;
  if (std::fabs(v) >= kFloatOverflow) return std::copysign(kInfinity, v);
  if (std::fabs(v) > kFloatMax) return std::copysign(kFloatMax, v);
  return static_cast<float>(v);
}

ScalarLimits scalar_limits(double min, double max, ScalarType s) {
  if (s == ScalarType::kDouble) return {min, max};
  return {float_at_or_above(min), float_at_or_below(max)};
}

double in_scalar_limits(double v, const ScalarLimits& limits, ScalarType s) {
  return std::clamp(in_scalar(v, s), limits.min, limits.max);
}

}  // namespace dualrate
