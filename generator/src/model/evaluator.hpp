// Numeric evaluation of model expressions in double (and in float, as float generated code), by
// walking a tree built once from the GiNaC expression. The reference core uses it, so that no
// generated code is involved in computing the oracle. Evaluation follows the model as written: a product is evaluated as
// coefficient * factors / (denominator factors), a sum left to right, both with operands in
// the canonical order (sum_terms, product_parts: the emitter's), x^n for integer n as
// repeated multiplication, x^(1/2) as sqrt; the semantics of sign, step, min and max are
// those of runtime/include/dualrate/math.hpp; the elementary functions are the portable
// libm's (<dualrate/portable_math.h>), the same ones the generated code calls in verify;
// tables by Table::evaluate_as_generated (the runtime's interpolation arithmetic after the
// table's own linear scan for the cell).
// A time term (dr_time: Model::with_time_terms) is evaluated in double and rounded to float, as
// the generated code computes it in its Time.
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
  enum class Op { kConst, kSlot, kAdd, kDiv, kPowInt, kSqrt, kPow, kCall1, kCall2, kTable, kTime };
  struct Node {
    Op op = Op::kConst;
    double value = 0;
    int index = 0;       // slot, integer exponent
    Unary unary;    // kCall1, resolved from the name when built
    Binary binary;  // kCall2, kPow
    std::shared_ptr<const Table> table;          // kTable (index: its slope mask)
    std::vector<Node> args;  // kDiv: numerator factors, then index = count of denominator factors
  };
  // Slot values in T's arithmetic; wide(): the same in double, time's slot holding the double time.
  template <class T>
  struct Slots;
  // The tree of e; `time_slot` set to the slot of a symbol named t where e reads one.
  static Node build(const GiNaC::ex& e, const std::map<GiNaC::ex, int, GiNaC::ex_is_less>& slots, int& time_slot);
  template <class T, class S>
  static T eval(const Node& n, const S& v);
  int time_slot_ = -1;  // time's slot, where the expression reads time (its time terms then take the double t)
  Node root_;
};

}  // namespace dualrate
