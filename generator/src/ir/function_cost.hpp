// The arithmetic of one call of a generated function, from its body as emitted
// (ir/straight_line.hpp) and the operation counts of its expressions (ir/op_count.hpp).
#pragma once

#include "ir/op_count.hpp"
#include "ir/straight_line.hpp"
#include "model/model.hpp"

namespace dualrate {

// Which rows of the right-hand side a generated function computes: derivatives() (all),
// slow_derivatives() or fast_derivatives().
enum class Rows { kAll, kSlow, kFast };

// One call of the generated function for `rows`: the variables it needs and the
// subexpressions it shares, each once, and the right-hand sides (straight_line).
OpCount derivative_ops(const Model& model, Rows rows);

// The arithmetic of a generated function's body as emitted: every local's value, the mass
// solve when an acceleration is among the locals, and the results.
OpCount straight_line_ops(const Model& model, const StraightLine& body);

}  // namespace dualrate
