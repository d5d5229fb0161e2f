// The variables an FMU of a model shows an importer (docs/fmi.md), numbered as
// targets/fmi/component.hpp reads them: 0 time, then the states, their derivatives, the
// inputs, the outputs and the tunable values (each tunable parameter, then each tunable table:
// one array variable (FMI 3.0) or one variable per value (FMI 2.0)).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "model/scalar_type.hpp"

namespace dualrate {

struct FmuVariable {
  enum class Kind { kTime, kState, kDerivative, kInput, kOutput, kTunable, kClock };
  Kind kind = Kind::kTime;
  std::string name;
  std::uint32_t value_reference = 0;
  std::optional<double> start;               // in the header's scalar, as it starts
  std::vector<double> array_start;           // an array variable's (a tunable table's values)
  std::optional<double> min, max;            // a tunable value's limits as generated code checks them
  std::string unit, description;
  std::uint32_t derivative_of = 0;           // kDerivative: its state's value reference
  double interval = 0;                       // kClock: its period
  int priority = 0;                          // kClock: 0 the highest
};

// `arrays`: each tunable table one array variable (FMI 3.0).
std::vector<FmuVariable> fmu_variables(const Model& model, ScalarType scalar, bool arrays);
// Scheduled Execution's input clocks, after the other variables: the fast task's every h
// (priority 0), the slow task's every H = ratio h (priority 1).
void add_task_clocks(std::vector<FmuVariable>& variables, double h, int ratio);

// The tunable values' names in the FMU (a table's values as NAME[i]), in Calibration order.
std::vector<std::string> fmu_tunable_names(const Model& model);

}  // namespace dualrate
