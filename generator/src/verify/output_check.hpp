// verify's check of the outputs (issue 52): what an ECU sends to its actuators and its bus,
// compared in every run beside the states, two ways.
//  - Against the reference run, each output k relative to its scale s_k = max(1, max_t |y_ref,k|)
//    (compare_traces' for a state), at every row, within
//      tol_k = max over the rows (sum_j max(|dy_k/dx_j (x_ref)|, |dy_k/dx_j (x_gen)|) tol s_j + rho_k) / s_k,
//    the states' tolerance tol (relative to their scales s_j, which the run's states are held
//    to) carried through the output equation to first order. The larger of the Jacobians at
//    either end bounds the mean-value Jacobian where it is monotone between them (exactly so
//    for an output quadratic in the states). The maximum is taken over at most 1000 rows evenly
//    spaced and the last, as verify's float tolerance takes the parameters' rates (the
//    derivatives are interpreted expression trees).
//  - From the generated state: at each row the model's outputs at the row's own state, time and
//    inputs (those of the step the row starts, with the calibration in effect there) in the
//    build's arithmetic. Where output_exact_difference is empty both compute the same
//    operations on the same values and must agree bit for bit (as the exact step check:
//    -ffp-contract=off, the portable libm); otherwise within rho_k.
// rho_k is the output's own rounding, the largest over the same rows of (m_k + 1) u (|y_k| + T_k),
// m_k the operations of its expression (output_operations), u = 2^-24 (float) or 2^-53
// (double), T_k = sum over the states, inputs and parameters v of |dy_k/dv v|
// (OutputSensitivity): each rounding moves y by at most u relative to the terms it combines,
// which T_k bounds to first order; the + 1 is the parameters' rounding to the build's Scalar
// (u |dy/dp p| each).
#pragma once

#include <string>
#include <vector>

#include "base/trace.hpp"
#include "model/model.hpp"

namespace dualrate {

class ReferenceCore;
struct RunOptions;

struct OutputCheck {
  // Against the reference run: the largest ratio over rows and outputs of error to tolerance
  // (both relative to the output's scale), and its output, time, error and tolerance.
  double ratio = 0, max_error = 0, tolerance = 0;
  std::string worst_output;
  double worst_time = 0;
  // From the generated state: rows compared and, in the exact comparison, rows where an output
  // differs (the first: its time, output, generated and model value).
  long samples = 0, differing = 0;
  double differing_time = 0;
  std::string differing_output;
  double generated = 0, expected = 0;
  // Why the comparison from the generated state is within rho_k instead of exact (empty: exact),
  // and then its largest ratio of error to rho_k, and that error and rho_k relative to the scale.
  std::string exact_skipped;
  double local_ratio = 0, local_error = 0, local_tolerance = 0;

  bool pass() const { return ratio <= 1 && (exact_skipped.empty() ? differing == 0 : local_ratio <= 1); }
};

// The check of `generated` (a trace program's trace without its local columns: t, states,
// outputs) against `reference` (the reference core's run of `run`, same rows) for a build in
// float (`in_float`) or double, whose states passed within `state_tolerance` relative to
// `state_scale` (compare_traces'). Throws std::runtime_error when the traces' shapes differ.
OutputCheck check_outputs(const Trace& generated, const Trace& reference, const Model& model, const ReferenceCore& core,
                          const RunOptions& run, bool in_float, double state_tolerance,
                          const std::vector<double>& state_scale);

}  // namespace dualrate
