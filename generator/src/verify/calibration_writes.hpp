// The calibration writes a verify run makes in the generated code's trace programs
// (targets/common/trace.hpp, DUALRATE_TRACE_CALIBRATION): the header verify compiles in, and
// the result of each write as the programs report it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/model.hpp"

namespace dualrate {

// One write before step `step`: each Calibration member (a parameter's name, or TABLE[i]) with
// its value.
struct TraceCalibrationWrite {
  long step = 0;
  std::vector<std::pair<std::string, double>> values;
};

struct RunOptions;

// The writes of `run`'s scenario as the trace programs make them: each at the step it applies
// from, a table's values one by one.
std::vector<TraceCalibrationWrite> trace_writes(const Model& model, const RunOptions& run);

// The header that defines dualrate_trace::calibration_writes[] for writes in step order,
// ended by {-1, nullptr}; values as exact literals.
std::string calibration_writes_header(const std::vector<TraceCalibrationWrite>& writes);

// A write's result as a trace program reports it ("# calibration INDEX STEP RESULT VALUE").
struct TraceCalibrationResult {
  long index = 0, step = 0;
  int result = 0;  // dualrate::calibration::Result
  int value = -1;  // the refused value's index among the Calibration's values, or -1
};
// The results among a program's output lines; false when a calibration line is malformed.
bool read_calibration_results(const std::string& output, std::vector<TraceCalibrationResult>& results);

}  // namespace dualrate
