// What a verify run reports (VerifyResult: its text and JSON).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/trace.hpp"
#include "model/model.hpp"
#include "verify/accuracy.hpp"
#include "verify/budget.hpp"
#include "verify/local_check.hpp"
#include "verify/output_check.hpp"
#include "verify/trace_comparison.hpp"

namespace dualrate {

// VerifyResult::tasks of a single-rate scheme run as one periodic task (cortex-a53-linux).
inline constexpr const char* kPeriodicTask = "periodic";

// A calibration write of the run's scenario (verify --calibration): when it applies, what it
// sets, and whether it is applied (the reference core's decision, which the generated code's
// recalibrate() matched, or the run has an error) or why not.
struct CalibrationRecord {
  double at = 0;
  long step = 0;
  std::vector<CalibrationValue> set;
  bool applied = false;
  std::string reason;
};

// Dual-rate tasks: their state and outputs before every `every`-th fast tick (DualRate::state()
// and outputs(): what an ECU reads between releases) against the reference core's
// (ReferenceCore::tick_trace), in the build's arithmetic, bit for bit.
struct TickCheck {
  long samples = 0, every = 1, differing = 0;
  double first_differing_time = 0;
  bool pass() const { return samples > 0 && differing == 0; }
};

struct VerifyResult {
  std::string model, scheme, target, scalar;
  long steps = 0;
  double t_end = 0;      // where the run ended: steps h (the first grid time at or past --t-end)
  double max_error = 0;  // max over samples and states of |gen - ref| / max(1, max_t |ref|)
  double tolerance = 0;
  // How the tolerance was derived: "scheme" (double: the scheme's own bound), "step map"
  // (float: map_float_tolerance) or "first order" (float: verify_tolerance's bound).
  std::string tolerance_basis;
  bool pass = false;
  std::string worst_state;
  double worst_time = 0;
  // The local check (verify/local_check.hpp; -1 when not run): over the samples and states the
  // largest ratio of one step's error to its tolerance, that error and tolerance (relative to
  // the state's scale, as max_error), where, and the tolerance's basis (as tolerance_basis).
  double local_ratio = -1, local_max_error = -1, local_tolerance = -1;
  std::string local_worst_state, local_tolerance_basis;
  double local_worst_time = 0;
  std::vector<double> local_times, local_ratios;  // per sample: time, largest ratio over the states
  // The local check's bias test (LocalCheck::bias_ratio): the largest ratio over the states of
  // the sum of the signed errors to its bound, and that state's sum and bound.
  double local_bias_ratio = -1, local_bias_sum = 0, local_bias_bound = 0;
  std::string local_bias_state;
  // The exact step check (verify/local_check.hpp), or why it was not made.
  std::optional<ExactStepCheck> exact_step;
  std::string exact_step_skipped;
  // The outputs' check (verify/output_check.hpp), when the model has outputs and the run was compared.
  std::optional<OutputCheck> outputs;
  // Dual-rate tasks on the host or a Linux target, without calibration writes: every tick.
  std::optional<TickCheck> tick_check;
  std::string error;      // why the run could not be compared, if it could not
  std::string directory;  // where the kept files are (empty when not kept)
  // Frozen or scheduled sp_ll: max_error against the re-linearizing reference core, and which.
  double relinearized_error = -1;
  std::string linearization{};
  // The generated trace against the high-accuracy solution, and the second verdict (accurate
  // or not) where a tolerance is given; absent when the run was not compared.
  std::optional<AccuracyCheck> accuracy;
  long ops_per_step = 0;                             // arithmetic operations of one step, counted by the generator
  long ops_bound = 0;                                // its lower bound (StepCost::bound)
  std::vector<std::string> portable_math_functions;  // elementary functions the generated header
                                                     // calls (step and scenario inputs), all
                                                     // computed by the portable libm
  // Cross targets only (-1 when not measured):
  int bit_exact_vs_host = -1;         // 1 when the target's trace equals the host build's bit for bit
  double instructions_per_step = -1;  // mean over the steps, under QEMU's instruction counting
  long instructions_min = -1, instructions_max = -1;
  long instructions_counted_steps = -1;  // cortex-a53-linux single-rate: the first steps counted (-1: all)
  long text_bytes = -1, data_bytes = -1, bss_bytes = -1, stack_bytes = -1;
  // Dual-rate schemes (-1 when not run):
  std::string tasks;             // single or multi (dual-rate tasks), or kPeriodicTask
  int bit_exact_vs_single = -1;  // multi: 1 when its trace equals the sequential executive's bit for bit
  long overruns = -1;            // multi: slow + fast overruns
  long slow_overruns = -1, fast_overruns = -1, ticks = -1, slow_jobs = -1, preempted_ticks = -1;
  std::string overrun_policy;          // dual-rate: skip or defer
  long deferred_releases = -1;         // releases deferred behind a late slow job (defer)
  long longest_wait = -1;              // most ticks the fast task waited for a late job's end points (defer)
  int fast_core = -1, slow_core = -1;  // the cores the dual-rate tasks ran on, as the task program reports them
  // Two cores under QEMU: ticks that came while the fast task's handler ran and the other core
  // ran within it (emulated cores share one clock; not a fast overrun on the part).
  long shared_overruns = -1;
  int sched_fifo = -1;       // Linux executives: 1 when the threads ran under SCHED_FIFO
  long late_ticks = -1;      // Linux: ticks the fast thread began a period or more late
  long max_latency_ns = -1;  // Linux: the fast thread's worst wake-up latency (platform, not overrun)
  // cortex-a53-linux: preemptive runs repeated because the host's scheduling, not the code,
  // made them overrun (overruns together with late wake-ups; kNoiseAttempts in all at most).
  int noise_retries = 0;
  int icount_shift = -1;  // Cortex-M: QEMU's -icount shift of the runs
  long tick_cycles = -1;  // Cortex-M: SysTick period in board cycles
  // Cortex-M: instructions per job, measured in the sequential run (dual-rate: the fast task's
  // ticks and the slow jobs; single-rate: the steps as the fast task), and the budget.
  JobCost fast_job, slow_job;
  std::optional<Budget> budget;
  // The scenario's calibration writes, and on Cortex-M the most instructions and stack of one
  // calibrate() over the run (a recalibration; -1 when not measured).
  std::vector<CalibrationRecord> calibrations;
  long calibration_instructions = -1, calibration_stack_bytes = -1;

  double instructions_per_op() const;  // 0 without an op count
  // Both verdicts: the code is the scheme (pass), and the answer is accurate where judged.
  bool pass_all() const { return pass && (!accuracy || accuracy->pass()); }

  // The object `dualrate verify --json` prints, on one line (its schema: result_json.hpp).
  std::string json() const;
  // The lines `dualrate verify` prints without --json.
  std::string text() const;
};

}  // namespace dualrate
