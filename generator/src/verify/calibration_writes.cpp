#include "verify/calibration_writes.hpp"

#include <fmt/format.h>

#include <sstream>

#include "model/calibration.hpp"
#include "model/cpp_names.hpp"
#include "reference/reference_model.hpp"

namespace dualrate {

std::vector<TraceCalibrationWrite> trace_writes(const Model& model, const RunOptions& run) {
  std::vector<TraceCalibrationWrite> writes;
  for (const auto& e : calibration_events(model, run.calibration, run.step, run.calibration_stride)) {
    TraceCalibrationWrite w{e.step, {}};
    for (const auto& v : run.calibration[e.write].set)
      for (std::size_t i = 0; i < v.values.size(); ++i)
        w.values.emplace_back(v.table ? fmt::format("{}[{}]", cpp_name(v.name), i) : cpp_name(v.name), v.values[i]);
    writes.push_back(w);
  }
  return writes;
}

std::string calibration_writes_header(const std::vector<TraceCalibrationWrite>& writes) {
  std::string s =
      "// Calibration writes of a dualrate verify run (targets/common/trace_calibration.hpp).\n"
      "#pragma once\n\n"
      "namespace dualrate_trace {\n\n";
  for (std::size_t i = 0; i < writes.size(); ++i) {
    s += fmt::format("inline void calibration_write_{}(model::Calibration& c) {{\n", i);
    for (const auto& [member, value] : writes[i].values)
      s += fmt::format("  c.{} = static_cast<model::Model::Scalar>({:a});\n", member, value);
    s += "}\n";
  }
  s += "\ninline constexpr CalibrationWrite calibration_writes[] = {\n";
  for (std::size_t i = 0; i < writes.size(); ++i)
    s += fmt::format("    {{{}, calibration_write_{}}},\n", writes[i].step, i);
  return s + "    {-1, nullptr},\n};\n\n}  // namespace dualrate_trace\n";
}

bool read_calibration_results(const std::string& output, std::vector<TraceCalibrationResult>& results) {
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# calibration ", 0) != 0) continue;
    std::istringstream words(line.substr(14));
    TraceCalibrationResult r;
    std::string rest;
    if (!(words >> r.index >> r.step >> r.result >> r.value) || (words >> rest)) return false;
    results.push_back(r);
  }
  return true;
}

}  // namespace dualrate
