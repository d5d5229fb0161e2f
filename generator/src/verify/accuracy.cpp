#include "verify/accuracy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "base/text_io.hpp"
#include "reference_core/reference_core.hpp"

namespace dualrate {

Trace accurate_on_grid(const ReferenceCore& core, const RunOptions& run, const Trace& rows) {
  RunOptions accurate = run;
  accurate.scheme = kHighAccuracy;
  accurate.every = 1;
  accurate.float_time = false;  // the inputs as the model states them, not as float code samples them
  accurate.schedule = nullptr;
  accurate.design = nullptr;
  Trace all = core.simulate(accurate);
  Trace picked;
  picked.columns = all.columns;
  for (const auto& row : rows.rows) {
    const long i = std::lround(row[0] / run.step);
    if (i < 0 || i >= static_cast<long>(all.rows.size()))
      throw std::runtime_error(fmt::format(
          "the run has a row at t = {:.9g}, past the high-accuracy solution's end {:.9g}", row[0], all.rows.back()[0]));
    picked.rows.push_back(all.rows[static_cast<std::size_t>(i)]);
  }
  return picked;
}

AccuracyCheck check_accuracy(const Trace& trace, const Trace& accurate, const Model& model,
                             const ErrorTolerance& tolerance) {
  std::vector<ColumnTolerance> tolerances = column_tolerances(model, tolerance);
  const std::size_t with_outputs = 1 + tolerances.size();
  if (trace.columns.size() < with_outputs || accurate.columns.size() < with_outputs)
    tolerances.resize(model.states.size());
  const Comparison c = compare_traces(trace, accurate, tolerances);
  AccuracyCheck r;
  r.tolerance = tolerance;
  const std::vector<std::string> names = model.state_and_output_names();
  for (std::size_t j = 0; j < tolerances.size(); ++j)
    r.columns.push_back({names[j], c.errors[j], tolerances[j].absolute, j >= model.states.size()});
  if (tolerances.empty()) return r;
  const std::size_t worst = c.worst_column - 1;
  r.max_error = c.max_error;
  r.worst_state = r.columns[worst].name;
  r.worst_time = c.worst_time;
  r.worst_scale = c.scale[worst];
  return r;
}

AccuracyCheck measure_accuracy(const ReferenceCore& core, const RunOptions& run, const Trace& generated,
                               const Trace& relinearized, const Model& model, const ErrorTolerance& tolerance,
                               const std::string& csv) {
  try {
    const Trace accurate = accurate_on_grid(core, run, generated);
    if (!csv.empty()) write_csv(accurate, csv);
    AccuracyCheck a = check_accuracy(generated, accurate, model, tolerance);
    if (!relinearized.rows.empty())
      a.relinearized_error = check_accuracy(relinearized, accurate, model, tolerance).max_error;
    if (model.inputs_vary()) {
      RunOptions held = run;
      held.inputs_held = true;
      const Trace accurate_held = accurate_on_grid(core, held, generated);
      a.hold_error = check_accuracy(accurate_held, accurate, model, tolerance).max_error;
      a.integration_error = check_accuracy(generated, accurate_held, model, tolerance).max_error;
    }
    return a;
  } catch (const std::runtime_error& e) {  // SimulationError, or traces of another shape
    AccuracyCheck a;
    a.tolerance = tolerance;
    a.error = e.what();
    return a;
  }
}

std::string accuracy_text(const AccuracyCheck& a, const std::string& linearization) {
  if (!a.error.empty()) return "accuracy: not measured, " + a.error + "\n";
  std::string s = fmt::format("accuracy (against the high-accuracy solution): max error {:.3e}", a.max_error);
  if (!a.worst_state.empty())
    s += a.worst_absolute() ? fmt::format(" at {}, t = {:.6g} (absolute)", a.worst_state, a.worst_time)
                            : fmt::format(" at {}, t = {:.6g}, relative to {:.4g} (max(1, max_t |{}|))", a.worst_state,
                                          a.worst_time, a.worst_scale, a.worst_state);
  s += a.judged() ? fmt::format("; tolerance {:.3e} ({}): {}\n", a.worst_tolerance(), a.tolerance_source,
                                a.pass() ? "ACCURATE" : "NOT ACCURATE")
                  : "; not judged (no --tolerance or simulation: tolerance:)\n";
  if (a.columns.size() > 1) {
    s += "accuracy per state and output:";
    for (const auto& c : a.columns) s += fmt::format(" {} {:.2e}{}", c.name, c.error, c.absolute ? " (absolute)" : "");
    s += "\n";
  }
  if (a.hold_error && a.integration_error)
    s += fmt::format(
        "of which the inputs' hold between samples accounts for {:.3e} (the high-accuracy solution "
        "with the inputs held as the steps hold them, against it) and the integration for {:.3e} (the "
        "run against that solution)\n",
        *a.hold_error, *a.integration_error);
  if (a.relinearized_error)
    s += fmt::format(
        "{} linearization: the scheme re-linearized at every step is {:.3e} off the same solution, so "
        "the {} constants cost {:.3e}\n",
        linearization, *a.relinearized_error, linearization, std::max(0.0, a.max_error - *a.relinearized_error));
  return s;
}

}  // namespace dualrate
