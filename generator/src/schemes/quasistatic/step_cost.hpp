// quasistatic's runtime step (step_formula.hpp) on counted sizes: the operation count of
// generated code.
#pragma once

#include "schemes/contract.hpp"
#include "schemes/quasistatic/step_formula.hpp"

namespace dualrate {

// One step of generated code as the runtime header computes it with the functions and matrices
// of `design` (SchemeHooks::cost): five projections of `step`'s Newton steps (each the residual
// G and the precomputed G_z^-1's product, or G_z and its LU), four evaluations of F, the held
// inputs at t + h/2 and t + h, the stages, the update, E eta with the boundary layer; with a
// schedule, its lookup at the step's start.
StepCost quasistatic_step_cost(const Model& model, const SchemeDesign& design, const QuasistaticStepConstants& step);

}  // namespace dualrate
