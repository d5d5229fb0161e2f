// The variables an FMU of a model shows an importer (docs/fmi.md), in value-reference order:
// 0 time, then the states, their derivatives (not with Scheduled Execution), the inputs, the
// outputs, the tunable values (each tunable parameter, then each tunable table: one array
// variable (FMI 3.0) or one variable per value (FMI 2.0)), and with Scheduled Execution the
// fast and the slow task's clocks. The glue (fmu_glue.hpp) emits this list as the table that
// targets/fmi/component.hpp reads, so the numbering is made here alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "model/scalar_type.hpp"

namespace dualrate {

// One of the generated Calibration's values, in its order: each tunable parameter, then each
// tunable table's values (first axis outermost).
struct TunableValue {
  std::string name;         // as the FMU names it: R, friction[2]
  std::string member;       // the Calibration member that holds it: R, friction[2]
  std::string table;        // the table's name, or empty for a parameter
  double start = 0;         // the model's value in the header's scalar, within the limits as checked
  double min = 0, max = 0;  // the limits generated code checks (rounded inward in float)
  std::string unit, description;
};
std::vector<TunableValue> tunable_values(const Model& model, ScalarType scalar);

struct FmuVariable {
  enum class Kind { kTime, kState, kDerivative, kInput, kOutput, kTunable, kClock };
  Kind kind = Kind::kTime;
  std::string name;
  std::uint32_t value_reference = 0;
  int index = 0;                    // among its kind's (a tunable's: its first value among the Calibration's;
                                    // a clock's: 0 the fast task's, 1 the slow task's)
  int count = 1;                    // the values it holds (an array's)
  std::optional<double> start;      // in the header's scalar, as it starts
  std::vector<double> array_start;  // an array variable's (a tunable table's values)
  std::optional<double> min, max;   // a tunable value's limits as generated code checks them
  std::string unit, description;
  std::uint32_t derivative_of = 0;  // kDerivative: its state's value reference
  double interval = 0;              // kClock: its period
  int priority = 0;                 // kClock: 0 the highest
};

struct FmuLayout {
  ScalarType scalar = ScalarType::kDouble;
  bool arrays = false;     // each tunable table one array variable (FMI 3.0)
  bool scheduled = false;  // Scheduled Execution: no derivatives, the tasks' clocks at the end
  // The task forms start from the model's initial state: their states are calculated, not
  // settable start values.
  bool calculated_states = false;
  double step = 0;  // h, the fast clock's interval
  int ratio = 1;    // H = ratio h, the slow clock's
};
std::vector<FmuVariable> fmu_variables(const Model& model, const FmuLayout& layout);

}  // namespace dualrate
