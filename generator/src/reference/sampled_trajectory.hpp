// The generator's one sampling of the scenario's trajectory, where it looks along it: a
// schedule's operating range (constant_schedule), a frozen linearization's variation (sp_ll),
// stability along the trajectory (analysis) and quasistatic's Newton check.
#pragma once

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

}  // namespace dualrate
