// What a value reference of a dualrate FMU names (docs/fmi.md#variables): the generated glue's
// table dualrate_fmu::kVariables holds one entry per value reference, in the order the
// generator numbers them (generator/src/fmi/fmu_variables.hpp), which component.hpp reads.
#pragma once

namespace dualrate::fmi {

enum class VariableKind { kTime, kState, kDerivative, kInput, kOutput, kTunable, kClock, kUnknown };

struct Variable {
  VariableKind kind = VariableKind::kUnknown;
  int index = 0;  // among its kind's; a tunable's: its first value's among the Calibration's;
                  // a clock's: 0 the fast task's, 1 the slow task's
  int count = 1;  // the values it holds (an FMI 3.0 array's)
};

}  // namespace dualrate::fmi
