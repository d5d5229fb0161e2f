#include "reference/sampled_trajectory.hpp"

namespace dualrate {

std::vector<TrajectorySample> sampled_trajectory(const ReferenceModel& model, double t_end) {
  RunOptions run{kHighAccuracy, t_end / static_cast<double>(kTrajectoryIntervals), t_end, 1};
  run.reference_tolerance = kTrajectoryTolerance;
  const Trace trace = model.high_accuracy(run);
  const auto n = static_cast<long>(model.initial_state().size());
  std::vector<TrajectorySample> samples;
  samples.reserve(trace.rows.size());
  for (const auto& row : trace.rows)
    samples.push_back({row[0], {row.begin() + 1, row.begin() + 1 + n}, model.inputs_at(row[0])});
  return samples;
}

const std::vector<TrajectorySample>& ScenarioTrajectory::samples() const {
  if (failure_) throw SimulationError(*failure_);
  if (!samples_) {
    try {
      samples_ = sampled_trajectory(ReferenceModel(model_), t_end_);
    } catch (const SimulationError& e) {
      failure_ = e.what();
      throw;
    }
  }
  return *samples_;
}

}  // namespace dualrate
