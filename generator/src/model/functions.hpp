// The model language's functions as symbolic (GiNaC) functions.
//
// sin cos tan asin acos atan atan2 sinh cosh tanh exp log sqrt pow map to GiNaC's own.
// abs, sign, step (Heaviside), min and max are dualrate's own GiNaC functions so that they
// carry the derivative rules a model needs and nothing else:
//   d abs(x) = sign(x) dx,  d sign(x) = 0,  d step(x) = 0,
//   d min(a,b) = step(b - a) da + (1 - step(b - a)) db,
//   d max(a,b) = step(a - b) da + (1 - step(a - b)) db.
// Numeric semantics (step(0) = 1, ties of min/max) follow runtime/include/dualrate/math.hpp.
#pragma once

#include <ginac/ginac.h>

#include <string>
#include <vector>

namespace dualrate {

DECLARE_FUNCTION_1P(dr_abs)
DECLARE_FUNCTION_1P(dr_sign)
DECLARE_FUNCTION_1P(dr_step)
DECLARE_FUNCTION_2P(dr_min)
DECLARE_FUNCTION_2P(dr_max)
// A time term: a subexpression of t and parameters (and constants) that contains t, marked
// for evaluation in the model's Time (double where the model uses t) and rounded once to
// Scalar: a float t cannot be within half a step of n h past 2^23 steps, a double one can
// (runtime/include/dualrate/data.hpp). The emitter and the reference core mark the same
// subexpressions (with_time_terms, model/model.hpp); nothing else makes them.
DECLARE_FUNCTION_1P(dr_time)
bool is_time_term(const GiNaC::ex& e);
// Whether e is a real number (a numeric whose imaginary part is zero): a function's value is
// folded only for such arguments.
bool is_real_number(const GiNaC::ex& e);

struct FunctionInfo {
  const char* name;  // as written in a model file
  int arity;
};

// All functions a model expression may call.
const std::vector<FunctionInfo>& model_functions();
const FunctionInfo* find_model_function(const std::string& name);
std::vector<std::string> model_function_names();

// GiNaC parser table that builds the GiNaC expression for each model function.
const GiNaC::prototype_table& model_function_table();

// The C++ function the generated code calls for a GiNaC function of a model expression:
// dualrate::math::<name> for the elementary functions (the portable libm where it is
// enabled, <dualrate/math.hpp>), std::abs, and dualrate::math's sign, heaviside, min, max.
std::string cpp_function(const std::string& ginac_name);

// Prepares GiNaC for exact work with decimal input (float precision well beyond double).
void init_symbolic();

}  // namespace dualrate
