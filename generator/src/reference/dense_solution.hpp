// The high-accuracy solution as a function of time, for the many grids a design compares its
// candidates on: one integration of the scenario (inputs taken continuously, as high_accuracy
// takes them, without calibration writes) by Odeint's Dormand-Prince 5(4) with its dense
// output, whose state inside a step is a polynomial of degree 4 in the step's fraction (Hairer,
// Norsett and Wanner, Solving ODEs I, Sec. II.6); each step's is kept by its values at 5 evenly
// spaced points, so any time's state is that polynomial's, without stopping the integration
// at every row of every grid.
#pragma once

#include <array>
#include <vector>

#include "reference/reference_model.hpp"

namespace dualrate {

class DenseSolution {
 public:
  // Odeint's absolute and relative tolerance, and the longest step (a short pulse of an input is
  // not stepped over); the integration runs on as far as at() asks.
  DenseSolution(const ReferenceModel& core, double tolerance, double max_step);
  // The state at t >= 0. Throws SimulationError when the integration fails or the state is not finite.
  std::vector<double> at(double t);
  // The rows (t, states, outputs) on the grid t_i = i h: at i = 0, every, 2 every, ... and at
  // `steps`, as ReferenceModel::high_accuracy writes its rows.
  Trace rows_on_grid(double h, long steps, int every);

 private:
  struct Step {
    double start = 0, length = 0;
    std::array<std::vector<double>, 5> points;  // at start + k length / 4
  };
  void extend_to(double t);

  const ReferenceModel& core_;
  double tolerance_, max_step_;
  std::vector<Step> steps_;
  std::vector<double> x_;  // at the end of the last step
  double t_ = 0, dt_ = 0;
};

}  // namespace dualrate
