// The tolerance a verify run is held to, beside verify_tolerance, step_rounding and
// map_float_tolerance (verify.hpp): the float tolerance from the scheme's one-step map for one
// run of a model. Internal to verify/; the derivation is at the top of tolerance.cpp.
#pragma once

#include <Eigen/Dense>

#include <optional>

#include "base/trace.hpp"
#include "model/model.hpp"
#include "schemes/contract.hpp"
#include "schemes/reference_core.hpp"
#include "verify/local_check.hpp"
#include "verify/verify.hpp"

namespace dualrate {

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
std::optional<MapRounding> map_rounding(const Model& model, const ReferenceCore& core, const GenerateOptions& generate,
                                        const RunOptions& run, const Eigen::MatrixXd& j, const Trace& reference,
                                        int evaluations);

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
