// dualrate simulate.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "base/mat_file.hpp"
#include "cli/commands.hpp"
#include "cli/progress_line.hpp"
#include "model/calibration.hpp"
#include "reference_core/reference_core.hpp"
#include "registry/registry.hpp"

namespace dualrate::cli {

int SimulateCommand::run(const Model& model) {
  const Settings s = resolve(model, o_, Use::kReferenceCore);
  RunOptions run{s.scheme, s.step, s.t_end, o_.every};
  run.ratio = s.ratio;
  run.scheme_options = s.scheme_options;
  run.exact_end = true;
  run.calibration =
      calibration_file_.empty() ? model.simulation.calibration : load_calibration_file(model, calibration_file_);
  if (const SchemeInfo* info = find_scheme(s.scheme);
      info && info->traits.schedulable && model.simulation.linearization == Linearization::kScheduled) {
    GenerateRequest g = settings_request(s, ScalarType::kDouble);
    const SchemeDesign design = precompute_scheme(model, g);
    std::cerr << "note: " << schedule_summary(*design.schedule);
    run.schedule = design.schedule;
    run.exact_end = false;  // the constants are for the step h: no shortened last step
  }
  const EndTime end = end_time(s.t_end, s.step);
  if (!end.whole && s.scheme == kHighAccuracy)
    std::cerr << fmt::format(
        "note: t_end = {} is not a whole number of output steps h = {}: the last row is at "
        "t_end, {:.6g} after the one before\n",
        s.t_end, s.step, s.t_end - end.below);
  else if (!end.whole && !find_any_scheme(s.scheme)->traits.grid_tied && run.exact_end)
    std::cerr << fmt::format(
        "note: t_end = {} is not a whole number of steps h = {}: the last step is shortened to "
        "{:.6g} so that the run ends at t_end\n",
        s.t_end, s.step, s.t_end - end.below);
  else if (!end.whole && run.schedule)
    std::cerr << fmt::format(
        "note: t_end = {} is not a whole number of steps h = {}, and the scheduled constants are "
        "for h alone: the run takes whole steps and ends at {:.15g}\n",
        s.t_end, s.step, end.above);
  if (!run.calibration.empty()) {
    const SchemeInfo* info = find_any_scheme(s.scheme);
    run.calibration_stride = calibration_stride(run, info && info->traits.dual_rate);
    const auto events = calibration_events(model, run.calibration, s.step, run.calibration_stride);
    for (const auto& e : events) std::cerr << "calibration: " << describe(run.calibration[e.write], e) << "\n";
  }
  const ReferenceCore core(model);
  ProgressLine line(fmt::format("simulate {} ({})", model.name, s.scheme));
  if (line.shown()) run.progress = [&line, t_end = s.t_end](double t) { line.at(t, t_end); };
  const Trace trace = core.with_inputs(core.simulate(run), run);
  line.clear();
  if (out_trace_.empty()) {
    for (std::size_t i = 0; i < trace.columns.size(); ++i) std::cout << (i ? "," : "") << trace.columns[i];
    std::cout << "\n";
    for (const auto& row : trace.rows) {
      for (std::size_t i = 0; i < row.size(); ++i) std::cout << (i ? "," : "") << fmt::format("{:.17g}", row[i]);
      std::cout << "\n";
    }
  } else {
    if (std::filesystem::path(out_trace_).extension() == ".mat")
      write_mat(trace, out_trace_, fmt::format("dualrate {}", DUALRATE_VERSION));
    else
      write_csv(trace, out_trace_);
    std::cerr << fmt::format("{}: {} rows -> {}\n", model.name, trace.rows.size(), out_trace_);
  }
  return 0;
}

}  // namespace dualrate::cli
