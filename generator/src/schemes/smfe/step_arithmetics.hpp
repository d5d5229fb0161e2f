// smfe's runtime step (step_formula.hpp) on a linear plant and on counted sizes: the macro-step
// map its analyses judge and the operation count of generated code.
#pragma once

#include <Eigen/Dense>

#include "schemes/contract.hpp"

namespace dualrate {

// The one-step map of Algorithm 1 on x' = J x, (I + (D - N h_s) J) (I + h_s J)^N, whose
// eigenvalues are eq. 14's factors: the runtime's step on the identity's columns.
Eigen::MatrixXd smfe_step_map(const Eigen::MatrixXd& j, double macro_step, double inner_step, int inner_steps);

// One macro step of generated code with N = inner_steps as the runtime header computes it
// (SchemeHooks::cost): N + 1 right-hand sides, the held inputs evaluated at each after the
// first, the updates and times; with a schedule, its lookup of h_s before the step.
StepCost smfe_step_cost(const Model& model, int inner_steps, const ConstantSchedule* schedule);

}  // namespace dualrate
