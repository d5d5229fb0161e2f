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

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/tables.hpp"

namespace dualrate {

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

  // An elementary function in double and in float (the portable libm's NAME and NAMEf).
  struct Unary {
    double (*in_double)(double) = nullptr;
    float (*in_float)(float) = nullptr;
    double of(double x) const { return in_double(x); }
    float of(float x) const { return in_float(x); }
  };
  struct Binary {
    double (*in_double)(double, double) = nullptr;
    float (*in_float)(float, float) = nullptr;
    double of(double x, double y) const { return in_double(x, y); }
    float of(float x, float y) const { return in_float(x, y); }
  };

 private:
  friend class EvaluatorSet;
  enum class Op { kConst, kSlot, kAdd, kDiv, kPowInt, kSqrt, kPow, kCall1, kCall2, kTable, kTime };
  // The nodes of one or more expressions, each distinct subexpression once, after its operands.
  struct Node {
    Op op = Op::kConst;
    double value = 0;
    int index = 0;       // slot, integer exponent
    Unary unary;    // kCall1, resolved from the name when built
    Binary binary;  // kCall2, kPow
    std::shared_ptr<const Table> table;          // kTable (index: its slope mask)
    std::vector<int> args;  // kDiv: numerator factors, then index = count of denominator factors
  };
  class Builder;
  // Slot values in T's arithmetic; wide(): the same in double, time's slot holding the double time.
  template <class T>
  struct Slots;
  // n's value in T from its slots' values slot(i) and its operands' arg(k) in T, and wide(k)
  // in double with time's slot at the double time (the operand of a time term).
  template <class T, class Slot, class Arg, class Wide>
  static T apply(const Node& n, const Slot& slot, const Arg& arg, const Wide& wide);
  template <class T, class S>
  T eval(int node, const S& v) const;
  Evaluator() = default;
  std::vector<Node> nodes_;
  int time_slot_ = -1;  // time's slot, where the expression reads time (its time terms then take the double t)
  int root_ = 0;
};

// Many expressions over the same slots, evaluated in double as one: a subexpression they share
// (the chain rule repeats a variable's definition across a Jacobian's entries) is evaluated once.
// Each value is bit for bit the one its own Evaluator gives.
class EvaluatorSet {
 public:
  EvaluatorSet() = default;
  EvaluatorSet(const std::vector<GiNaC::ex>& es, const std::map<GiNaC::ex, int, GiNaC::ex_is_less>& slots);
  std::size_t size() const { return roots_.size(); }
  // out[i] = the value of es[i]; out holds size() values.
  void operator()(const double* values, double* out) const;
  // Its distinct nodes (what one evaluation costs).
  std::size_t nodes() const { return graph_.nodes_.size(); }

 private:
  Evaluator graph_;  // all the nodes; root_ unused
  std::vector<int> roots_;
};

}  // namespace dualrate
