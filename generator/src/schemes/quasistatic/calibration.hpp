// The quasistatic scheme under calibration (docs/calibration.md): what generated code
// recomputes on the target when tunable values reach G_z (when it is constant: its inverse, which
// every Newton step applies) or A_zz (the boundary layer's transition E = e^{h A_zz}, seed 002),
// and the number of Newton steps for every point of the calibration range.
#pragma once

#include <functional>
#include <vector>

#include "model/model.hpp"
#include "schemes/contract.hpp"

namespace dualrate {

struct QuasistaticCalibration {
  std::vector<RecomputeStep> steps;  // empty when neither G_z nor A_zz follows the calibration
  int newton_iterations = 1;         // the most any point of the range takes (design.integers)
};

// For step h, `layer` with the boundary-layer correction: `reduced` is the reduced form's model
// (its fast rows are G), `jacobian_constant` whether G_z is constant, `newton_iterations` the
// design's count at the model's values, and `newton_at` designs the scheme for a model and gives
// its count (throwing where it has no design: Newton not converging, an undamped boundary
// layer); it is called at every point of the range (tunable_box_points). E's exponential is
// planned over them.
QuasistaticCalibration quasistatic_calibration(const Model& model, const Model& reduced, bool jacobian_constant,
                                               int newton_iterations, const std::function<int(const Model&)>& newton_at,
                                               double h, bool layer);

}  // namespace dualrate
