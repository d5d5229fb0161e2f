// The scalar type of generated code (float or double), and what a number of the model file
// becomes in it: its nearest value, and a tunable value's limits rounded inward
// (docs/calibration.md#limits-in-the-scalar-type).
#pragma once

#include <string>

namespace dualrate {

enum class ScalarType { kFloat, kDouble };
const char* to_string(ScalarType s);
ScalarType scalar_type(const std::string& name);  // "float", else double

// v as the scalar type holds it: the nearest float (round to nearest, ties to even; beyond
// float's range an infinity), or v itself.
double in_scalar(double v, ScalarType s);

// A tunable value's limits as generated code checks them and the A2L file states them:
// [min, max] rounded inward to the scalar type, the smallest value of the type at or above min
// and the largest at or below max. A value the type holds lies within [min, max] exactly when
// it lies within these, so that a write of either limit, as the A2L states it, is applied.
struct ScalarLimits {
  double min = 0, max = 0;
  bool empty() const { return min > max; }  // no value of the type lies within [min, max]
};
ScalarLimits scalar_limits(double min, double max, ScalarType s);

// A model's value v (within its limits) as the scalar type holds it within `limits`: the
// nearest value, or the nearer limit when the nearest lies outside them (v within half a unit
// in the last place of a limit), so that a model's value on a limit is a valid value.
double in_scalar_limits(double v, const ScalarLimits& limits, ScalarType s);

}  // namespace dualrate
