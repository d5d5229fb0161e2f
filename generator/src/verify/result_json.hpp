// verify's result as JSON: the one schema of the object `dualrate verify --json` prints
// (VerifyResult::json) and of what reads it back (a campaign's point). Declared on
// nlohmann/json_fwd.hpp so that including this stays light; the conversions are used with
// nlohmann/json.hpp (`nlohmann::ordered_json j = result;`, `j.get<VerifyResult>()`).
//
// The object is flat: the result's own fields and each part's keys in a fixed order, a part's
// keys only when it was measured. Numbers: the measured errors and tolerances to 7 significant
// digits, instruction means and latencies to 0.1, the budget's utilizations, margin and
// min_cpu_hz to 6, other numbers exactly; a count the program did not report within a part's group of
// keys that is written is -1. Not written: the local check's per-sample times and ratios, the
// handlers' instruction counts and the budget's verdict (it is in `error`). In order:
//   model, scheme, target, scalar, steps, t_end, max_error, tolerance, tolerance_basis, pass,
//   worst_state, worst_time;
//   the local check (LocalCheckResult): local_max_error, local_tolerance, local_ratio,
//   local_tolerance_basis, local_worst_state, local_worst_time, local_bias_ratio, local_bias_sum,
//   local_bias_bound, local_bias_state;
//   the exact step check: exact_step_samples, exact_step_differing and, when one differs,
//   exact_step_state, exact_step_time, exact_step_generated, exact_step_expected; or
//   exact_step_skipped;
//   the outputs' check (OutputCheck): output_ratio, output_max_error, output_tolerance,
//   worst_output, worst_output_time, output_samples, then output_exact_skipped and
//   output_local_ratio, _error, _tolerance, or output_differing and, when one differs,
//   output_differing_time, output_differing_output, output_generated, output_expected;
//   the tick check: tick_samples, tick_every, tick_differing, tick_first_differing_time (when one differs);
//   accuracy (an object: AccuracyCheck), error, directory;
//   the relinearized comparison: linearization and schedule_error (scheduled) or relinearized_max_error;
//   ops_per_step, ops_bound, instructions_per_op (with the target's instructions: derived, not
//   read back), bit_exact_vs_host, portable_math_functions;
//   the target's cost (TargetCost): instructions_per_step, instructions_per_step_min, _max;
//   instructions_counted_steps; text_bytes, data_bytes, bss_bytes; stack_bytes;
//   the tasks' run (TaskRun): tasks, bit_exact_vs_single; overruns, slow_overruns (dual-rate),
//   fast_overruns; ticks, slow_jobs and preempted_ticks (dual-rate); overrun_policy (dual-rate);
//   fast_task_core, slow_task_core, shared_overruns; deferred_releases, longest_wait_ticks;
//   sched_fifo, late_ticks, max_latency_us, noise_retries; icount_shift, tick_cycles;
//   fast_job_instructions_max, fast_job_instructions_mean, the same of slow_job (JobCost);
//   the budget (Budget): part, cpu_hz, cpi, interrupt_entry_exit_cycles, fast_job_cycles_max,
//   fast_overhead_cycles, fast_response_time, the slow task's three (dual-rate), utilization,
//   schedulable, margin, min_cpu_hz, cores (per core: core, tasks, utilization);
//   calibrations (per write: at, step, set, applied, reason when refused) and, measured,
//   calibration_instructions, calibration_stack_bytes.
// Each part's to_json writes its keys as the result's object has them (a job's without its
// task's prefix) and its from_json reads them from that object; a part is read where its first
// key is present.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "verify/verify.hpp"

namespace dualrate {

void to_json(nlohmann::ordered_json& j, const LocalCheckResult& l);
void from_json(const nlohmann::ordered_json& j, LocalCheckResult& l);
void to_json(nlohmann::ordered_json& j, const ExactStepCheck& e);
void from_json(const nlohmann::ordered_json& j, ExactStepCheck& e);
void to_json(nlohmann::ordered_json& j, const OutputCheck& o);
void from_json(const nlohmann::ordered_json& j, OutputCheck& o);
void to_json(nlohmann::ordered_json& j, const TickCheck& t);
void from_json(const nlohmann::ordered_json& j, TickCheck& t);
void to_json(nlohmann::ordered_json& j, const AccuracyCheck& a);
void from_json(const nlohmann::ordered_json& j, AccuracyCheck& a);
void to_json(nlohmann::ordered_json& j, const RelinearizedComparison& c);
void from_json(const nlohmann::ordered_json& j, RelinearizedComparison& c);
void to_json(nlohmann::ordered_json& j, const TargetCost& c);
void from_json(const nlohmann::ordered_json& j, TargetCost& c);
void to_json(nlohmann::ordered_json& j, const TaskRun& t);
void from_json(const nlohmann::ordered_json& j, TaskRun& t);
void to_json(nlohmann::ordered_json& j, const JobCost& c);
void from_json(const nlohmann::ordered_json& j, JobCost& c);
void to_json(nlohmann::ordered_json& j, const Budget& b);
void from_json(const nlohmann::ordered_json& j, Budget& b);
void to_json(nlohmann::ordered_json& j, const CalibrationRecord& c);
void from_json(const nlohmann::ordered_json& j, CalibrationRecord& c);
void to_json(nlohmann::ordered_json& j, const CalibrationCost& c);
void from_json(const nlohmann::ordered_json& j, CalibrationCost& c);

// The result's object: its fields and its parts'. A number written as null (JSON has no
// infinity: a trace with NaN has an infinite max_error) reads back as infinity.
void to_json(nlohmann::ordered_json& j, const VerifyResult& r);
void from_json(const nlohmann::ordered_json& j, VerifyResult& r);

}  // namespace dualrate
