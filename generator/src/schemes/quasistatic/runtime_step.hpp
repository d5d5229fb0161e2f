// quasistatic's step in float or double, operation for operation as runtime/include/dualrate/
// schemes/quasistatic.hpp computes it in a build of generated code in that Scalar, with G_z^-1
// precomputed (G_z constant) or G_z factorized at each Newton step: verify's exact step check
// (SchemeHooks::float_reference, double_reference).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "ir/linear_map.hpp"
#include "model/model.hpp"
#include "schemes/contract.hpp"

namespace dualrate {

// The step in T (float or double): RK4 on F with each stage projected onto G = 0 by
// `iterations` Newton steps with G_z^-1 (`inverse`, applied as emitted; without it, G_z at the
// Newton step's state, derived by the reference core and solved as Eigen's fixed-size
// PartialPivLU solves it: numeric/fixed_size_solves.hpp), then the end projected and, with a
// `transition`, E eta added. F and G are the right-hand sides of `reduced` (the reduced form,
// fast rows G), in T at the step's held inputs (the generated reduced_slow and residual compute
// the same expressions). With a schedule's `grid`, the maps' scheduled entries are interpolated
// at the step's start (locate_in, scheduled_entries_in) as the generated schedule() does.
template <class T>
StepIn<T> quasistatic_step_in(std::shared_ptr<const Model> reduced, std::optional<LinearMap> inverse,
                              std::optional<LinearMap> transition, int iterations, std::size_t slow,
                              const std::vector<std::vector<double>>& grid = {});

// Why the step in float or double cannot reproduce the design's generated step, or empty: G_z factorized at
// run time over more fast states than the transcription covers, or a second-order model's
// scheduled constants.
std::string quasistatic_float_gap(const SchemeDesign& design);

}  // namespace dualrate
