#include "model/evaluator.hpp"

#include <dualrate/portable_math.h>

#include <cmath>
#include <stdexcept>

#include "model/functions.hpp"
#include "model/printing.hpp"

namespace dualrate {

namespace {

template <class T>
T abs_of(T a) {
  return std::fabs(a);
}
template <class T>
T sign_of(T a) {
  return a > 0 ? T(1) : (a < 0 ? T(-1) : T(0));
}
template <class T>
T step_of(T a) {
  return a >= 0 ? T(1) : T(0);
}
template <class T>
T min_of(T a, T b) {
  return a <= b ? a : b;
}
template <class T>
T max_of(T a, T b) {
  return a >= b ? a : b;
}

// The functions of model expressions by their GiNaC names, in double and in float.
const std::map<std::string, Evaluator::Unary>& unary_functions() {
#define DUALRATE_EVALUATOR_ENTRY(name) {#name, {dualrate_libm_##name, dualrate_libm_##name##f}},
  static const std::map<std::string, Evaluator::Unary> table = {
      DUALRATE_LIBM_UNARY(DUALRATE_EVALUATOR_ENTRY){"dr_abs", {abs_of<double>, abs_of<float>}},
      {"dr_sign", {sign_of<double>, sign_of<float>}},
      {"dr_step", {step_of<double>, step_of<float>}}};
  return table;
}

const std::map<std::string, Evaluator::Binary>& binary_functions() {
  static const std::map<std::string, Evaluator::Binary> table = {
      DUALRATE_LIBM_BINARY(DUALRATE_EVALUATOR_ENTRY){"dr_min", {min_of<double>, min_of<float>}},
      {"dr_max", {max_of<double>, max_of<float>}}};
#undef DUALRATE_EVALUATOR_ENTRY
  return table;
}

}  // namespace

template <>
struct Evaluator::Slots<double> {
  const double* values;
  double operator()(int i) const { return values[i]; }
  Slots<double> wide() const { return *this; }
};

template <>
struct Evaluator::Slots<float> {
  const float* values;
  double time;
  int time_slot;
  float operator()(int i) const { return values[i]; }
  struct Wide {
    const float* values;
    double time;
    int time_slot;
    double operator()(int i) const { return i == time_slot ? time : static_cast<double>(values[i]); }
    Wide wide() const { return *this; }
  };
  Wide wide() const { return {values, time, time_slot}; }
};

using GiNaC::ex;

Evaluator::Evaluator(const ex& e, const std::map<ex, int, GiNaC::ex_is_less>& slots)
    : root_(build(canonical_form(e), slots, time_slot_)) {}

Evaluator::Node Evaluator::build(const ex& e, const std::map<ex, int, GiNaC::ex_is_less>& slots, int& time_slot) {
  Node n;
  if (GiNaC::is_exactly_a<GiNaC::numeric>(e)) {
    n.op = Op::kConst;
    n.value = GiNaC::ex_to<GiNaC::numeric>(e).to_double();
  } else if (GiNaC::is_a<GiNaC::constant>(e)) {
    n.op = Op::kConst;
    n.value = GiNaC::ex_to<GiNaC::numeric>(e.evalf()).to_double();
  } else if (GiNaC::is_a<GiNaC::symbol>(e)) {
    auto it = slots.find(e);
    if (it == slots.end()) throw std::logic_error("evaluator: unbound symbol " + GiNaC::ex_to<GiNaC::symbol>(e).get_name());
    n.op = Op::kSlot;
    n.index = it->second;
    if (GiNaC::ex_to<GiNaC::symbol>(e).get_name() == "t") time_slot = n.index;
  } else if (GiNaC::is_a<GiNaC::add>(e)) {
    n.op = Op::kAdd;
    for (const auto& term : sum_terms(e)) n.args.push_back(build(term, slots, time_slot));
  } else if (GiNaC::is_a<GiNaC::mul>(e)) {
    const ProductParts parts = product_parts(e);
    n.op = Op::kDiv;
    n.value = parts.coefficient.to_double();
    for (const auto& f : parts.up) n.args.push_back(build(f, slots, time_slot));
    for (const auto& f : parts.down) n.args.push_back(build(f, slots, time_slot));
    n.index = static_cast<int>(parts.down.size());
  } else if (GiNaC::is_a<GiNaC::power>(e)) {
    n.args.push_back(build(even_power_base(e.op(0), e.op(1)), slots, time_slot));
    const ex exponent = e.op(1);
    const bool numeric_exponent = GiNaC::is_exactly_a<GiNaC::numeric>(exponent);
    if (numeric_exponent && GiNaC::ex_to<GiNaC::numeric>(exponent).is_integer() &&
        GiNaC::abs(GiNaC::ex_to<GiNaC::numeric>(exponent)) <= 64) {
      n.op = Op::kPowInt;
      n.index = GiNaC::ex_to<GiNaC::numeric>(exponent).to_int();
    } else if (numeric_exponent && GiNaC::abs(GiNaC::ex_to<GiNaC::numeric>(exponent)) == GiNaC::numeric(1, 2)) {
      n.op = Op::kSqrt;
      n.index = GiNaC::ex_to<GiNaC::numeric>(exponent).is_negative() ? -1 : 1;
    } else {
      n.op = Op::kPow;
      n.binary = binary_functions().at("pow");
      n.args.push_back(build(exponent, slots, time_slot));
    }
  } else if (is_time_term(e)) {
    n.op = Op::kTime;
    n.args.push_back(build(e.op(0), slots, time_slot));
  } else if (is_table_call(e)) {
    TableCall c = table_call_of(e);
    n.op = Op::kTable;
    n.table = std::move(c.table);
    n.index = static_cast<int>(c.slope);
    for (const auto& arg : c.args) n.args.push_back(build(arg, slots, time_slot));
  } else if (GiNaC::is_a<GiNaC::function>(e)) {
    const std::string name = GiNaC::ex_to<GiNaC::function>(e).get_name();
    for (const auto& arg : e) n.args.push_back(build(arg, slots, time_slot));
    const auto unary = unary_functions().find(name);
    const auto binary = binary_functions().find(name);
    if (n.args.size() == 1 && unary != unary_functions().end()) {
      n.op = Op::kCall1;
      n.unary = unary->second;
    } else if (n.args.size() == 2 && binary != binary_functions().end()) {
      n.op = Op::kCall2;
      n.binary = binary->second;
    } else {
      throw std::logic_error("evaluator: unknown function " + name);
    }
  } else {
    throw std::logic_error("evaluator: unsupported expression");
  }
  return n;
}

template <class T, class S>
T Evaluator::eval(const Node& n, const S& v) {
  switch (n.op) {
    case Op::kConst: return static_cast<T>(n.value);
    case Op::kSlot: return v(n.index);
    case Op::kTime: return static_cast<T>(eval<double>(n.args[0], v.wide()));
    case Op::kAdd: {
      T s = eval<T>(n.args[0], v);  // not 0 + ...: -0 + -0 is -0, 0 + -0 is 0
      for (std::size_t i = 1; i < n.args.size(); ++i) s += eval<T>(n.args[i], v);
      return s;
    }
    case Op::kDiv: {
      const std::size_t ups = n.args.size() - static_cast<std::size_t>(n.index);
      T num = static_cast<T>(n.value);
      for (std::size_t i = 0; i < ups; ++i) num = (i == 0 && n.value == 1) ? eval<T>(n.args[i], v) : num * eval<T>(n.args[i], v);
      if (n.index == 0) return num;
      T den = eval<T>(n.args[ups], v);
      for (std::size_t i = ups + 1; i < n.args.size(); ++i) den *= eval<T>(n.args[i], v);
      return num / den;
    }
    case Op::kSqrt: {
      const T r = std::sqrt(eval<T>(n.args[0], v));
      return n.index < 0 ? 1 / r : r;
    }
    case Op::kPowInt: {
      const T b = eval<T>(n.args[0], v);
      T p = 1;
      for (int i = 0; i < std::abs(n.index); ++i) p *= b;
      return n.index < 0 ? 1 / p : p;
    }
    case Op::kPow: return n.binary.of(eval<T>(n.args[0], v), eval<T>(n.args[1], v));
    case Op::kCall1: return n.unary.of(eval<T>(n.args[0], v));
    case Op::kCall2: return n.binary.of(eval<T>(n.args[0], v), eval<T>(n.args[1], v));
    case Op::kTable: {
      T args[kMaxTableAxes];
      for (std::size_t i = 0; i < n.args.size(); ++i) args[i] = eval<T>(n.args[i], v);
      return n.table->evaluate_as_generated<T>(args, static_cast<unsigned>(n.index));
    }
  }
  throw std::logic_error("evaluator: unknown node");
}

double Evaluator::operator()(const double* values) const { return eval<double>(root_, Slots<double>{values}); }

float Evaluator::operator()(const float* values, double time) const {
  return eval<float>(root_, Slots<float>{values, time, time_slot_});
}


}  // namespace dualrate
