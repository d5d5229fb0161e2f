// Arithmetic operations of one step of generated code, counted on the model IR (GiNaC
// expressions, in the form the emitter prints them) and on each scheme's vector algebra.
// The count is of the operations as written, before the compiler's own simplifications.
#pragma once

#include <ginac/ginac.h>

#include <set>
#include <string>

#include "model/model.hpp"

namespace dualrate {

struct OpCount {
  long add = 0;  // additions and subtractions
  long mul = 0;  // multiplications (integer powers count as repeated multiplication)
  long div = 0;
  long neg = 0;                     // negations
  long calls = 0;                   // elementary-function calls (sin, exp, sqrt, pow ...)
  std::set<std::string> functions;  // the C++ functions called, e.g. "std::sin"

  long total() const { return add + mul + div + neg + calls; }
  OpCount& operator+=(const OpCount& o);
};
OpCount operator*(long times, const OpCount& c);

// One evaluation of an expression as cpp_expression prints it.
OpCount count_ops(const GiNaC::ex& e);

// Vector arithmetic written out: `add` additions, `mul` multiplications, `div` divisions.
OpCount arithmetic(long add, long mul, long div);

// The arithmetic of one step of a scheme's runtime implementation with the generated model
// (the finiteness check is not counted: comparisons only), and a lower bound on it: the part
// no implementation of the scheme's algorithm can do without, its right-hand-side
// evaluations and its products with the precomputed matrices (each at the cost of its
// nonzeros, LinearMap::ops), without the scheme's own vector arithmetic.
struct StepCost {
  OpCount ops;
  OpCount bound;
  // Work that counts in both.
  void add_work(const OpCount& c) {
    ops += c;
    bound += c;
  }
};

// Every function the generated header calls: in variables, equations, outputs and the
// scenario's input signals.
std::set<std::string> called_functions(const Model& model);

// The functions among `functions` that the portable libm computes (<dualrate/portable_math.h>):
// the elementary ones, whose results C libraries round differently from one another.
std::set<std::string> portable_math_functions(const std::set<std::string>& functions);

}  // namespace dualrate
