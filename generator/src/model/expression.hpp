// Model expressions: text -> GiNaC expression.
//
// A first pass (parser_input.hpp) checks the text token by token and renames every user name
// to an internal symbol before GiNaC's parser sees it, so user names (I, E, D, Pi, gamma,
// beta, lambda, eps, ...) can never collide with GiNaC's built-in constants and functions,
// unknown names and functions are reported at their exact column, and nesting is bounded
// before the recursive parser runs (deep nesting would otherwise overflow its stack).
#pragma once

#include <ginac/ginac.h>

#include "model/expression_source.hpp"

namespace dualrate {

// Throws ModelError on any problem.
GiNaC::ex parse_expression(const ExpressionText& source, const ExpressionScope& scope);

}  // namespace dualrate
