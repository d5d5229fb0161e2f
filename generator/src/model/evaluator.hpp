// Numeric evaluation of model expressions in double (and in float, as float generated code), by
// walking nodes built once from the GiNaC expression (one per distinct subexpression). The
// reference core uses it, so that no generated code is involved in computing the oracle. Evaluation
// follows the model as written: a product is evaluated as coefficient * factors / (denominator
// factors), a sum left to right, both with operands in the canonical order (sum_terms,
// product_parts: the emitter's), x^n for integer n as repeated multiplication, x^(1/2) as sqrt; the
// semantics of sign, step, min and max are those of runtime/include/dualrate/math.hpp; the
// elementary functions are the portable libm's (<dualrate/portable_math.h>), the same ones the
// generated code calls in verify; tables by Table::evaluate_as_generated (the runtime's
// interpolation arithmetic after the table's own linear scan for the cell). A time term (dr_time:
// Model::with_time_terms) is evaluated in double and rounded to float, as the generated code
// computes it in its Time.
#pragma once

#include <ginac/ginac.h>

#include <cstddef>
#include <map>
#include <memory>
#include <vector>

#include "model/tables.hpp"

namespace dualrate {

// An elementary function in double and in float (the portable libm's NAME and NAMEf).
struct UnaryFunction {
  double (*in_double)(double) = nullptr;
  float (*in_float)(float) = nullptr;
  double of(double x) const { return in_double(x); }
  float of(float x) const { return in_float(x); }
};
struct BinaryFunction {
  double (*in_double)(double, double) = nullptr;
  float (*in_float)(float, float) = nullptr;
  double of(double x, double y) const { return in_double(x, y); }
  float of(float x, float y) const { return in_float(x, y); }
};

// The nodes of one or more expressions, each distinct subexpression once and after its
// operands: evaluating them in order evaluates every shared subexpression once.
struct ExpressionGraph {
  enum class Op { kConst, kSlot, kAdd, kDiv, kPowInt, kSqrt, kPow, kCall1, kCall2, kTable, kTime };
  struct Node {
    Op op = Op::kConst;
    double value = 0;
    int index = 0;                       // slot, integer exponent
    UnaryFunction unary;                 // kCall1, resolved from the name when built
    BinaryFunction binary;               // kCall2, kPow
    std::shared_ptr<const Table> table;  // kTable (index: its slope mask)
    std::vector<int> args;               // kDiv: numerator factors, then index = count of denominator factors
  };
  std::vector<Node> nodes;
  int time_slot = -1;  // time's slot, where an expression reads time (its time terms then take the double t)
};

class Evaluator {
 public:
  // `slots` maps each symbol the expression may contain to its index in the value array.
  // The slot of a symbol named t, if any, is time's.
  Evaluator(const GiNaC::ex& e, const std::map<GiNaC::ex, int, GiNaC::ex_is_less>& slots);
  double operator()(const double* values) const;
  // The same in float arithmetic, as float generated code computes it: constants rounded to
  // float, every operation in float, the portable libm's float functions
  // (dualrate_libm_NAMEf); tables in float (Table::evaluate_as_generated<float>);
  // time terms in double with t = `time` and the other slots' float values.
  float operator()(const float* values, double time) const;

 private:
  ExpressionGraph graph_;
  int root_ = 0;
};

// Lists of expressions over the same slots, each list evaluated in double as one: a
// subexpression shared within or across the lists (the chain rule repeats a variable's
// definition across a Jacobian's entries) has one node, and a list's evaluation computes each
// node it reaches once. Each value is bit for bit the one its own Evaluator gives.
class EvaluatorSet {
 public:
  EvaluatorSet() = default;
  EvaluatorSet(const std::vector<std::vector<GiNaC::ex>>& lists,
               const std::map<GiNaC::ex, int, GiNaC::ex_is_less>& slots);
  // The number of values of list `list`.
  std::size_t size(std::size_t list) const { return lists_[list].roots.size(); }
  // The nodes one evaluation of list `list` computes.
  std::size_t nodes(std::size_t list) const { return lists_[list].reached.size(); }
  // The scratch an evaluation needs, in doubles.
  std::size_t scratch_size() const { return graph_.nodes.size(); }
  // out[i] = the value of the list's i-th expression; out holds size(list) values and
  // scratch (the caller's, reused across evaluations) scratch_size().
  void evaluate(std::size_t list, const double* values, double* scratch, double* out) const;

 private:
  struct List {
    std::vector<int> roots;
    std::vector<int> reached;  // the nodes the roots depend on, in the graph's order
  };
  ExpressionGraph graph_;
  std::vector<List> lists_;
};

}  // namespace dualrate
