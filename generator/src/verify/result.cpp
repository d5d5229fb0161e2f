// What a verify run reports: its text (its JSON: result_json.cpp).
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "verify/result.hpp"

namespace dualrate {

namespace {

// A line per calibration write, and the recalibration's cost where measured.
std::string calibration_text(const VerifyResult& r) {
  std::string s;
  for (const auto& c : r.calibrations) {
    std::string set;
    for (const auto& v : c.set) {
      std::string values;
      for (double x : v.values) values += fmt::format("{}{}", values.empty() ? "" : ", ", x);
      set += fmt::format("{}{} = {}", set.empty() ? "" : ", ", v.name, v.table ? "[" + values + "]" : values);
    }
    s += fmt::format(
        "calibration at {} (step {}): {}: {}\n", c.at, c.step, set,
        c.applied ? "applied by the generated code and the reference core" : "refused by both (" + c.reason + ")");
  }
  if (r.calibration_cost)
    s += fmt::format("recalibration on {}: {} instructions, stack {} bytes (the most of one calibrate())\n", r.target,
                     r.calibration_cost->instructions, r.calibration_cost->stack_bytes);
  return s;
}

// The outputs' check: against the reference run, and from the generated state.
std::string output_text(const OutputCheck& o, const std::string& scalar) {
  std::string s = fmt::format(
      "outputs (the states' tolerance carried through the output equations): max ratio "
      "{:.3g} at {}, t = {:.6g}: error {:.3e}, tolerance {:.3e}{}\n",
      o.ratio, o.worst_output, o.worst_time, o.max_error, o.tolerance, o.ratio <= 1 ? "" : " (FAIL)");
  if (!o.exact_skipped.empty())
    return s + fmt::format(
                   "outputs from the generated state: error {:.3e}, rounding bound {:.3e}: {:.3g} of it{} "
                   "(not bit for bit: {})\n",
                   o.local_error, o.local_tolerance, o.local_ratio, o.local_ratio <= 1 ? "" : " (FAIL)",
                   o.exact_skipped);
  const int digits = scalar == "float" ? 9 : 17;
  if (o.differing == 0)
    return s + fmt::format("outputs from the generated state, in {} arithmetic: {} rows, all equal bit for bit\n",
                           scalar, o.samples);
  return s + fmt::format(
                 "outputs from the generated state, in {} arithmetic: {} of {} rows differ (FAIL), the first "
                 "at t = {:.6g}: {} = {:.{}g}, the model's {:.{}g}\n",
                 scalar, o.differing, o.samples, o.differing_time, o.differing_output, o.generated, digits, o.expected,
                 digits);
}

// The dual-rate tasks' check at every tick (TickCheck).
std::string tick_text(const TickCheck& c, const std::string& scalar) {
  std::string s = fmt::format(
      "{} (the tasks' state and outputs before the fast task, against the reference core's, in {} arithmetic): ",
      c.every == 1 ? "every tick" : fmt::format("every {}th tick", c.every), scalar);
  return s + (c.differing == 0 ? fmt::format("{} ticks, all equal bit for bit\n", c.samples)
                               : fmt::format("{} of {} ticks differ, the first at t = {:.6g} (FAIL)\n", c.differing,
                                             c.samples, c.first_differing_time));
}

// The target's cost of a step: a Cortex-M program's with its sections and stack, a Linux
// program's counted under qemu-aarch64 without them. What a program did not report prints as -1,
// as in the JSON.
std::string cost_text(const VerifyResult& r) {
  if (!r.target_cost || !r.target_cost->instructions) return "";
  const TargetCost& c = *r.target_cost;
  const StepInstructions& i = *c.instructions;
  if (c.sections)
    return fmt::format(
        "cost on {}: {:.1f} instructions per step (min {}, max {}), {} arithmetic ops per step "
        "(lower bound {}; {:.2f} instructions per op), stack {} bytes; program text {} B, data "
        "{} B, bss {} B\n",
        r.target, i.mean, i.min.value_or(-1), i.max, r.ops_per_step, r.ops_bound, i.per_op(r.ops_per_step),
        c.stack_bytes.value_or(-1), c.sections->text, c.sections->data, c.sections->bss);
  return fmt::format(
      "cost on {}: {:.1f} instructions per step (max {}), {} arithmetic ops per step (lower bound "
      "{}; {:.2f} instructions per op)\n",
      r.target, i.mean, i.max, r.ops_per_step, r.ops_bound, i.per_op(r.ops_per_step));
}

// The tasks' lines: against the sequential run, deferred releases. A count the task program did
// not report prints as -1, as in the JSON.
std::string tasks_text(const TaskRun& t) {
  std::string s;
  const auto count = [](const std::optional<long>& n) { return n.value_or(-1); };
  if (t.bit_exact_vs_single && t.tasks == Tasks::kPeriodic)
    s += fmt::format("periodic task: its run {} the back-to-back one; {} steps, overruns {}\n",
                     *t.bit_exact_vs_single ? "equals bit for bit" : "DIFFERS from", count(t.ticks), count(t.overruns));
  else if (t.bit_exact_vs_single)
    s += fmt::format(
        "tasks: preemptive run {} the sequential one; {} ticks, {} slow jobs, {} ticks preempted "
        "a slow job; overruns {} (slow {}, fast {})\n",
        *t.bit_exact_vs_single ? "equals bit for bit" : "DIFFERS from", count(t.ticks), count(t.slow_jobs),
        count(t.preempted_ticks), count(t.overruns), count(t.slow_overruns), count(t.fast_overruns));
  if (t.deferred_releases.value_or(0) > 0)
    s += fmt::format(
        "deferred releases: {} (a slow job still ran at the next release; the next job ran "
        "right after it on its grid snapshot, and the fast task waited up to {} ticks for the "
        "late end points: its outputs were that late, the state is the scheme's)\n",
        *t.deferred_releases, count(t.longest_wait));
  return s;
}

}  // namespace

std::string VerifyResult::text() const {
  std::string s = fmt::format(
      "{} {} on {} ({}), {} steps: the code against the scheme's reference core: max_error "
      "{:.3e}, tolerance {:.3e}{}: {}\n",
      model, scheme, target, scalar, steps, max_error, tolerance,
      worst_state.empty() ? "" : fmt::format(" (worst: {} at t = {:.6g})", worst_state, worst_time),
      pass ? "PASS" : "FAIL");
  if (accuracy) s += accuracy_text(*accuracy, relinearized ? to_string(relinearized->linearization) : "");
  if (local)
    s += fmt::format(
        "local check (one step from the generated state at each sample): error {:.3e}, tolerance "
        "{:.3e} ({}) at {}, t = {:.6g}: {:.3g} of the tolerance{}\n"
        "local check, bias (the signed errors of {} samples summed): {:.3e} at {} against {:.3e}: {:.3g} "
        "of it{}\n",
        local->max_error, local->tolerance, to_string(local->tolerance_basis), local->worst_state, local->worst_time,
        local->ratio, local->ratio <= 1 ? "" : " (FAIL)", local->ratios.size(), local->bias_sum, local->bias_state,
        local->bias_bound, local->bias_ratio, local->bias_ratio <= 1 ? "" : " (FAIL)");
  if (exact_step) {
    s += fmt::format(
        "exact step check (the reference core's step in {} arithmetic from the generated state at each "
        "sample): ",
        scalar);
    const int digits = scalar == "float" ? 9 : 17;  // enough to tell the values apart
    s += exact_step->differing == 0
             ? fmt::format("{} samples, all equal bit for bit\n", exact_step->samples)
             : fmt::format(
                   "{} of {} samples differ; the first at t = {:.6g}, {}: {:.{}g} generated, {:.{}g} "
                   "expected (FAIL)\n",
                   exact_step->differing, exact_step->samples, exact_step->time, exact_step->state,
                   exact_step->generated, digits, exact_step->expected, digits);
  } else if (!exact_step_skipped.empty())
    s += "exact step check: not made, " + exact_step_skipped + "\n";
  if (outputs) s += output_text(*outputs, scalar);
  if (tick_check) s += tick_text(*tick_check, scalar);
  if (relinearized && !accuracy)
    s += fmt::format("{} linearization: max_error against the re-linearizing reference core {:.3e}{}\n",
                     to_string(relinearized->linearization), relinearized->max_error,
                     relinearized->linearization == Linearization::kScheduled ? " (schedule_error)" : "");
  if (bit_exact_vs_host)
    s += fmt::format("host build, same code and flags: {}\n", *bit_exact_vs_host ? "bit for bit equal" : "differs");
  s += cost_text(*this);
  if (task_run) s += tasks_text(*task_run);
  if (budget) {
    const Budget& b = *budget;
    s += fmt::format(
        "budget on {} at {:.6g} MHz, CPI {:.3g} (an estimate): fast job {:.0f} cycles, response "
        "{:.4g} us{}; utilization {:.3g}; {} (margin {:.3g}; smallest clock {:.4g} MHz)\n",
        b.part, b.cpu_hz / 1e6, b.cpi, b.fast_cycles_max, b.fast_response * 1e6,
        b.slow_cycles_max
            ? fmt::format("; slow job {:.0f} cycles, response {:.4g} us", *b.slow_cycles_max, *b.slow_response * 1e6)
            : "",
        b.utilization, b.schedulable ? "schedulable" : "NOT schedulable", b.margin, b.min_cpu_hz / 1e6);
  }
  s += calibration_text(*this);
  if (!directory.empty()) s += "kept in " + directory + "\n";
  return s;
}

}  // namespace dualrate
