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
// The columns carry:<state> and next_carry:<state> of a compensated float build's trace
// (dualrate/compensated_sum.hpp: each compensated state's carry at the row and one step later),
// removed from `trace`; empty when it has none.
struct TraceCarries {
  Trace at_row, next;
};
TraceCarries take_carries(Trace& trace);
// The compensated value x - c of each state of `states` (its columns named after the states)
// that `carries` (named so too) has a carry of, row by row; x and c are a float build's, each
// rounded to float first.
Trace compensated_values(Trace states, const Trace& carries);
// Each row's states (the `states` columns after t of `generated`) followed by its carries: what
// a compensated build's exact step starts from (ReferenceCore::exact_single_step).
Trace with_carries(const Trace& generated, const Trace& carries, std::size_t states);
// The trace without next:, kept:, carry: and next_carry: columns, as the reference core writes it.
Trace without_local_columns(Trace trace);
// The text of a CSV trace without those columns (which come last in each line): a
// preemptive task run's trace, which has none, must equal the sequential run's in the others.
std::string trace_text_without_local_columns(const std::string& text);

// One (macro) step's tolerance per state, relative to the state's scale: of the operations
// (roundings that vary from step to step) and of the constants (the same in every step).
struct LocalTolerance {
  Eigen::VectorXd operations, constants;
};

// How many standard deviations of the sum of independent roundings of mean zero a tolerance
// allows (Hoeffding's bound, derivation in tolerance.cpp): map_float_tolerance's and the local
// check's bias test's lambda.
constexpr double kRoundingLambda = 7;

struct LocalCheck {
  // Over the samples and states, the largest ratio of error to tolerance, both relative to the
  // state's scale (compare_traces'), and the error and tolerance where it is largest.
  double ratio = 0;
  double max_error = 0;
  double tolerance = 0;
  std::string worst_state;
  double worst_time = 0;
  std::vector<double> times, ratios;  // per sample: its time and its largest ratio over the states
  // The sum over the samples of each state's signed error against what roundings can add up
  // to: lambda sqrt(N) operations_i + N constants_i (the operations' roundings independent and
  // of mean zero from sample to sample, Hoeffding, as the accumulated bound has them; the
  // constants' the same every step). A defect moves every step the same way and adds up like
  // N, rounding like sqrt(N): the largest ratio over the states and its state.
  double bias_ratio = 0;
  double bias_sum = 0, bias_bound = 0;
  std::string bias_state;
};

// The reference core's step from step (tick) `step` and state (or kept values) `from`.
using SingleStep = std::function<std::vector<double>(long step, const std::vector<double>& from)>;

// What the checks below compare the generated code's next states with: `generated` has its
// rows at the steps `samples` and the states in columns 1..n, `next` the n states one step
// later; the reference core's `step` from each row's state (or, with `kept` for dual-rate
// tasks, from each row of it), one row per sample. Throws std::runtime_error when the traces'
// shapes do not fit.
struct ReferenceSteps {
  std::vector<std::vector<double>> rows;
};
ReferenceSteps reference_steps(const Trace& generated, const Trace& next, const std::vector<long>& samples,
                               const SingleStep& step, const Trace* kept = nullptr);

// The check of `next` against the reference steps, `tolerance` per state relative to `scale`
// (compare_traces' scale: max(1, max |reference|)), each sample's error within operations +
// constants, the sums within the bias bound.
LocalCheck local_check(const Trace& generated, const Trace& next, const ReferenceSteps& expected,
                       const LocalTolerance& tolerance, const Eigen::VectorXd& scale);

// The exact step check, beside the local check where the reference core computes a step with
// the same operations on the same values as the generated code (ReferenceCore::
// exact_step_difference empty): at each sample the reference core's step from the generated
// state, in the build's arithmetic (float or double), must equal the generated code's next
// state bit for bit. IEEE 754 rounds each operation to the nearest representable value, so the
// same operations in the same order on the same operands give the same result: no tolerance
// (the builds verify compiles use -ffp-contract=off and the portable libm, whose results are
// the same on the host and the targets).
struct ExactStepCheck {
  long samples = 0;
  long differing = 0;  // samples where a state differs
  // The first of them: its time, the first state that differs there, the generated code's
  // value and the reference core's.
  double time = 0;
  std::string state;
  double generated = 0, expected = 0;
};
// With `in_float` the values are compared as floats (a float build's trace has each to 9
// significant digits, which tell the float exactly); zeros of either sign differ, any NaN
// equals another.
ExactStepCheck exact_step_check(const Trace& generated, const Trace& next, const ReferenceSteps& expected,
                                bool in_float);
// Whether two values of a trace are the same bits in the build's arithmetic (as floats with
// `in_float`): zeros of either sign differ, any NaN equals another.
bool same_bits(double a, double b, bool in_float);

// The steps at which a trace program prints its rows: 0, every, 2 every, ... and the last.
std::vector<long> sample_steps(long steps, long every);

}  // namespace dualrate
