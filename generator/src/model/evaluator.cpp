#include "model/evaluator.hpp"

#include <dualrate/portable_math.h>

#include <cmath>
#include <stdexcept>
#include <vector>

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
const std::map<std::string, UnaryFunction>& unary_functions() {
#define DUALRATE_EVALUATOR_ENTRY(name) {#name, {dualrate_libm_##name, dualrate_libm_##name##f}},
  static const std::map<std::string, UnaryFunction> table = {
      DUALRATE_LIBM_UNARY(DUALRATE_EVALUATOR_ENTRY){"dr_abs", {abs_of<double>, abs_of<float>}},
      {"dr_sign", {sign_of<double>, sign_of<float>}},
      {"dr_step", {step_of<double>, step_of<float>}}};
  return table;
}

const std::map<std::string, BinaryFunction>& binary_functions() {
  static const std::map<std::string, BinaryFunction> table = {
      DUALRATE_LIBM_BINARY(DUALRATE_EVALUATOR_ENTRY){"dr_min", {min_of<double>, min_of<float>}},
      {"dr_max", {max_of<double>, max_of<float>}}};
#undef DUALRATE_EVALUATOR_ENTRY
  return table;
}

using GiNaC::ex;
using Node = ExpressionGraph::Node;
using Op = ExpressionGraph::Op;

// Slot values in T's arithmetic; wide(): the same in double, time's slot holding the double time.
template <class T>
struct Slots;

template <>
struct Slots<double> {
  const double* values;
  double operator()(int i) const { return values[i]; }
  Slots<double> wide() const { return *this; }
};

template <>
struct Slots<float> {
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

// Adds the nodes of expressions to a graph, one node per distinct subexpression.
class Builder {
 public:
  Builder(ExpressionGraph& into, const std::map<ex, int, GiNaC::ex_is_less>& slots) : into_(into), slots_(slots) {}
  int add(const ex& e) {
    const auto known = memo_.find(e);
    if (known != memo_.end()) return known->second;
    Node n = node(e);
    into_.nodes.push_back(std::move(n));
    const int i = static_cast<int>(into_.nodes.size()) - 1;
    memo_.emplace(e, i);
    return i;
  }

 private:
  Node node(const ex& e);
  ExpressionGraph& into_;
  const std::map<ex, int, GiNaC::ex_is_less>& slots_;
  std::map<ex, int, GiNaC::ex_is_less> memo_;
};

Node Builder::node(const ex& e) {
  Node n;
  if (GiNaC::is_exactly_a<GiNaC::numeric>(e)) {
    n.op = Op::kConst;
    n.value = GiNaC::ex_to<GiNaC::numeric>(e).to_double();
  } else if (GiNaC::is_a<GiNaC::constant>(e)) {
    n.op = Op::kConst;
    n.value = GiNaC::ex_to<GiNaC::numeric>(e.evalf()).to_double();
  } else if (GiNaC::is_a<GiNaC::symbol>(e)) {
    auto it = slots_.find(e);
    if (it == slots_.end())
      throw std::logic_error("evaluator: unbound symbol " + GiNaC::ex_to<GiNaC::symbol>(e).get_name());
    n.op = Op::kSlot;
    n.index = it->second;
    if (GiNaC::ex_to<GiNaC::symbol>(e).get_name() == "t") into_.time_slot = n.index;
  } else if (GiNaC::is_a<GiNaC::add>(e)) {
    n.op = Op::kAdd;
    for (const auto& term : sum_terms(e)) n.args.push_back(add(term));
  } else if (GiNaC::is_a<GiNaC::mul>(e)) {
    const ProductParts parts = product_parts(e);
    n.op = Op::kDiv;
    n.value = parts.coefficient.to_double();
    for (const auto& f : parts.up) n.args.push_back(add(f));
    for (const auto& f : parts.down) n.args.push_back(add(f));
    n.index = static_cast<int>(parts.down.size());
  } else if (GiNaC::is_a<GiNaC::power>(e)) {
    n.args.push_back(add(even_power_base(e.op(0), e.op(1))));
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
      n.args.push_back(add(exponent));
    }
  } else if (is_time_term(e)) {
    n.op = Op::kTime;
    n.args.push_back(add(e.op(0)));
  } else if (is_table_call(e)) {
    TableCall c = table_call_of(e);
    n.op = Op::kTable;
    n.table = std::move(c.table);
    n.index = static_cast<int>(c.slope);
    for (const auto& arg : c.args) n.args.push_back(add(arg));
  } else if (GiNaC::is_a<GiNaC::function>(e)) {
    const std::string name = GiNaC::ex_to<GiNaC::function>(e).get_name();
    for (const auto& arg : e) n.args.push_back(add(arg));
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

// n's value in T from its slots' values slot(i) and its operands' arg(k) in T, and wide(k)
// in double with time's slot at the double time (the operand of a time term).
template <class T, class Slot, class Arg, class Wide>
T apply(const Node& n, const Slot& slot, const Arg& arg, const Wide& wide) {
  switch (n.op) {
    case Op::kConst:
      return static_cast<T>(n.value);
    case Op::kSlot:
      return slot(n.index);
    case Op::kTime:
      return static_cast<T>(wide(0));
    case Op::kAdd: {
      T s = arg(0);  // not 0 + ...: -0 + -0 is -0, 0 + -0 is 0
      for (std::size_t i = 1; i < n.args.size(); ++i) s += arg(i);
      return s;
    }
    case Op::kDiv: {
      const std::size_t ups = n.args.size() - static_cast<std::size_t>(n.index);
      T num = static_cast<T>(n.value);
      for (std::size_t i = 0; i < ups; ++i) num = (i == 0 && n.value == 1) ? arg(i) : num * arg(i);
      if (n.index == 0) return num;
      T den = arg(ups);
      for (std::size_t i = ups + 1; i < n.args.size(); ++i) den *= arg(i);
      return num / den;
    }
    case Op::kSqrt: {
      const T r = std::sqrt(arg(0));
      return n.index < 0 ? 1 / r : r;
    }
    case Op::kPowInt: {
      const T b = arg(0);
      T p = 1;
      for (int i = 0; i < std::abs(n.index); ++i) p *= b;
      return n.index < 0 ? 1 / p : p;
    }
    case Op::kPow:
      return n.binary.of(arg(0), arg(1));
    case Op::kCall1:
      return n.unary.of(arg(0));
    case Op::kCall2:
      return n.binary.of(arg(0), arg(1));
    case Op::kTable: {
      T args[kMaxTableAxes];
      for (std::size_t i = 0; i < n.args.size(); ++i) args[i] = arg(i);
      return n.table->evaluate_as_generated<T>(args, static_cast<unsigned>(n.index));
    }
  }
  throw std::logic_error("evaluator: unknown node");
}

template <class T, class S>
T eval(const std::vector<Node>& nodes, int node, const S& v) {
  const Node& n = nodes[static_cast<std::size_t>(node)];
  return apply<T>(
      n, v, [&](std::size_t k) { return eval<T>(nodes, n.args[k], v); },
      [&](std::size_t k) { return eval<double>(nodes, n.args[k], v.wide()); });
}

}  // namespace

Evaluator::Evaluator(const ex& e, const std::map<ex, int, GiNaC::ex_is_less>& slots) {
  root_ = Builder(graph_, slots).add(canonical_form(e));
}

// In the graph's order (a node's operands come before it), each node once: the recursive
// eval's operations on each node's value, without its repeats of shared operands.
double Evaluator::operator()(const double* values) const {
  constexpr std::size_t kOnStack = 64;
  const auto count = static_cast<std::size_t>(root_) + 1;
  double on_stack[kOnStack];
  std::vector<double> on_heap(count > kOnStack ? count : 0);
  double* scratch = count > kOnStack ? on_heap.data() : on_stack;
  const auto slot = [values](int i) { return values[i]; };
  for (std::size_t i = 0; i < count; ++i) {
    const Node& n = graph_.nodes[i];
    const auto arg = [&](std::size_t k) { return scratch[n.args[k]]; };
    scratch[i] = apply<double>(n, slot, arg, arg);
  }
  return scratch[root_];
}

float Evaluator::operator()(const float* values, double time) const {
  return eval<float>(graph_.nodes, root_, Slots<float>{values, time, graph_.time_slot});
}

EvaluatorSet::EvaluatorSet(const std::vector<std::vector<ex>>& lists,
                           const std::map<ex, int, GiNaC::ex_is_less>& slots) {
  Builder build(graph_, slots);
  for (const auto& es : lists) {
    List& list = lists_.emplace_back();
    for (const ex& e : es) list.roots.push_back(build.add(canonical_form(e)));
  }
  // A node's operands come before it: marking from the last node down reaches every operand.
  for (List& list : lists_) {
    std::vector<bool> needed(graph_.nodes.size(), false);
    for (const int r : list.roots) needed[static_cast<std::size_t>(r)] = true;
    for (std::size_t i = graph_.nodes.size(); i-- > 0;)
      if (needed[i])
        for (const int a : graph_.nodes[i].args) needed[static_cast<std::size_t>(a)] = true;
    for (std::size_t i = 0; i < needed.size(); ++i)
      if (needed[i]) list.reached.push_back(static_cast<int>(i));
  }
}

void EvaluatorSet::evaluate(std::size_t list, const double* values, double* scratch, double* out) const {
  const List& l = lists_[list];
  const auto slot = [values](int i) { return values[i]; };
  for (const int i : l.reached) {
    const Node& n = graph_.nodes[static_cast<std::size_t>(i)];
    const auto arg = [&](std::size_t k) { return scratch[n.args[k]]; };
    scratch[i] = apply<double>(n, slot, arg, arg);
  }
  for (std::size_t r = 0; r < l.roots.size(); ++r) out[r] = scratch[l.roots[r]];
}

}  // namespace dualrate
