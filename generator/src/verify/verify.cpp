// Size: one verify run's stages in one class (the header, the programs, the reference core, the
// local and exact step checks, the outputs, accuracy, calibration writes), each reading what the
// earlier ones recorded.
#include "verify/verify.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <utility>

#include "analysis/stability.hpp"
#include "base/text_io.hpp"
#include "emit/generation.hpp"
#include "ir/op_count.hpp"
#include "reference_core/reference_core.hpp"
#include "registry/registry.hpp"
#include "targets/build.hpp"
#include "targets/cross_target.hpp"
#include "model/calibration.hpp"
#include "verify/accuracy.hpp"
#include "verify/calibration_writes.hpp"
#include "verify/local_check.hpp"
#include "verify/programs.hpp"
#include "verify/setup.hpp"
#include "verify/tick_check.hpp"
#include "verify/tolerance.hpp"

namespace dualrate {

namespace {

// The result's header: what was verified.
VerifyResult result_for(const Model& model, const VerifyOptions& o) {
  VerifyResult r;
  r.model = model.name;
  r.scheme = o.generate.scheme;
  r.target = o.target;
  r.scalar = to_string(o.generate.scalar);
  return r;
}

// The reference core's run the generated code is compared with.
RunOptions run_options(const VerifyOptions& o, const SchemeDesign& design, bool dual_rate) {
  RunOptions run{o.generate.scheme, o.generate.step, o.t_end, o.every};
  run.scheme_options = o.generate.scheme_options;
  run.schedule = design.schedule;
  run.design = std::make_shared<const SchemeDesign>(design);
  run.ratio = o.generate.ratio;
  run.float_time = o.generate.scalar == ScalarType::kFloat;
  run.compensated = design.compensated;
  run.calibration = o.calibration;
  // A float build's Calibration holds floats: a write sets the float nearest its value, which
  // the reference core takes too (a derived parameter then follows the same value).
  if (run.float_time)
    for (auto& write : run.calibration)
      for (auto& value : write.set)
        for (double& v : value.values) v = in_scalar(v, ScalarType::kFloat);
  run.calibration_stride = calibration_stride(run, dual_rate);  // the high-accuracy run's too
  return run;
}

// One verify run of a known scheme on a known target: its stages, in the order verify_or_throw
// runs them, and what they share. Each stage records into the result.
class Verification {
 public:
  // The scheme's constants precomputed, the operation counts and the first tolerance into r.
  Verification(const Model& model, const VerifyOptions& o, const SchemeInfo& info, const TargetPart& target,
               VerifyResult& r);
  // The header and the programs built and run in `dir` (the trace program, or the dual-rate
  // tasks in their executives), their counts into the result; the commands in dir/build.sh.
  void run_programs(const fs::path& dir);
  // The reference core's run (dir/reference.csv), the float tolerance from the step map and,
  // for a linearization other than the exact one, the error against the re-linearizing core.
  void run_reference(const fs::path& dir);
  // The scenario's calibration writes as the reference core decides them (r.calibrations), and
  // the error when the generated code's trace program decided one otherwise.
  void check_calibrations(const fs::path& dir);
  // Why the tasks' overruns fail the run, or empty when none did.
  std::string overrun_error() const;
  // The generated trace against the reference core's, the local checks, and the verdict.
  void compare(const fs::path& dir);
  // compare's generated trace against the high-accuracy solution (verify/accuracy.hpp), judged
  // with the user's tolerance where there is one (dir/accurate.csv).
  void check_accuracy(const fs::path& dir);

 private:
  void stage(const std::string& what) const;
  TaskPlan task_plan() const;
  void run_tasks(const fs::path& dir, const std::vector<std::string>& flags, std::string& script);
  void run_on_linux(const fs::path& dir, const std::vector<std::string>& flags, std::string& script);
  void run_on_cortex_m(const fs::path& dir, const std::vector<std::string>& flags, std::string& script);
  void compare_relinearized(const fs::path& dir);
  void check_locally(const std::vector<double>& state_scale, Trace generated, Trace next, Trace kept,
                     const TraceCarries& carries);

  const Model& model_;
  const VerifyOptions& o_;
  const SchemeInfo& info_;
  const CrossTarget* const cross_;  // null: the host
  const PartRate part_;
  // The run's constants rest on the Jacobian at the initial state or on a schedule, not on the
  // exact one: compared with the re-linearizing reference core too.
  const bool relinearized_compared_;
  const GenerateRequest request_;
  const Generation generation_;  // unjudged: verify measures what generate would refuse
  const SchemeDesign& design_;
  const ReferenceCore core_;
  // What the error amplification per step is taken from: the Jacobian of what the scheme
  // integrates (quasistatic: its reduced form, without the eliminated fast modes).
  const Eigen::MatrixXd j_;
  const int evaluations_;  // derivative evaluations per step
  const RunOptions run_;
  VerifyResult& r_;
  Trace reference_;
  Trace generated_;                      // the generated code's trace (states and outputs), once compare read it
  Trace relinearized_;                   // the re-linearizing reference core's run (relinearized_compared_)
  std::optional<MapRounding> rounding_;  // float only
  int tick_every_ = 0;                   // dual-rate tasks: the spacing of their tick rows (dir/ticks.csv), 0: none
};

Verification::Verification(const Model& model, const VerifyOptions& o, const SchemeInfo& info, const TargetPart& target,
                           VerifyResult& r)
    : model_(model),
      o_(o),
      info_(info),
      cross_(target.cross),
      part_(target.part),
      relinearized_compared_(model.simulation.linearization != Linearization::kExact &&
                             takes(info, model.simulation.linearization)),
      request_(o.generate),
      generation_(generate_code(model, {request_, false})),
      design_(generation_.design),
      core_(model),
      j_(info.hooks.analysed_jacobian ? info.hooks.analysed_jacobian(model)
                                      : core_.jacobian_at(0, core_.initial_state(), core_.inputs_at(0))),
      evaluations_(design_.evaluations > 0 ? design_.evaluations : info.traits.evaluations),
      run_(run_options(o, design_, info.traits.dual_rate)),
      r_(r) {
  if (!info.traits.dual_rate) {
    const StepCost cost = step_cost(model, request_, design_);
    r.ops_per_step = cost.ops.total();
    r.ops_bound = cost.bound.total();
  }
  r.tolerance =
      verify_tolerance(o.generate.scalar, r.steps, evaluations_,
                       o.generate.step * j_.cwiseAbs().rowwise().sum().maxCoeff(), info.verify.double_tolerance);
  r.tolerance_basis = o.generate.scalar == ScalarType::kDouble ? ToleranceBasis::kScheme : ToleranceBasis::kFirstOrder;
}

void Verification::stage(const std::string& what) const {
  if (o_.progress) o_.progress(what);
}

void Verification::run_programs(const fs::path& dir) {
  const std::string header = model_.name + ".hpp";
  stage(o_.header_file.empty() ? "generating " + header : "reading " + o_.header_file);
  write_file(dir / header, o_.header_file.empty() ? generation_.header.text : read_file(o_.header_file));
  const std::vector<std::string> flags = trace_flags(dir, header, model_, trace_writes(model_, run_));
  std::string script = "#!/bin/sh\n# How the trace program" + std::string(cross_ ? "s were" : " was") +
                       " built and run (" + std::to_string(r_.steps) + " steps, a row every " +
                       std::to_string(o_.every) + ")\n";
  for (const auto& f : portable_math_functions(called_functions(model_))) r_.portable_math_functions.push_back(f);
  if (info_.traits.dual_rate) {
    run_tasks(dir, flags, script);
  } else if (cross_ && cross_->linux_user) {
    run_on_linux(dir, flags, script);
  } else if (!cross_) {
    stage("building and running the trace program");
    r_.error = run_host_trace(dir, flags, false, "trace", "generated.csv", r_.steps, o_.every, script);
  } else {
    run_on_cortex_m(dir, flags, script);
  }
  write_file(dir / "build.sh", script);
}

TaskPlan Verification::task_plan() const {
  TaskPlan plan;
  plan.target = cross_;
  plan.macro_steps = r_.steps / o_.generate.ratio;
  plan.every = o_.every;
  plan.rows = task_trace_rows(r_.steps, o_.generate.ratio, o_.every);
  plan.slow_delay_ticks = o_.slow_delay_ticks;
  plan.slow_core = o_.slow_core;
  if (o_.icount_shift >= 0) plan.icount_shift = o_.icount_shift;
  plan.tick_cycles = o_.tick_cycles;
  plan.h = o_.generate.step;
  plan.ratio = o_.generate.ratio;
  plan.cpu_hz = part_.cpu_hz;
  plan.cpi = part_.cpi;
  // The emulated tick is h at the part's instruction rate.
  if (cross_ && !cross_->linux_user && plan.tick_cycles == 0)
    plan.tick_cycles =
        emulated_tick_cycles(*cross_, plan.h, plan.cpu_hz, plan.cpi, plan.icount_shift, o_.icount_shift >= 0);
  return plan;
}

void Verification::run_tasks(const fs::path& dir, const std::vector<std::string>& flags, std::string& script) {
  const TaskPlan plan = task_plan();
  TaskRun& run = r_.task_run.emplace();
  run.tasks = o_.tasks;
  run.overrun_handling = o_.generate.overrun_handling;
  if (cross_ && !cross_->linux_user) run.icount_shift = plan.icount_shift;
  stage(fmt::format("building and running the {} tasks{}", to_string(o_.tasks),
                    cross_ ? std::string(" on ") + cross_->name : std::string()));
  if (r_.steps % o_.generate.ratio != 0)
    r_.error = fmt::format("{} steps of h are not a whole number of slow steps H = {} h: choose t_end accordingly",
                           r_.steps, o_.generate.ratio);
  else
    r_.error = run_dual_rate(plan, o_.tasks, dir, flags, r_, script);
  if (r_.error.empty() && (!cross_ || cross_->linux_user) && run_.calibration.empty()) {
    stage("the tasks' state and outputs at every tick");
    tick_every_ = tick_every(r_.steps, o_.generate.ratio);
    r_.error = run_tick_rows(plan, tick_every_, dir, r_, script);
  }
}

void Verification::run_on_linux(const fs::path& dir, const std::vector<std::string>& flags, std::string& script) {
  stage("building and running the trace program on the host");
  r_.error = run_host_trace(dir, flags, true, "trace_host", "host.csv", r_.steps, o_.every, script);
  stage(fmt::format("building the trace program for {} and running it under qemu-aarch64", cross_->name));
  if (r_.error.empty()) r_.error = run_linux_trace(*cross_, dir, flags, r_.steps, o_.every, r_, script);
  if (r_.error.empty()) {
    // Reported, not enforced: the task runs on an emulated, non-real-time host.
    r_.budget = budget_of(*cross_, r_, o_.generate.step, 1, part_.cpu_hz, part_.cpi);
    r_.bit_exact_vs_host = read_file(dir / "generated.csv") == read_file(dir / "host.csv");
  }
}

void Verification::run_on_cortex_m(const fs::path& dir, const std::vector<std::string>& flags, std::string& script) {
  stage("building and running the trace program on the host");
  r_.error = run_host_trace(dir, flags, true, "trace_host", "host.csv", r_.steps, o_.every, script);
  stage(fmt::format("building the trace program for {} and running it under QEMU", cross_->name));
  if (r_.error.empty()) r_.error = run_on_target(*cross_, dir, flags, r_.steps, o_.every, r_, script);
  if (r_.error.empty() && r_.target_cost && r_.target_cost->instructions) {
    // Steps run back to back here, not in real time: the budget is reported, not enforced.
    r_.fast_job = JobCost{r_.target_cost->instructions->max, r_.target_cost->instructions->mean};
    r_.budget = budget_of(*cross_, r_, o_.generate.step, 1, part_.cpu_hz, part_.cpi);
  }
  if (r_.error.empty()) r_.bit_exact_vs_host = read_file(dir / "generated.csv") == read_file(dir / "host.csv");
}

void Verification::run_reference(const fs::path& dir) {
  try {
    stage("the reference core");
    reference_ = core_.simulate(run_);
    write_csv(reference_, (dir / "reference.csv").string());
    if (o_.generate.scalar == ScalarType::kFloat) {
      rounding_ = map_rounding(model_, core_, request_, design_, run_, j_, reference_, evaluations_);
      const std::optional<double> bound = rounding_ ? step_map_tolerance(*rounding_, r_.steps) : std::nullopt;
      if (bound) {
        r_.tolerance = *bound;
        r_.tolerance_basis = ToleranceBasis::kStepMap;
      }
    }
    if (relinearized_compared_ && r_.error.empty()) compare_relinearized(dir);
  } catch (const SimulationError& e) {
    r_.error += (r_.error.empty() ? "" : "\n") + std::string("reference core: ") + e.what();
  }
}

void Verification::compare_relinearized(const fs::path& dir) {
  RunOptions relinearizing = run_;
  relinearizing.linearization = Linearization::kExact;
  if (relinearizing.schedule) relinearizing.iterations = relinearizing.schedule->iterations;
  relinearizing.schedule = nullptr;
  relinearizing.design = nullptr;
  relinearized_ = core_.simulate(relinearizing);
  write_csv(relinearized_, (dir / "reference_relinearized.csv").string());
  r_.relinearized = RelinearizedComparison{
      model_.simulation.linearization, compare_traces(without_local_columns(read_csv((dir / "generated.csv").string())),
                                                      relinearized_, model_.states.size())
                                           .max_error};
}

std::string Verification::overrun_error() const {
  if (!r_.task_run || !r_.task_run->overran()) return "";
  const TaskRun& t = *r_.task_run;
  const bool periodic = t.tasks == Tasks::kPeriodic;
  if (cross_ && cross_->linux_user && slower_than_real_time(t))
    return fmt::format(
        "every {} overran ({} of {}): under qemu-aarch64 a step of {} instructions takes more "
        "than h = {:.6g} s, so the emulated run cannot keep its period; its real-time behaviour "
        "is for the board to show (the budget from the instruction count: utilization {:.3g} on "
        "{})",
        periodic ? "step of the periodic task" : "fast job", *t.fast_overruns, *t.ticks, r_.fast_job->instructions_max,
        o_.generate.step, r_.budget ? r_.budget->utilization : -1.0, cross_->part);
  if ((!cross_ || cross_->linux_user) && host_scheduling_noise(t))
    return fmt::format(
        "host scheduling noise, not the code: {} overruns{} in each of {} runs, with the {} "
        "thread waking a period or more late on {} ticks (up to {:.1f} ms); run it on a quieter "
        "host",
        *t.overruns, periodic ? "" : fmt::format(" ({} slow, {} fast)", *t.slow_overruns, *t.fast_overruns),
        t.noise_retries + 1, periodic ? "periodic" : "fast", *t.late_ticks,
        static_cast<double>(t.max_latency_ns.value_or(0)) / 1e6);
  if (periodic)
    return fmt::format("{} overruns: {} steps of the periodic task used more processor time than h = {:.6g} s",
                       *t.overruns, *t.overruns, o_.generate.step);
  return fmt::format(
      "{} overruns ({} slow, {} fast): {} (dualrate/dual_rate.hpp's {} policy), so the trace is "
      "not the scheme's result and is not compared",
      *t.overruns, *t.slow_overruns, *t.fast_overruns,
      o_.generate.overrun_handling == OverrunHandling::kDefer
          ? "a late slow job did not end within the next macro step and the "
            "fast task stopped waiting for it"
          : "slow releases were skipped",
      to_string(o_.generate.overrun_handling));
}

void Verification::compare(const fs::path& dir) {
  try {
    generated_ = without_local_columns(read_csv((dir / "generated.csv").string()));
    const Trace& generated = generated_;
    const Comparison c = compare_traces(generated, reference_, model_.states.size());
    r_.max_error = c.max_error;
    if (c.worst_column > 0) r_.worst_state = model_.states[c.worst_column - 1].name;
    r_.worst_time = c.worst_time;
    // The local check's columns: in the single-rate trace; for dual-rate tasks in the
    // sequential run's, whose other columns the preemptive run's equal (bit_exact_vs_single).
    Trace local = read_csv((info_.traits.dual_rate ? sequential_trace(dir, cross_) : dir / "generated.csv").string());
    Trace next = take_next_states(local);
    Trace kept = take_kept_values(local);
    const TraceCarries carries = take_carries(local);
    const bool checked = !next.columns.empty();
    if (checked) {
      stage("the local check");
      check_locally(c.scale, std::move(local), std::move(next), std::move(kept), carries);
    }
    if (!model_.outputs.empty()) {
      stage("the outputs' check");
      r_.outputs = check_outputs(generated, reference_, model_, core_, run_, request_.scalar == ScalarType::kFloat,
                                 r_.tolerance, c.scale);
    }
    if (tick_every_ > 0) {
      stage("the tasks' state and outputs at every tick");
      r_.tick_check =
          compare_tick_rows(read_csv((dir / "ticks.csv").string()), core_.tick_trace(run_, tick_every_), tick_every_);
    }
    const bool tasks_pass =
        !r_.task_run || (r_.task_run->bit_exact_vs_single.value_or(true) && !r_.task_run->overran());
    r_.pass = r_.max_error <= r_.tolerance && r_.bit_exact_vs_host.value_or(true) && tasks_pass &&
              (!checked || (r_.local->ratio <= 1 && r_.local->bias_ratio <= 1)) &&
              (!r_.exact_step || r_.exact_step->differing == 0) && (!r_.outputs || r_.outputs->pass()) &&
              (!r_.tick_check || r_.tick_check->pass());
  } catch (const std::runtime_error& e) {
    r_.error = e.what();
  }
}

// The local check (local_check.hpp) of the run into the result, relative to each state's
// `state_scale` (compare_traces'). Its tolerance per state: in double the scheme's bound, which one step's
// rounding (a few units of 2^-53 on either side) is far within; in float one step's rounding
// from the step map (the run's MapRounding, local_step_tolerance), or without a map (or
// VerifyPolicy::local_step_map false) the first-order bound of one step (verify_tolerance for
// no accumulation).
// Dual-rate tasks (`kept` not empty): each row restarts the reference core's macro step from
// the values the generated tasks keep at its release (ReferenceCore::macro_step), all rows but
// the last (the run ends at that release; it has no next one); in float the tolerance is the
// macro step's share of the step-map bound (its r substeps' roundings added up).
// A compensated float build (`carries`, dualrate/compensated_sum.hpp) is checked on what its
// sums hold, x - c: the reference step from x - c against x' - c' one step later.
// Then the exact step check (local_check.hpp) where ReferenceCore::exact_step_difference has
// no reason against it: a step (from x and the carries c of a compensated build), or for
// dual-rate tasks a macro step from the kept values.
void Verification::check_locally(const std::vector<double>& state_scale, Trace generated, Trace next, Trace kept,
                                 const TraceCarries& carries) {
  const auto n = static_cast<Eigen::Index>(model_.states.size());
  const Eigen::VectorXd scale = Eigen::Map<const Eigen::VectorXd>(state_scale.data(), n);
  // double: both sides hold the same constants, their roundings differ from step to step.
  LocalTolerance tolerance{Eigen::VectorXd::Constant(n, r_.tolerance), Eigen::VectorXd::Zero(n)};
  ToleranceBasis basis = ToleranceBasis::kScheme;
  if (request_.scalar == ScalarType::kFloat) {
    const std::optional<LocalTolerance> local = info_.verify.local_step_map && rounding_
                                                    ? std::optional<LocalTolerance>(local_step_tolerance(*rounding_))
                                                    : std::nullopt;
    basis = local ? ToleranceBasis::kStepMap : ToleranceBasis::kFirstOrder;
    // The first-order bound does not tell the constants' share: all of it may be the same every
    // step, so the bias bound is N times it (no tighter than each sample's).
    tolerance =
        local ? *local
              : LocalTolerance{Eigen::VectorXd::Zero(n),
                               Eigen::VectorXd::Constant(
                                   n, verify_tolerance(ScalarType::kFloat, 0, evaluations_,
                                                       request_.step * j_.cwiseAbs().rowwise().sum().maxCoeff()))};
  }
  const bool tasks = !kept.columns.empty();
  std::vector<long> samples;
  if (tasks) {
    for (Trace* t : {&generated, &next, &kept})
      if (!t->rows.empty()) t->rows.pop_back();
    for (const auto& row : generated.rows) samples.push_back(std::lround(row[0] / request_.step));
  } else {
    samples = sample_steps(r_.steps, run_.every);
  }
  const bool compensated = !carries.at_row.columns.empty();
  const Trace summed = compensated ? compensated_values(generated, carries.at_row) : Trace{};
  const Trace summed_next = compensated ? compensated_values(next, carries.next) : Trace{};
  const Trace& from = compensated ? summed : generated;
  const Trace& to = compensated ? summed_next : next;
  const ReferenceSteps expected = reference_steps(
      from, to, samples, tasks ? core_.macro_step(run_) : core_.single_step(run_), tasks ? &kept : nullptr);
  r_.local = LocalCheckResult{local_check(from, to, expected, tolerance, scale), basis};
  r_.exact_step_skipped = core_.exact_step_difference(run_);
  if (!r_.exact_step_skipped.empty()) return;
  const bool in_float = request_.scalar == ScalarType::kFloat;
  // In double the local check's reference steps are the build's arithmetic already, but for a
  // design with matrices or a schedule, which the exact step takes confirmed from the design.
  const bool own_constants = !design_.matrices.empty() || design_.schedule;
  if (compensated) kept = with_carries(generated, carries.at_row, model_.states.size());
  r_.exact_step =
      exact_step_check(generated, next,
                       in_float || (own_constants && !tasks)
                           ? reference_steps(generated, next, samples,
                                             tasks ? core_.macro_step_in_float(run_) : core_.exact_single_step(run_),
                                             tasks || compensated ? &kept : nullptr)
                           : expected,
                       in_float);
}

void Verification::check_accuracy(const fs::path& dir) {
  stage("the high-accuracy solution");
  r_.accuracy = measure_accuracy(core_, run_, generated_, relinearized_, model_,
                                 merged(model_.simulation.tolerance, o_.tolerance), (dir / "accurate.csv").string());
  if (r_.accuracy->judged())
    r_.accuracy->tolerance_source =
        tolerance_source(model_.simulation.tolerance, o_.tolerance, r_.accuracy->worst_state);
}

void Verification::check_calibrations(const fs::path& dir) {
  if (o_.calibration.empty()) return;
  const std::vector<CalibrationEvent> events =
      calibration_events(model_, run_.calibration, run_.step, run_.calibration_stride);
  for (const auto& e : events)
    r_.calibrations.push_back(
        {o_.calibration[e.write].at, e.step, o_.calibration[e.write].set, e.check.applied, e.check.reason});
  if (cross_ && cross_->linux_user) {
    r_.error =
        "calibration writes are verified on the host and on the Cortex-M targets, not on " + std::string(cross_->name);
    return;
  }
  std::vector<TraceCalibrationResult> results;
  // The trace program's output, or the sequential task run's (run_tasks: the trace file's name + .out).
  const fs::path output = info_.traits.dual_rate ? fs::path(sequential_trace(dir, cross_).string() + ".out")
                                                 : dir / (cross_ ? "target.txt" : "trace.log");
  if (!read_calibration_results(read_file(output), results) || results.size() != events.size()) {
    r_.error = fmt::format("the trace program reported {} calibration writes of {} ({})", results.size(), events.size(),
                           output.filename().string());
    return;
  }
  for (std::size_t i = 0; i < events.size(); ++i) {
    const bool applied = results[i].result == 0;
    if (results[i].step != events[i].step || applied != events[i].check.applied)
      r_.error = fmt::format(
          "calibration write {} (at {}): the generated code {} it at step {}, the reference core "
          "{} it at step {}{}",
          i + 1, o_.calibration[events[i].write].at, applied ? "applied" : "refused", results[i].step,
          events[i].check.applied ? "applied" : "refused", events[i].step,
          events[i].check.applied ? "" : " (" + events[i].check.reason + ")");
  }
}

VerifyResult verify_or_throw(const Model& model, const VerifyOptions& o) {
  VerifyResult r = result_for(model, o);
  r.steps = step_count(o.t_end, o.generate.step);
  r.t_end = static_cast<double>(r.steps) * o.generate.step;
  const SchemeInfo* info = find_scheme(r.scheme);
  if (!info) {
    r.error = "unknown scheme '" + r.scheme + "'";
    return r;
  }
  const TargetPart target = target_part(o.target, o.cpu_hz, o.cpi);
  if (o.target != "host" && !target.cross) {
    r.error = unknown_target_message(o.target);
    return r;
  }
  r.error = missing_portable_math(target.cross ? target.cross->name : "host");
  if (!r.error.empty()) return r;
  Verification v(model, o, *info, target, r);
  const WorkDirectory dir(o.keep_dir, "dualrate-verify");
  r.directory = dir.kept();
  v.run_programs(dir.path());
  if (r.error.empty()) v.check_calibrations(dir.path());
  v.run_reference(dir.path());
  if (r.error.empty()) r.error = v.overrun_error();
  if (r.error.empty()) v.compare(dir.path());
  if (r.error.empty()) v.check_accuracy(dir.path());
  return r;
}

}  // namespace

std::string header_mismatch(const std::string& text, const Model& model, const GenerateRequest& generate) {
  const HeaderBanner b = read_header_banner(text);
  if (!b.generated)
    return "not a header generated by dualrate (its first two lines are not those 'dualrate generate' writes)";
  std::vector<std::string> why;
  if (b.ns != model.name)
    why.push_back(
        fmt::format("it is generated for namespace '{}', not for model '{}' (regenerate it from {} without "
                    "--namespace)",
                    b.ns, model.name, model.file));
  if (b.scheme != generate.scheme)
    why.push_back(fmt::format("its scheme is {}, not {} (give --scheme {})", b.scheme, generate.scheme, b.scheme));
  if (std::fabs(b.step - generate.step) > 1e-12 * generate.step)
    why.push_back(
        fmt::format("its step is h = {:.17g}, not {:.17g} (give --step {:.17g})", b.step, generate.step, b.step));
  if (b.scalar != to_string(generate.scalar))
    why.push_back(
        fmt::format("its scalar is {}, not {} (give --scalar {})", b.scalar, to_string(generate.scalar), b.scalar));
  if (text.find(kInstanceBanner) != std::string::npos)
    why.push_back(
        "it is generated with --instances, and verify checks the code of one instance (regenerate it "
        "without --instances: each instance's code is the same)");
  return fmt::format("{}", fmt::join(why, "; "));
}

VerifyResult verify(const Model& model, const VerifyOptions& o) {
  try {
    return verify_or_throw(model, o);
  } catch (const ModelError&) {
    throw;  // reported at its place in the model file, exit status 1
  } catch (const std::exception& e) {
    VerifyResult r = result_for(model, o);
    r.error = std::string("verify stopped: ") + e.what();
    return r;
  }
}

}  // namespace dualrate
