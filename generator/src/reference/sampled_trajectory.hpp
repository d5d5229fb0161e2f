// The generator's one sampling of the scenario's trajectory, where it looks along it: a
// schedule's operating range (constant_schedule), how much sp_ll's blocks taken at the initial
// state vary along it (its generate note), stability along the trajectory (analysis) and
// quasistatic's Newton check, the last three on one command's ScenarioTrajectory.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reference/reference_model.hpp"

namespace dualrate {

// A point of the scenario's high-accuracy trajectory: its time, state and inputs.
struct TrajectorySample {
  double t = 0;
  std::vector<double> x, u;
};

// kTrajectoryIntervals equal intervals to t_end, solved to kTrajectoryTolerance (absolute and
// relative): the points say where a linearization is taken, they are not a result.
constexpr long kTrajectoryIntervals = 400;
constexpr double kTrajectoryTolerance = 1e-10;

// model's high-accuracy trajectory (ReferenceModel::high_accuracy) to t_end at t = 0 and
// kTrajectoryIntervals equal intervals. Throws SimulationError as high_accuracy does.
std::vector<TrajectorySample> sampled_trajectory(const ReferenceModel& model, double t_end);

// One command's scenario trajectory: sampled_trajectory of the model to t_end at the first use
// and kept, so that the checks a command runs along it (quasistatic's Newton check, sp_ll's
// generate note, stability along the trajectory) share one sampling. The model must outlive it.
class ScenarioTrajectory {
 public:
  ScenarioTrajectory(const Model& model, double t_end) : model_(model), t_end_(t_end) {}
  ScenarioTrajectory(Model&& model, double t_end) = delete;
  double t_end() const { return t_end_; }
  // The samples; throws the reference solution's SimulationError at each use when it failed.
  const std::vector<TrajectorySample>& samples() const;

 private:
  const Model& model_;
  double t_end_;
  mutable std::optional<std::vector<TrajectorySample>> samples_;
  mutable std::optional<std::string> failure_;
};

}  // namespace dualrate
