// sp_ll's step in float or double, operation for operation as runtime/include/dualrate/schemes/
// sp_ll.hpp computes it in a build of generated code in that Scalar: verify's exact step check
// (SchemeHooks::float_reference, double_reference).
#pragma once

#include <vector>

#include "ir/linear_map.hpp"
#include "schemes/contract.hpp"

namespace dualrate {

// dualrate::SpLl::step in T (float or double) with the constants `constants` (sp_ll_constants'
// names, each applied as its emitted function: product_in), the model's right-hand side f in T
// giving the slow rates too (generated code's slow_derivatives computes the same rows). With a
// `grid` (scheduled constants: each matrix's values at its points in NamedMatrix::scheduled),
// the scheduled entries are interpolated in T at the scheduling values of the step's start, as
// generated code's SchemeConstants::schedule does.
template <class T>
StepIn<T> sp_ll_step_in(const std::vector<NamedMatrix>& constants, std::size_t slow,
                        const std::vector<std::vector<double>>& grid = {});

// sp_ll's SchemeHooks::float_reference (T = float) and double_reference (T = double):
// setup.design's constants (or its schedule's at each grid point) confirmed by
// sp_ll_reference_constants (confirmed_constants<T>), then sp_ll_step_in<T>. Throws
// SimulationError without the design or the model.
template <class T>
StepIn<T> sp_ll_reference_in(const ReferenceSetup& setup, double h);

}  // namespace dualrate
