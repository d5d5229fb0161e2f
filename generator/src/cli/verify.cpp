// dualrate verify.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "analysis/stability.hpp"
#include "base/mat_file.hpp"
#include "base/process.hpp"
#include "base/text_io.hpp"
#include "cli/commands.hpp"
#include "cli/progress_line.hpp"
#include "emit/cpp_emitter.hpp"
#include "model/calibration.hpp"
#include "reference_core/reference_core.hpp"
#include "registry/registry.hpp"
#include "targets/build.hpp"
#include "targets/cross_target.hpp"
#include "verify/local_check.hpp"
#include "verify/report.hpp"
#include "verify/verify.hpp"

namespace dualrate::cli {

namespace {

// verify --report: the page (verify/report.hpp) from the run kept in o.keep_dir, with the
// analysis and the high-accuracy solution on the compared grid.
void write_verify_report(const Model& model, const VerifyOptions& o, const VerifyResult& r, const std::string& dir) {
  ReportData d;
  d.model = &model;
  d.options = &o;
  d.result = &r;
  std::ifstream source(model.file, std::ios::binary);
  std::ostringstream text;
  text << source.rdbuf();
  d.model_source = text.str();
  std::optional<StabilityReport> stability;
  try {
    stability =
        analyze_stability(model, o.generate.scheme, o.generate.step, o.generate.ratio, o.generate.scheme_options);
    d.stability = &*stability;
  } catch (const std::exception& e) {
    d.stability_error = e.what();
  }
  const std::filesystem::path run = o.keep_dir;
  if (std::filesystem::exists(run / "generated.csv") && std::filesystem::exists(run / "reference.csv")) {
    d.generated = without_local_columns(read_csv((run / "generated.csv").string()));
    d.reference = read_csv((run / "reference.csv").string());
    try {
      d.accurate = ReferenceCore(model).simulate({kHighAccuracy, o.generate.step, o.t_end, o.every});
    } catch (const SimulationError&) {
      d.accurate = {};  // the plots then leave it out
    }
  }
  std::filesystem::create_directories(dir);
  const auto path = std::filesystem::path(dir) / "report.html";
  std::ofstream out(path, std::ios::binary);
  out << report_html(d, report_plot);
  if (!out) throw UsageError("cannot write " + path.string());
  const Trace data = report_traces(d);
  if (!data.rows.empty())
    write_mat(data, (std::filesystem::path(dir) / "report.mat").string(), fmt::format("dualrate {}", DUALRATE_VERSION));
}

// Whether the preemptive tasks would run in real time for longer than kHostRealTime: a
// dual-rate scheme on the host (SCHED_FIFO threads, a tick every h), over the scenario's t_end.
bool host_real_time(const CrossTarget* cross, const SchemeInfo* info, double t_end) {
  return !cross && info && info->traits.dual_rate && t_end > kHostRealTime;
}

}  // namespace

int VerifyCommand::run(const Model& model) {
  const Settings s = resolve(model, o_, Use::kGenerate);
  require_dual_rate(cmd_, "--tasks", s.scheme);
  require_dual_rate(cmd_, "--overrun", s.scheme);
  require_dual_rate(cmd_, "--slow-task-delay", s.scheme);
  const CrossTarget* cross = find_cross_target(target_);
  if (target_ != "host" && !cross) throw UsageError(unknown_target_message(target_));
  require_dual_rate(cmd_, "--slow-core", s.scheme);
  const int cores = cross && !cross->linux_user ? cross->cores : 1;
  if (slow_core_ == 1 && cores < 2)
    throw UsageError(
        fmt::format("--slow-core 1 puts the slow task on a second core: {} has one (two cores: "
                    "--target cortex-m33-dual)",
                    target_));
  const SchemeInfo* info = find_scheme(s.scheme);
  const bool real_time_default = tasks_.empty() && host_real_time(cross, info, s.t_end);
  const std::optional<Tasks> given = named(kDualRateTaskKinds, tasks_);
  if (!tasks_.empty() && !given) throw UsageError("--tasks is single or multi, not '" + tasks_ + "'");
  const Tasks tasks = given ? *given : real_time_default ? Tasks::kSingle : Tasks::kMulti;
  if (slow_core_ >= 0 && tasks != Tasks::kMulti)
    throw UsageError("--slow-core places the slow task of the preemptive run: it needs --tasks multi");
  if (o_.scalar.empty() && cross) o_.scalar = cross->default_scalar;
  warn_about_clock(target_, cpu_hz_);
  if (info) info->hooks.check_trajectory(model, ScenarioTrajectory(model, s.t_end));
  VerifyOptions v;
  v.generate = generate_request(s, o_);
  v.t_end = s.t_end;
  v.every = o_.every;
  v.target = target_;
  v.keep_dir = keep_dir_;
  v.header_file = header_file_;
  v.tolerance = given_tolerance(model, tolerance_);
  v.calibration =
      calibration_file_.empty() ? model.simulation.calibration : load_calibration_file(model, calibration_file_);
  if (!header_file_.empty()) {
    const std::string why = header_mismatch(read_file(header_file_), model, v.generate);
    if (!why.empty()) throw UsageError("--header " + header_file_ + ": " + why);
  }
  v.tasks = tasks;
  v.slow_delay_ticks = slow_delay_ticks_;
  v.slow_core = slow_core_ >= 0 ? slow_core_ : (cores > 1 ? 1 : 0);
  v.icount_shift = icount_shift_;
  v.tick_cycles = tick_cycles_;
  v.cpu_hz = cpu_hz_;
  v.cpi = cpi_;
  if (real_time_default)
    std::cerr << fmt::format(
        "note: the sequential executive only: the preemptive tasks on the host take the "
        "scenario's {:g} s in real time (--tasks multi runs them)\n",
        s.t_end);
  if (!end_time(s.t_end, s.step).whole)
    std::cerr << fmt::format(
        "note: t_end = {} is not a whole number of steps h = {}: generated code runs whole "
        "steps, so verify runs {} steps, to t = {:.15g}\n",
        s.t_end, s.step, step_count(s.t_end, s.step), end_time(s.t_end, s.step).above);
  // A report reads the run's traces: kept in a directory of ours unless --keep names one.
  const bool own_run_dir = !report_dir_.empty() && keep_dir_.empty();
  if (own_run_dir) v.keep_dir = make_temp_dir("dualrate-report");
  ProgressLine line("verify " + model.name);
  if (line.shown()) v.progress = [&line](const std::string& stage) { line.stage(stage); };
  VerifyResult r = verify(model, v);
  if (!report_dir_.empty()) {
    if (v.progress) v.progress("writing the report");
    write_verify_report(model, v, r, report_dir_);
    if (own_run_dir) {
      std::filesystem::remove_all(v.keep_dir);
      r.directory.clear();
    }
  }
  line.clear();
  std::cout << (json_ ? r.json() + "\n" : r.text());
  if (!r.error.empty()) std::cerr << "error: " << r.error << "\n";
  if (r.pass && !r.pass_all())
    std::cerr << fmt::format(
        "error: the code is the scheme, but its answer is {:.3e} off the high-accuracy "
        "solution in {}, above its tolerance {:.3e} ({})\n",
        r.accuracy->max_error, r.accuracy->worst_state, r.accuracy->worst_tolerance(), r.accuracy->tolerance_source);
  return r.pass_all() ? 0 : 2;
}

}  // namespace dualrate::cli
