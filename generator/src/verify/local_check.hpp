// verify's local check, beside the accumulated one (issue 34): at each compared sample the
// reference core takes one step from the generated code's own state there (its values, exactly
// converted to double), with the inputs that step holds, and the generated code's state one
// step later must agree within the rounding of that one step (local_step_tolerance). Rounding
// carried through many steps of a lightly damped model widens the accumulated check's
// tolerance; the local check's does not grow with the run, so a defect that moves every step
// by more than one step's rounding fails it however long the run.
#pragma once

#include <Eigen/Dense>

#include <functional>
#include <string>
#include <vector>

#include "base/trace.hpp"

namespace dualrate {

// The columns next:<state> of a trace program's trace (the state one step, or for dual-rate
// tasks one macro step, after each row), removed from `trace` and returned as a trace of their
// own (columns named after the states). Empty when the trace has none.
Trace take_next_states(Trace& trace);
// The columns kept:<i> of a dual-rate task trace (what the tasks keep at each row's release),
// removed from `trace` and returned as a trace of their own; empty when it has none.
Trace take_kept_values(Trace& trace);
// The trace without either, as the reference core writes it.
Trace without_local_columns(Trace trace);
// The text of a CSV trace without those columns (which come last in each line): a
// preemptive task run's trace, which has none, must equal the sequential run's in the others.
std::string trace_text_without_local_columns(const std::string& text);

struct LocalCheck {
  // Over the samples and states, the largest ratio of error to tolerance, both relative to the
  // state's scale (compare_traces'), and the error and tolerance where it is largest.
  double ratio = 0;
  double max_error = 0;
  double tolerance = 0;
  std::string worst_state;
  double worst_time = 0;
  std::vector<double> times, ratios;  // per sample: its time and its largest ratio over the states
};

// The reference core's step from step (tick) `step` and state (or kept values) `from`.
using SingleStep = std::function<std::vector<double>(long step, const std::vector<double>& from)>;

// The check of `generated` (rows at the steps `samples`, states in columns 1..n) and
// `next` (the states one step later), with `step` the reference core's step from a state,
// `tolerance` per state relative to `scale` (compare_traces' scale: max(1, max |reference|)).
// With `kept` (dual-rate tasks), `step` restarts from each row of it instead of the row's
// state. Throws std::runtime_error when the traces' shapes do not fit.
LocalCheck local_check(const Trace& generated, const Trace& next, const std::vector<long>& samples,
                       const SingleStep& step, const Eigen::VectorXd& tolerance, const Eigen::VectorXd& scale,
                       const Trace* kept = nullptr);

// The steps at which a trace program prints its rows: 0, every, 2 every, ... and the last.
std::vector<long> sample_steps(long steps, long every);

}  // namespace dualrate
