// What a verify run reports: its text (its JSON: result_json.cpp).
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "verify/result.hpp"

namespace dualrate {

double VerifyResult::instructions_per_op() const {
  return ops_per_step > 0 ? instructions_per_step / static_cast<double>(ops_per_step) : 0.0;
}

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
  if (r.calibration_instructions >= 0)
    s += fmt::format("recalibration on {}: {} instructions, stack {} bytes (the most of one calibrate())\n", r.target,
                     r.calibration_instructions, r.calibration_stack_bytes);
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

// The target run's lines: its cost, its tasks against the sequential run, deferred releases.
std::string target_run_text(const VerifyResult& r) {
  std::string s;
  if (r.instructions_per_step >= 0 && r.text_bytes >= 0)
    s += fmt::format(
        "cost on {}: {:.1f} instructions per step (min {}, max {}), {} arithmetic ops per step "
        "(lower bound {}; {:.2f} instructions per op), stack {} bytes; program text {} B, data "
        "{} B, bss {} B\n",
        r.target, r.instructions_per_step, r.instructions_min, r.instructions_max, r.ops_per_step, r.ops_bound,
        r.instructions_per_op(), r.stack_bytes, r.text_bytes, r.data_bytes, r.bss_bytes);
  else if (r.instructions_per_step >= 0)  // a Linux program: counted under qemu-aarch64, no sizes or stack
    s += fmt::format(
        "cost on {}: {:.1f} instructions per step (max {}), {} arithmetic ops per step (lower bound "
        "{}; {:.2f} instructions per op)\n",
        r.target, r.instructions_per_step, r.instructions_max, r.ops_per_step, r.ops_bound, r.instructions_per_op());
  if (r.bit_exact_vs_single >= 0 && r.tasks == kPeriodicTask)
    s += fmt::format("periodic task: its run {} the back-to-back one; {} steps, overruns {}\n",
                     r.bit_exact_vs_single ? "equals bit for bit" : "DIFFERS from", r.ticks, r.overruns);
  else if (r.bit_exact_vs_single >= 0)
    s += fmt::format(
        "tasks: preemptive run {} the sequential one; {} ticks, {} slow jobs, {} ticks preempted "
        "a slow job; overruns {} (slow {}, fast {})\n",
        r.bit_exact_vs_single ? "equals bit for bit" : "DIFFERS from", r.ticks, r.slow_jobs, r.preempted_ticks,
        r.overruns, r.slow_overruns, r.fast_overruns);
  if (r.deferred_releases > 0)
    s += fmt::format(
        "deferred releases: {} (a slow job still ran at the next release; the next job ran "
        "right after it on its grid snapshot, and the fast task waited up to {} ticks for the "
        "late end points: its outputs were that late, the state is the scheme's)\n",
        r.deferred_releases, r.longest_wait);
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
  if (accuracy) s += accuracy_text(*accuracy, linearization);
  if (local_ratio >= 0)
    s += fmt::format(
        "local check (one step from the generated state at each sample): error {:.3e}, tolerance "
        "{:.3e} ({}) at {}, t = {:.6g}: {:.3g} of the tolerance{}\n",
        local_max_error, local_tolerance, local_tolerance_basis, local_worst_state, local_worst_time, local_ratio,
        local_ratio <= 1 ? "" : " (FAIL)");
  if (local_bias_ratio >= 0)
    s += fmt::format(
        "local check, bias (the signed errors of {} samples summed): {:.3e} at {} against {:.3e}: {:.3g} "
        "of it{}\n",
        local_ratios.size(), local_bias_sum, local_bias_state, local_bias_bound, local_bias_ratio,
        local_bias_ratio <= 1 ? "" : " (FAIL)");
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
  if (relinearized_error >= 0 && !accuracy)
    s += fmt::format("{} linearization: max_error against the re-linearizing reference core {:.3e}{}\n", linearization,
                     relinearized_error, linearization == "scheduled" ? " (schedule_error)" : "");
  if (bit_exact_vs_host >= 0)
    s += fmt::format("host build, same code and flags: {}\n", bit_exact_vs_host ? "bit for bit equal" : "differs");
  s += target_run_text(*this);
  if (budget) {
    const Budget& b = *budget;
    s += fmt::format(
        "budget on {} at {:.6g} MHz, CPI {:.3g} (an estimate): fast job {:.0f} cycles, response "
        "{:.4g} us{}; utilization {:.3g}; {} (margin {:.3g}; smallest clock {:.4g} MHz)\n",
        b.part, b.cpu_hz / 1e6, b.cpi, b.fast_cycles_max, b.fast_response * 1e6,
        b.slow_cycles_max >= 0
            ? fmt::format("; slow job {:.0f} cycles, response {:.4g} us", b.slow_cycles_max, b.slow_response * 1e6)
            : "",
        b.utilization, b.schedulable ? "schedulable" : "NOT schedulable", b.margin, b.min_cpu_hz / 1e6);
  }
  s += calibration_text(*this);
  if (!directory.empty()) s += "kept in " + directory + "\n";
  return s;
}

}  // namespace dualrate
