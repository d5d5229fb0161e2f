#include "model/cpp_names.hpp"

#include <set>

namespace dualrate {

bool cpp_reserved(const std::string& name) {
  static const std::set<std::string> generated = {"std",
                                                  "Eigen",
                                                  "dualrate",
                                                  "Scalar",
                                                  "Time",
                                                  "Model",
                                                  "State",
                                                  "Input",
                                                  "Output",
                                                  "Data",
                                                  "Scheme",
                                                  "Tasks",
                                                  "SlowState",
                                                  "FastState",
                                                  "kSlow",
                                                  "kFast",
                                                  "kStates",
                                                  "kInputs",
                                                  "kOutputs",
                                                  "kStep",
                                                  "kRatio",
                                                  "initial_state",
                                                  "default_inputs",
                                                  "derivatives",
                                                  "slow_derivatives",
                                                  "fast_derivatives",
                                                  "outputs",
                                                  "scenario_inputs",
                                                  "scheduling_values",
                                                  "Schedule",
                                                  "schedule",
                                                  "state_names",
                                                  "input_names",
                                                  "output_names",
                                                  "step",
                                                  "Calibration",
                                                  "Constants",
                                                  "calibration",
                                                  "epk",
                                                  "active_constants",
                                                  "recalibrate",
                                                  "calibrate",
                                                  "constants_handoff",
                                                  "calibration_applied",
                                                  "calibration_status",
                                                  "calibration_requests",
                                                  "calibration_handled",
                                                  "status_value_names",
                                                  "calibration_layout",
                                                  "TakeConstants",
                                                  "task_pair",
                                                  "tasks_layout",
                                                  "compensated_states",
                                                  "input_holds",
                                                  "input_jumps",
                                                  "scenario_sampled_before_start",
                                                  "NULL",
                                                  "EOF",
                                                  "NAN",
                                                  "INFINITY",
                                                  "HUGE_VAL",
                                                  "errno",
                                                  "assert",
                                                  "linux",
                                                  "unix"};
  return name.empty() || name.back() == '_' || name.rfind("M_", 0) == 0 || name.rfind("DUALRATE_", 0) == 0 ||
         name.rfind("EIGEN_", 0) == 0 || generated.count(name) > 0;
}

std::string cpp_name(const std::string& name) { return cpp_reserved(name) ? name + "0_" : name; }

std::string cpp_array(const std::string& name, const std::string& what) {
  return cpp_reserved(name) ? cpp_name(name) + what + "_" : name + "_" + what + "_";
}

}  // namespace dualrate
