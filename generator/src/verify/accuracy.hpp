// verify's second question. Its other checks prove that the generated code is the scheme
// (the same steps as the reference core's, to rounding); they cannot tell whether the scheme's
// answer is right, and a stable scheme at a step or linearization too coarse for the model
// passes them. This check measures that answer: the generated trace against the scenario's
// high-accuracy solution (ReferenceModel::high_accuracy: Odeint's Dormand-Prince 5(4) at
// absolute and relative tolerance 1e-12, the inputs continuous in time) on the same rows, each
// state and output relative to max(1, max_t |x_accurate|), as verify's max_error is relative to
// the reference core's, or in its own unit where the user gives it an absolute tolerance. Where
// the user gives an accuracy (verify --tolerance and --absolute-tolerance, or the model's
// simulation: tolerance: and absolute_tolerance:), the error is judged against it: a second
// verdict beside the code's.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/trace.hpp"
#include "model/model.hpp"
#include "reference/reference_model.hpp"
#include "verify/trace_comparison.hpp"

namespace dualrate {

class ReferenceCore;

// A state's or output's largest error against the high-accuracy solution: absolute, in its own
// unit, where the user gives it an absolute tolerance, else relative to max(1, max_t |x_accurate|).
struct ColumnError {
  std::string name;
  double error = 0;
  bool absolute = false;
  bool output = false;
  bool operator==(const ColumnError& o) const {
    return name == o.name && error == o.error && absolute == o.absolute && output == o.output;
  }
};

struct AccuracyCheck {
  // The worst state's or output's error, in its measure: the one with the largest share of its
  // tolerance, or without a tolerance the largest error.
  double max_error = 0;
  std::string worst_state;  // its name (a state or an output)
  double worst_time = 0;
  double worst_scale = 1;            // what its error is relative to: max(1, max_t |x_accurate|), 1 if absolute
  std::vector<ColumnError> columns;  // each state's, then each output's
  // A linearization other than the exact one: the same scheme re-linearized at every step (the
  // reference core's run), against the same solution; what the run's linearization costs is
  // max_error beside it.
  std::optional<double> relinearized_error;
  // Where the scenario's inputs vary in time: the high-accuracy
  // solution with the inputs as the run's (fast) steps hold them (RunOptions::inputs_held) against the
  // one with them continuous, measured as max_error is: the part of max_error the inputs' hold
  // accounts for; integration_error is the run against the held solution, the scheme's own
  // part.
  std::optional<double> hold_error, integration_error;
  ErrorTolerance tolerance;
  std::string tolerance_source;  // of worst_tolerance() (trace_comparison.hpp tolerance_source)
  std::string error;             // why the high-accuracy solution could not be had (then nothing is judged)

  // The worst state's or output's tolerance (0: not judged), and whether it is absolute.
  double worst_tolerance() const { return tolerance_of(tolerance, worst_state); }
  bool worst_absolute() const { return has_absolute(tolerance, worst_state); }
  bool judged() const { return worst_tolerance() > 0 && error.empty(); }
  bool pass() const { return !judged() || max_error <= worst_tolerance(); }
};

// The high-accuracy solution of `run`'s scenario (its step's grid, end and calibration writes)
// at the times of `rows`' rows, each a point of that grid (a single-rate run's rows, or a
// dual-rate run's at its macro steps). Throws SimulationError as ReferenceCore::simulate, and
// std::runtime_error for a row past the run's end.
Trace accurate_on_grid(const ReferenceCore& core, const RunOptions& run, const Trace& rows);

// `trace` (a run's states and outputs) against `accurate`, rows of the same times, each state and
// output measured and judged as `tolerance` says (model's states only where either trace lacks
// the outputs); a NaN is infinitely far. Throws std::runtime_error when the shapes differ.
AccuracyCheck check_accuracy(const Trace& trace, const Trace& accurate, const Model& model,
                             const ErrorTolerance& tolerance);

// The generated trace of `run` against the high-accuracy solution on its rows (written to `csv`
// unless empty), judged with `tolerance`, with `relinearized` (the re-linearizing counterpart of
// a run at another linearization than the exact one, or empty) against it too; a solution that
// cannot be had is the check's error.
AccuracyCheck measure_accuracy(const ReferenceCore& core, const RunOptions& run, const Trace& generated,
                               const Trace& relinearized, const Model& model, const ErrorTolerance& tolerance,
                               const std::string& csv);

// The lines verify prints for it; `linearization` names the run's when not the exact one (or is empty).
std::string accuracy_text(const AccuracyCheck& a, const std::string& linearization);

}  // namespace dualrate
