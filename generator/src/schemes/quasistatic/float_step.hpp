// quasistatic's step in float, operation for operation as runtime/include/dualrate/schemes/
// quasistatic.hpp computes it in a float build of generated code, where G_z^-1 is precomputed
// (G_z constant): verify's exact step check (SchemeInfo::float_reference).
#pragma once

#include <string>

#include "schemes/contract.hpp"

namespace dualrate {

// The step: RK4 on F with each stage projected onto G = 0 by the design's Newton steps with
// G_z^-1 (residual_jacobian_inverse, applied as emitted), then the end projected and, with the
// boundary layer, E eta added (layer_transition). F and G are the reduced form's right-hand
// sides, in float at the step's held inputs (the generated reduced_slow and residual compute
// the same expressions). The design's matrices are confirmed (confirmed_constants) with the
// reference core's own: G_z^-1 by a full-pivoting LU of G_z at the design point, E as the
// square of e^{h A_zz / 2}. Throws SimulationError without the model or the design.
FloatStep quasistatic_float_reference(const ReferenceSetup& setup, double h);

// Why the float step cannot reproduce the design's generated step, or empty: G_z factorized at
// run time, scheduled constants, or calibration writes (the reduced form is built from the
// model's values before them).
std::string quasistatic_float_gap(const SchemeDesign& design, bool calibration_writes);

}  // namespace dualrate
