// The quasistatic scheme under calibration (docs/calibration.md): what generated code
// recomputes on the target when tunable values reach G_z (when it is constant: its inverse, which
// every Newton step applies) or A_zz (the boundary layer's transition E = e^{h A_zz}, seed 002),
// and the number of Newton steps for every point of the calibration range.
#pragma once

#include <vector>

#include "model/model.hpp"
#include "schemes/contract.hpp"
#include "schemes/quasistatic/quasistatic.hpp"

namespace dualrate {

struct QuasistaticCalibration {
  std::vector<RecomputeStep> steps;  // empty when neither G_z nor A_zz follows the calibration
  int newton_iterations = 1;         // the most any point of the range takes (design.integers)
};

// For step h, `layer` with the boundary-layer correction; d is the design at the model's values.
// Designs the scheme at every point of the range (tunable_box_points), which throws where it has
// none (Newton not converging, an undamped boundary layer), and plans E's exponential over them.
QuasistaticCalibration quasistatic_calibration(const Model& model, const QuasistaticForm& form,
                                               const QuasistaticDesign& d, double h, bool layer);

}  // namespace dualrate
