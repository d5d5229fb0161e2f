// The body of a generated function as straight-line code, the form both emission and the op
// count read: the model variables it needs and the subexpressions it evaluates more than once,
// each a local assigned once, then its results. Shared subexpressions are found over the
// whole body (variables and results together); a subexpression counts as shared when the same
// GiNaC node (a sum, product, power or function call, as GiNaC writes it in canonical form)
// occurs more than once. A statement where a shared term's name would take another place among
// a sum's terms or a product's factors than its value is written without shared terms (the
// order of its operations, and so its rounding, stays the model's: operation_order); a
// shared term nothing uses then is dropped. Sums and products are not searched for common
// sub-sums. Statements are written with their time terms marked (Model::with_time_terms); a
// time term is shared whole or not at all (its operands are computed in Time, a local in Scalar).
#pragma once

#include <ginac/ginac.h>

#include <cstdint>
#include <map>
#include <vector>

#include "model/model.hpp"
#include "ir/op_count.hpp"

namespace dualrate {

struct Local {
  GiNaC::ex symbol;                    // the symbol it stands for (a model variable's or a shared term's)
  GiNaC::ex value;                     // in earlier locals, states, inputs, t and parameters
  const Variable* variable = nullptr;  // the model variable it is, or null for a shared term
  bool solved() const { return variable && variable->solved; }  // an acceleration of the mass solve
  std::string name() const { return GiNaC::ex_to<GiNaC::symbol>(symbol).get_name(); }  // what it is printed as
};

struct StraightLine {
  std::vector<Local> locals;  // dependencies first
  std::vector<GiNaC::ex> results;
};

// The operations code printed from `e` does, in their order (the emitter's, which is the
// reference core's Evaluator's: sum_terms and product_parts), as a 64-bit hash: each binary
// operation of its two operands in a fixed order (a + b and b + a round alike), signs left
// out (negation is exact), and each symbol in `shared` (a shared term's) by the operations of
// its value. Equal hashes: the same roundings in IEEE arithmetic (unequal operations collide
// with a chance of about 2^-64).
using OperationOrder = std::uint64_t;
using SharedOrders = std::map<GiNaC::ex, OperationOrder, GiNaC::ex_is_less>;
OperationOrder operation_order(const GiNaC::ex& e, const SharedOrders& shared = {});

// The model variables that expressions `roots` need, dependencies first.
std::vector<const Variable*> needed_variables(const Model& m, const std::vector<GiNaC::ex>& roots);

// The body computing `roots` (of t, states, inputs, parameters and m's variables). With
// `share` false, the model's variables and the roots as written.
StraightLine straight_line(const Model& m, const std::vector<GiNaC::ex>& roots, bool share = true);

// What each local of `body` is computed for: a model variable's local serves that variable;
// a shared term serves every variable and result whose value uses it, directly or through
// another shared term. (A solved acceleration's value is the mass solve's, which uses no
// shared term.)
struct Served {
  std::vector<const Variable*> variables;  // each once
  std::vector<std::size_t> results;        // indices into body.results, ascending
};
std::vector<Served> served(const StraightLine& body);

}  // namespace dualrate
