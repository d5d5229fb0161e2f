// A scheme's stability at its step along the scenario's trajectory (docs/schemes.md#along-the-trajectory):
// the initial state's linearization (analyze_stability) does not bound a nonlinear model's, and a
// scheme stable there can leave its stability region later (a tyre's lag that stiffens with
// speed, an engine's spool-up). The model is linearized at the points of the scenario's sampled
// high-accuracy solution to t_end after t = 0 (sampled_trajectory), and the
// scheme's one-step map for each linearization is judged as analyze judges the initial
// state's (MapJudgement: |R| <= 1 on modes that do not grow, the model's own growth followed on
// those that do).
//
// Judged for schemes whose one-step map is a function of the local Jacobian and the step alone
// (no precomputed constants: the Runge-Kutta schemes, prk25, the Adams forms). A scheme with
// constants applies the initial state's (or the schedule's) to every later point, which a map
// rebuilt from the local Jacobian does not describe; its scheduled form has its own proof along
// the trajectory (constant_schedule.hpp). Not judged either where the Jacobian is constant (a
// linear model: the initial state's judgement holds everywhere) or where the reference
// solution fails (the run reports that itself).
#pragma once

#include <cstddef>
#include <string>

#include "analysis/stability.hpp"
#include "model/model.hpp"
#include "schemes/contract.hpp"

namespace dualrate {

struct TrajectoryStability {
  bool judged = false;
  std::string not_judged;  // why, when not judged
  bool stable = true;      // at every point judged
  std::size_t points = 0;
  double t = 0;        // the worst point (the largest MapJudgement::relative)
  MapJudgement worst;  // there
  // The map has the initial state's constants at every point (sp_ll's blocks taken there, smfe's
  // h_s and N from the initial eigenvalues): an instability is the file's choice of a design
  // at the initial state, reported (analyze; generate warns), not refused.
  bool advisory = false;
};

// `trajectory` is the model's, to the scenario's end. For a scheme with constants, `design` is
// the one generate emits (precompute_scheme's for the model and the same step, ratio, options
// and the trajectory's end); null: computed here.
TrajectoryStability stability_along_trajectory(const Model& model, const std::string& scheme, double h, int ratio,
                                               const SchemeOptions& options, const ScenarioTrajectory& trajectory,
                                               const SchemeDesign* design = nullptr);

// Why generate refuses an unstable result r (or, advisory, warns): the message (the time, the
// map's radius and, for a model that grows there, its mode and growth against the map's) and a
// hint.
Instability trajectory_instability(const Model& model, const std::string& scheme, double h, int ratio,
                                   const TrajectoryStability& r);

// For analyze: a JSON member (starting with a comma) and a text line.
std::string trajectory_json(const TrajectoryStability& r);
std::string trajectory_text(const TrajectoryStability& r, const std::string& scheme);

}  // namespace dualrate
