#include "verify/verify.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <utility>

#include "analysis/stability.hpp"
#include "base/process.hpp"
#include "base/text_io.hpp"
#include "emit/cpp_emitter.hpp"
#include "ir/op_count.hpp"
#include "schemes/reference_core.hpp"
#include "schemes/registry.hpp"
#include "targets/build.hpp"
#include "targets/cross_target.hpp"
#include "verify/local_check.hpp"
#include "verify/programs.hpp"
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

VerifyResult verify_or_throw(const Model& model, const VerifyOptions& o);

// The local check (local_check.hpp) of a run into r, relative to each state's `scale`
// (compare_traces'). Its tolerance per state: in double the scheme's bound, which one step's
// rounding (a few units of 2^-53 on either side) is far within; in float one step's rounding
// from the step map (`rounding`, local_step_tolerance), or without a map (or
// SchemeInfo::local_step_map false) the first-order bound of one step (verify_tolerance for
// no accumulation).
// Dual-rate tasks (`kept` not empty): each row restarts the reference core's macro step from
// the values the generated tasks keep at its release (ReferenceCore::macro_step), all rows but
// the last (the run ends at that release; it has no next one); in float the tolerance is the
// macro step's share of the step-map bound (its r substeps' roundings added up).
// Then the exact step check (local_check.hpp) where ReferenceCore::exact_step_difference has
// no reason against it, single-rate runs only (the macro step is computed otherwise).
void check_locally(const Model& model, const SchemeInfo& info, const ReferenceCore& core, const GenerateOptions& generate,
                   const Eigen::MatrixXd& j, int evaluations, const RunOptions& run, const MapRounding* rounding,
                   const std::vector<double>& state_scale, Trace generated, Trace next, Trace kept, VerifyResult& r) {
  const auto n = static_cast<Eigen::Index>(model.states.size());
  const Eigen::VectorXd scale = Eigen::Map<const Eigen::VectorXd>(state_scale.data(), n);
  // double: both sides hold the same constants, their roundings differ from step to step.
  LocalTolerance tolerance{Eigen::VectorXd::Constant(n, r.tolerance), Eigen::VectorXd::Zero(n)};
  r.local_tolerance_basis = "scheme";
  if (generate.scalar == ScalarType::kFloat) {
    const std::optional<LocalTolerance> local =
        info.local_step_map && rounding ? std::optional<LocalTolerance>(local_step_tolerance(*rounding)) : std::nullopt;
    r.local_tolerance_basis = local ? "step map" : "first order";
    // The first-order bound does not tell the constants' share: all of it may be the same every
    // step, so the bias bound is N times it (no tighter than each sample's).
    tolerance = local ? *local
                      : LocalTolerance{Eigen::VectorXd::Zero(n),
                                       Eigen::VectorXd::Constant(n, verify_tolerance(ScalarType::kFloat, 0, evaluations,
                                                                                     generate.step * j.cwiseAbs().rowwise().sum().maxCoeff()))};
  }
  const bool tasks = !kept.columns.empty();
  std::vector<long> samples;
  if (tasks) {
    for (Trace* t : {&generated, &next, &kept})
      if (!t->rows.empty()) t->rows.pop_back();
    for (const auto& row : generated.rows) samples.push_back(std::lround(row[0] / generate.step));
  } else {
    samples = sample_steps(r.steps, run.every);
  }
  const ReferenceSteps expected =
      reference_steps(generated, next, samples, tasks ? core.macro_step(run) : core.single_step(run), tasks ? &kept : nullptr);
  const LocalCheck c = local_check(generated, next, expected, tolerance, scale);
  r.local_ratio = c.ratio;
  r.local_max_error = c.max_error;
  r.local_tolerance = c.tolerance;
  r.local_worst_state = c.worst_state;
  r.local_worst_time = c.worst_time;
  r.local_times = c.times;
  r.local_ratios = c.ratios;
  r.local_bias_ratio = c.bias_ratio;
  r.local_bias_sum = c.bias_sum;
  r.local_bias_bound = c.bias_bound;
  r.local_bias_state = c.bias_state;
  r.exact_step_skipped = core.exact_step_difference(run);
  if (r.exact_step_skipped.empty() && tasks)
    r.exact_step_skipped = "the reference core's macro step of the dual-rate tasks is not the tasks' operations";
  if (!r.exact_step_skipped.empty()) return;
  const bool in_float = generate.scalar == ScalarType::kFloat;
  // In double the local check's reference steps are the build's arithmetic already.
  r.exact_step = exact_step_check(
      generated, next, in_float ? reference_steps(generated, next, samples, core.single_step_in_float(run)) : expected,
      in_float);
}

}  // namespace

std::string header_mismatch(const std::string& text, const Model& model, const GenerateOptions& generate) {
  const HeaderBanner b = read_header_banner(text);
  if (!b.generated)
    return "not a header generated by dualrate (its first two lines are not those 'dualrate generate' writes)";
  std::vector<std::string> why;
  if (b.ns != model.name)
    why.push_back(fmt::format("it is generated for namespace '{}', not for model '{}' (regenerate it from {} without "
                              "--namespace)",
                              b.ns, model.name, model.file));
  if (b.scheme != generate.scheme)
    why.push_back(fmt::format("its scheme is {}, not {} (give --scheme {})", b.scheme, generate.scheme, b.scheme));
  if (std::fabs(b.step - generate.step) > 1e-12 * generate.step)
    why.push_back(fmt::format("its step is h = {:.17g}, not {:.17g} (give --step {:.17g})", b.step, generate.step,
                              b.step));
  if (b.scalar != to_string(generate.scalar))
    why.push_back(fmt::format("its scalar is {}, not {} (give --scalar {})", b.scalar, to_string(generate.scalar),
                              b.scalar));
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

namespace {

VerifyResult verify_or_throw(const Model& model, const VerifyOptions& o) {
  VerifyResult r = result_for(model, o);
  r.steps = step_count(o.t_end, o.generate.step);
  r.t_end = static_cast<double>(r.steps) * o.generate.step;
  const SchemeInfo* info = find_scheme(r.scheme);
  if (!info) {
    r.error = "unknown scheme '" + r.scheme + "'";
    return r;
  }
  const CrossTarget* cross = find_cross_target(o.target);
  const PartRate part = cross ? part_rate(*cross, o.cpu_hz, o.cpi) : PartRate{0, 1};
  const double cpu_hz = part.cpu_hz, cpi = part.cpi;
  if (o.target != "host" && !cross) {
    r.error = unknown_target_message(o.target);
    return r;
  }
  const bool frozen = o.frozen && info->linearization;
  GenerateOptions generate = o.generate;
  generate.t_end = o.t_end;
  precompute_scheme(model, frozen, generate);
  if (!info->dual_rate) {
    const StepCost cost = step_cost(model, generate);
    r.ops_per_step = cost.ops.total();
    r.ops_bound = cost.bound.total();
  }
  const ReferenceCore core(model);
  // The error amplification per step is that of what the scheme integrates (quasistatic: its
  // reduced form, without the eliminated fast modes).
  const Eigen::MatrixXd j = info->analysed_jacobian ? info->analysed_jacobian(model)
                                                    : core.jacobian_at(0, core.initial_state(), core.inputs_at(0));
  const int evaluations = generate.evaluations > 0 ? generate.evaluations : info->evaluations;
  r.tolerance = verify_tolerance(o.generate.scalar, r.steps, evaluations,
                                 o.generate.step * j.cwiseAbs().rowwise().sum().maxCoeff(), info->double_tolerance);
  r.tolerance_basis = o.generate.scalar == ScalarType::kDouble ? "scheme" : "first order";
  const bool keep = !o.keep_dir.empty();
  const fs::path dir = keep ? fs::path(o.keep_dir) : fs::path(make_temp_dir("dualrate-verify"));
  fs::create_directories(dir);
  if (keep) r.directory = fs::absolute(dir).string();

  const auto stage = [&o](const std::string& what) {
    if (o.progress) o.progress(what);
  };
  const std::string header = model.name + ".hpp";
  stage(o.header_file.empty() ? "generating " + header : "reading " + o.header_file);
  write_file(dir / header, o.header_file.empty() ? generate_header(model, generate) : read_file(o.header_file));
  const std::vector<std::string> flags = trace_flags(dir, header, model);
  std::string script = "#!/bin/sh\n# How the trace program" + std::string(cross ? "s were" : " was") +
                       " built and run (" + std::to_string(r.steps) + " steps, a row every " +
                       std::to_string(o.every) + ")\n";
  for (const auto& f : portable_math_functions(called_functions(model))) r.portable_math_functions.push_back(f);
  if (info->dual_rate) {
    TaskPlan plan;
    plan.target = cross;
    plan.macro_steps = r.steps / o.generate.ratio;
    plan.every = o.every;
    plan.rows = task_trace_rows(r.steps, o.generate.ratio, o.every);
    plan.slow_delay_ticks = o.slow_delay_ticks;
    plan.slow_core = o.slow_core;
    if (o.icount_shift >= 0) plan.icount_shift = o.icount_shift;
    plan.tick_cycles = o.tick_cycles;
    plan.h = o.generate.step;
    plan.ratio = o.generate.ratio;
    plan.cpu_hz = cpu_hz;
    plan.cpi = cpi;
    // The emulated tick is h at the part's instruction rate.
    if (cross && !cross->linux_user && plan.tick_cycles == 0)
      plan.tick_cycles = emulated_tick_cycles(*cross, plan.h, plan.cpu_hz, plan.cpi, plan.icount_shift, o.icount_shift >= 0);
    r.tasks = o.tasks;
    r.overrun_policy = o.generate.defer_overruns ? "defer" : "skip";
    if (cross && !cross->linux_user) r.icount_shift = plan.icount_shift;
    stage(fmt::format("building and running the {} tasks{}", o.tasks, cross ? std::string(" on ") + cross->name : std::string()));
    if (r.steps % o.generate.ratio != 0)
      r.error = fmt::format("{} steps of h are not a whole number of slow steps H = {} h: choose t_end accordingly",
                            r.steps, o.generate.ratio);
    else
      r.error = run_dual_rate(plan, o.tasks, dir, flags, r, script);
  } else if (cross && cross->linux_user) {
    stage("building and running the trace program on the host");
    r.error = run_host_trace(dir, flags, true, "trace_host", "host.csv", r.steps, o.every, script);
    stage(fmt::format("building the trace program for {} and running it under qemu-aarch64", cross->name));
    if (r.error.empty()) r.error = run_linux_trace(*cross, dir, flags, r.steps, o.every, r, script);
    if (r.error.empty()) {
      // Reported, not enforced: the task runs on an emulated, non-real-time host.
      r.budget = budget_of(*cross, r, o.generate.step, 1, cpu_hz, cpi);
      r.bit_exact_vs_host = read_file(dir / "generated.csv") == read_file(dir / "host.csv") ? 1 : 0;
    }
  } else if (!cross) {
    stage("building and running the trace program");
    r.error = run_host_trace(dir, flags, false, "trace", "generated.csv", r.steps, o.every, script);
  } else {
    stage("building and running the trace program on the host");
    r.error = run_host_trace(dir, flags, true, "trace_host", "host.csv", r.steps, o.every, script);
    stage(fmt::format("building the trace program for {} and running it under QEMU", cross->name));
    if (r.error.empty()) r.error = run_on_target(*cross, dir, flags, r.steps, o.every, r, script);
    if (r.error.empty() && r.instructions_max >= 0) {
      // Steps run back to back here, not in real time: the budget is reported, not enforced.
      r.fast_job = {r.instructions_max, r.instructions_per_step};
      r.budget = budget_of(*cross, r, o.generate.step, 1, cpu_hz, cpi);
    }
    if (r.error.empty()) r.bit_exact_vs_host = read_file(dir / "generated.csv") == read_file(dir / "host.csv") ? 1 : 0;
  }
  write_file(dir / "build.sh", script);
  Trace reference;
  std::optional<MapRounding> rounding;  // float only
  RunOptions run{o.generate.scheme, o.generate.step, o.t_end, o.every};
  run.scheme_options = o.generate.scheme_options;
  run.frozen_linearization = frozen;
  run.schedule = generate.schedule;
  run.ratio = o.generate.ratio;
  run.float_time = o.generate.scalar == ScalarType::kFloat;
  try {
    stage("the reference core");
    reference = core.simulate(run);
    write_csv(reference, (dir / "reference.csv").string());
    if (o.generate.scalar == ScalarType::kFloat) {
      rounding = map_rounding(model, core, generate, run, j, reference, evaluations);
      const std::optional<double> bound = rounding ? step_map_tolerance(*rounding, r.steps) : std::nullopt;
      if (bound) {
        r.tolerance = *bound;
        r.tolerance_basis = "step map";
      }
    }
    if ((frozen || generate.schedule) && r.error.empty()) {
      r.linearization = frozen ? "frozen" : "scheduled";
      RunOptions relinearizing = run;
      relinearizing.frozen_linearization = false;
      if (relinearizing.schedule) relinearizing.iterations = relinearizing.schedule->iterations;
      relinearizing.schedule = nullptr;
      const Trace relinearized = core.simulate(relinearizing);
      write_csv(relinearized, (dir / "reference_relinearized.csv").string());
      r.relinearized_error =
          compare_traces(without_local_columns(read_csv((dir / "generated.csv").string())), relinearized,
                         model.states.size())
              .max_error;
    }
  } catch (const SimulationError& e) {
    r.error += (r.error.empty() ? "" : "\n") + std::string("reference core: ") + e.what();
  }
  const bool periodic = r.tasks == kPeriodicTask;
  const std::string which_overruns =
      periodic ? "" : fmt::format(" ({} slow, {} fast)", r.slow_overruns, r.fast_overruns);
  if (r.error.empty() && r.overruns > 0 && cross && cross->linux_user && slower_than_real_time(r))
    r.error = fmt::format("every {} overran ({} of {}): under qemu-aarch64 a step of {} instructions takes more "
                          "than h = {:.6g} s, so the emulated run cannot keep its period; its real-time behaviour "
                          "is for the board to show (the budget from the instruction count: utilization {:.3g} on "
                          "{})",
                          periodic ? "step of the periodic task" : "fast job", r.fast_overruns, r.ticks,
                          r.fast_job.instructions_max, o.generate.step, r.budget ? r.budget->utilization : -1.0,
                          cross->part);
  else if (r.error.empty() && r.overruns > 0 && (!cross || cross->linux_user) && host_scheduling_noise(r))
    r.error = fmt::format("host scheduling noise, not the code: {} overruns{} in each of {} runs, with the {} "
                          "thread waking a period or more late on {} ticks (up to {:.1f} ms); run it on a quieter "
                          "host",
                          r.overruns, which_overruns, r.noise_retries + 1, periodic ? "periodic" : "fast",
                          r.late_ticks, static_cast<double>(r.max_latency_ns) / 1e6);
  else if (r.error.empty() && r.overruns > 0 && periodic)
    r.error = fmt::format("{} overruns: {} steps of the periodic task used more processor time than h = {:.6g} s",
                          r.overruns, r.overruns, o.generate.step);
  else if (r.error.empty() && r.overruns > 0)
    r.error = fmt::format("{} overruns ({} slow, {} fast): {} (dualrate/dual_rate.hpp's {} policy), so the trace is "
                          "not the scheme's result and is not compared",
                          r.overruns, r.slow_overruns, r.fast_overruns,
                          o.generate.defer_overruns ? "a late slow job did not end within the next macro step and the "
                                                      "fast task stopped waiting for it"
                                                    : "slow releases were skipped",
                          r.overrun_policy);
  if (r.error.empty()) {
    try {
      const Trace generated = without_local_columns(read_csv((dir / "generated.csv").string()));
      const Comparison c = compare_traces(generated, reference, model.states.size());
      r.max_error = c.max_error;
      if (c.worst_column > 0) r.worst_state = model.states[c.worst_column - 1].name;
      r.worst_time = c.worst_time;
      // The local check's columns: in the single-rate trace; for dual-rate tasks in the
      // sequential run's, whose other columns the preemptive run's equal (bit_exact_vs_single).
      Trace local = read_csv((info->dual_rate ? sequential_trace(dir, cross) : dir / "generated.csv").string());
      Trace next = take_next_states(local);
      Trace kept = take_kept_values(local);
      const bool checked = !next.columns.empty();
      if (checked) {
        stage("the local check");
        check_locally(model, *info, core, generate, j, evaluations, run, rounding ? &*rounding : nullptr, c.scale,
                      std::move(local), std::move(next), std::move(kept), r);
      }
      r.pass = r.max_error <= r.tolerance && r.bit_exact_vs_host != 0 && r.bit_exact_vs_single != 0 &&
               r.overruns <= 0 && (!checked || (r.local_ratio <= 1 && r.local_bias_ratio <= 1)) &&
               (!r.exact_step || r.exact_step->differing == 0);
    } catch (const std::runtime_error& e) {
      r.error = e.what();
    }
  }
  if (!keep) fs::remove_all(dir);
  return r;
}

}  // namespace

}  // namespace dualrate
