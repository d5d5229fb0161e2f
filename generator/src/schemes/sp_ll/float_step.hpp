// sp_ll's step in float, operation for operation as runtime/include/dualrate/schemes/sp_ll.hpp
// computes it in a float build of generated code: verify's exact step check
// (SchemeInfo::float_reference).
#pragma once

#include <vector>

#include "ir/linear_map.hpp"
#include "schemes/contract.hpp"

namespace dualrate {

// dualrate::SpLl::step in float with the constants `constants` (sp_ll_constants' names, each
// applied as its emitted function: product_in_float), the model's right-hand side f in float
// giving the slow rates too (generated code's slow_derivatives computes the same rows). With a
// `grid` (scheduled constants: each matrix's values at its points in NamedMatrix::scheduled),
// the scheduled entries are interpolated in float at the scheduling values of the step's start,
// as generated code's SchemeConstants::schedule does.
FloatStep sp_ll_float_step(const std::vector<NamedMatrix>& constants, std::size_t slow,
                           const std::vector<std::vector<double>>& grid = {});

// sp_ll's SchemeInfo::float_reference: setup.design's constants (or its schedule's at each grid
// point) confirmed by sp_ll_reference_constants, then sp_ll_float_step. Throws SimulationError
// without the design or the model.
FloatStep sp_ll_float_reference(const ReferenceSetup& setup, double h);

}  // namespace dualrate
