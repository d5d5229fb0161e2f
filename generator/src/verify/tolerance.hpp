// The tolerance a verify run is held to: the first-order bound (verify_tolerance), and the float
// tolerance from the scheme's one-step map (step_rounding, map_float_tolerance) for one run of
// a model (map_rounding). Internal to verify/; the derivation is at the top of tolerance.cpp.
#pragma once

#include <Eigen/Dense>

#include <optional>
#include <vector>

#include "base/trace.hpp"
#include "model/model.hpp"
#include "schemes/contract.hpp"
#include "reference_core/reference_core.hpp"
#include "verify/local_check.hpp"

namespace dualrate {

// Tolerance for generated code in `scalar` against the reference core over `steps` steps
// of a scheme with `stages` derivative evaluations per step, where h_norm_j = h * ||J||_inf
// at the initial state: the first-order bound (derivation in verify.cpp), for float runs of
// schemes whose one-step map is not on the compared states.
double verify_tolerance(ScalarType scalar, long steps, int stages, double h_norm_j, double double_tolerance = 1e-12);

// One step's rounding in float, per entry of the vector a scheme's one-step map acts on
// (derivation in tolerance.cpp): of the operations, `roundings` u_f (magnitude + terms), and
// of the constants, the same every step, u_f (constants_share + parameter_step).
// A compensated state's entry (dualrate/compensated_sum.hpp) has `last`: the rounding of the
// value the build holds, u_f X, which its carry takes into the next step, so that it counts once
// at the end of a run, not at every step (empty: no entry is compensated).
struct StepRounding {
  Eigen::VectorXd operations, constants, last{};
};
StepRounding step_rounding(const Eigen::VectorXd& magnitude, const Eigen::VectorXd& terms,
                           const Eigen::VectorXd& constants_share, const Eigen::VectorXd& parameter_step,
                           int roundings);
// The share of a scheme's constants (the step and the scheme's coefficients) in a step of
// the map Phi, per unit u_f: each moves the increment (Phi - I) x by u_f, 2 |Phi - I| magnitude.
Eigen::VectorXd increment_share(const Eigen::MatrixXd& step_map, const Eigen::VectorXd& magnitude);

// The float tolerance from the one-step map applied `steps` times: for each compared state i
// (entry compared[i] of the map's vector), relative to scale_i, the largest over i of
//   lambda sqrt(sum_k (Phi^k o Phi^k) (d o d)) + sum_k |Phi^k| d_s
// with d and d_s the operations' and the constants' rounding of a step; the operations'
// taken as independent and of mean zero from step to step (Hoeffding, lambda =
// kRoundingLambda), the constants' added in absolute value (derivation in verify.cpp); plus a
// compensated entry's `last` once.
double map_float_tolerance(const Eigen::MatrixXd& step_map, const std::vector<Eigen::Index>& compared,
                           const StepRounding& rounding, const Eigen::VectorXd& scale, long steps);

// The rows of a trace of `rows` rows that rates along a run are taken at: at most
// kSampledRows, evenly spaced, and the last (rates from interpreted expression trees, such as
// df/dp p of every parameter or an output's derivatives, are too costly at every row of a long run).
constexpr std::size_t kSampledRows = 1000;
std::vector<std::size_t> sampled_rows(std::size_t rows);

// One float step's rounding on the vector the scheme's one-step map Phi acts on: the states
// (single-rate schemes), or for a macro step H = r h everything mrabm4's tasks keep (states,
// end points, derivative histories; step_map_layout). An entry of state i has the magnitude
// X_i (a value) or (|J| X)_i (a derivative); per step its operations round (stages + 2) u_f
// relative to it and to the terms |H J| X a step adds to a value (r substeps of (stages + 2)
// roundings per macro step); the parameters move a value by H P_i u_f, a derivative by
// P_i u_f. Computed once per verify run; empty when there is no map (smfe without a design at
// h) or a state has no entry.
struct MapRounding {
  Eigen::MatrixXd map;
  StepRounding rounding;
  std::vector<Eigen::Index> compared;  // the entry of each state
  Eigen::VectorXd scale;               // compare_traces' scale of each state
  int substeps = 1;
};
std::optional<MapRounding> map_rounding(const Model& model, const ReferenceCore& core, const GenerateRequest& request,
                                        const SchemeDesign& design, const RunOptions& run, const Eigen::MatrixXd& j,
                                        const Trace& reference, int evaluations);

// map_float_tolerance for a float run of `steps` steps of h: the rounding carried through
// `steps` / substeps (macro) steps. Empty when `steps` is not a whole number of macro steps.
std::optional<double> step_map_tolerance(const MapRounding& r, long steps);

// The float tolerance of one (macro) step, per state relative to its scale, for verify's local
// check (one step of the reference core from the generated code's state against the generated
// code's next state): that step's rounding d_i of the operations and d_s,i of the constants,
// as step_map_tolerance has them. A single step's rounding is within d + d_s as it is: lambda
// is for the sum of many independent steps' roundings (the local check's bias bound).
LocalTolerance local_step_tolerance(const MapRounding& r);

}  // namespace dualrate
