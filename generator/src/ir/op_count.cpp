#include "ir/op_count.hpp"

#include <dualrate/portable_math.h>

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "model/printing.hpp"
#include "model/functions.hpp"
#include "model/tables.hpp"

namespace dualrate {

using GiNaC::ex;
using GiNaC::ex_to;
using GiNaC::is_a;
using GiNaC::is_exactly_a;
using GiNaC::numeric;

OpCount& OpCount::operator+=(const OpCount& o) {
  add += o.add;
  mul += o.mul;
  div += o.div;
  neg += o.neg;
  calls += o.calls;
  functions.insert(o.functions.begin(), o.functions.end());
  return *this;
}

OpCount operator*(long times, const OpCount& c) {
  OpCount r = c;
  r.add *= times;
  r.mul *= times;
  r.div *= times;
  r.neg *= times;
  r.calls *= times;
  return r;
}

namespace {

OpCount call(const std::string& name) {
  OpCount c;
  c.calls = 1;
  c.functions.insert(name);
  return c;
}

// Mirrors print_product: [-] coefficient * up factors / (down factors).
OpCount product_ops(const ex& e) {
  OpCount c;
  const ProductParts parts = product_parts(e);
  const numeric& coefficient = parts.coefficient;
  const long up = static_cast<long>(parts.up.size()), down = static_cast<long>(parts.down.size());
  for (const auto* list : {&parts.up, &parts.down})
    for (const auto& f : *list) c += count_ops(f);
  const long numerator_factors = up + ((coefficient != 1 && coefficient != -1) || up == 0 ? 1 : 0);
  c.mul += numerator_factors - 1 + (down > 0 ? down - 1 : 0);
  if (down > 0) ++c.div;
  if (coefficient.is_negative()) ++c.neg;
  return c;
}

OpCount power_ops(const ex& base, const ex& exponent) {
  OpCount c = count_ops(base);
  if (is_exactly_a<numeric>(exponent)) {
    const numeric& n = ex_to<numeric>(exponent);
    if (n.is_integer() && n.is_positive() && n <= 64) {
      c.mul += n.to_long() - 1;
      return c;
    }
    if (n.is_integer() && n.is_negative() && n >= -64) {
      c.mul += -n.to_long() - 1;
      ++c.div;
      return c;
    }
    if (n == numeric(1, 2) || n == numeric(-1, 2)) {
      c += call("std::sqrt");
      if (n.is_negative()) ++c.div;
      return c;
    }
  }
  c += count_ops(exponent);
  c += call("dualrate::math::pow");
  return c;
}

OpCount count_ops_uncached(const ex& e) {
  if (is_a<GiNaC::add>(e)) {
    OpCount c;
    bool first = true;
    for (const auto& term : sum_terms(e)) {
      // Later negative terms print as "- (-term)": the subtraction carries the sign.
      const bool subtracted = !first && negative_sign(term);
      c += count_ops(subtracted ? ex(-term) : term);
      if (!first) ++c.add;
      first = false;
    }
    return c;
  }
  if (is_a<GiNaC::mul>(e)) return product_ops(e);
  if (is_a<GiNaC::power>(e)) return power_ops(e.op(0), e.op(1));
  if (is_table_call(e)) {
    // dualrate::lookup::table as written: per axis x - b_i, the width and the fraction; per
    // corner of the cell's box, D factors (half of them 1 - f) times the value, summed.
    const long d = static_cast<long>(e.nops()) - 2, corners = 1L << d;
    OpCount c = arithmetic(2 * d + corners / 2 * d + corners, corners * (d + 1), d);
    c.functions.insert("dualrate::lookup::table");
    for (std::size_t k = 2; k < e.nops(); ++k) c += count_ops(e.op(k));
    return c;
  }
  if (is_time_term(e)) return count_ops(e.op(0));  // in Time, then converted (not counted)
  if (is_a<GiNaC::function>(e)) {
    OpCount c = call(cpp_function(ex_to<GiNaC::function>(e).get_name()));
    for (const auto& a : e) c += count_ops(a);
    return c;
  }
  throw std::logic_error("op count: unsupported expression");
}

}  // namespace

// Once per expression for the life of the process: the common-subexpression search
// (straight_line) counts every statement again at every round.
OpCount count_ops(const ex& e) {
  if (is_exactly_a<numeric>(e) || is_a<GiNaC::constant>(e) || is_a<GiNaC::symbol>(e)) return {};
  static std::unordered_map<ex, OpCount, std::hash<ex>, GiNaC::ex_is_equal> counts;
  const auto found = counts.find(e);
  if (found != counts.end()) return found->second;
  OpCount c = count_ops_uncached(e);
  counts.emplace(e, c);
  return c;
}

OpCount arithmetic(long add, long mul, long div) {
  OpCount c;
  c.add = add;
  c.mul = mul;
  c.div = div;
  return c;
}

std::set<std::string> called_functions(const Model& model) {
  OpCount c;
  for (const auto& v : model.variables) c += count_ops(v.expr);
  for (const auto& x : model.states) c += count_ops(x.rhs);
  for (const auto& y : model.outputs) c += count_ops(y.expr);
  for (std::size_t i = 0; i < model.inputs.size(); ++i) c += count_ops(model.input_signal(i));
  return c.functions;
}

std::set<std::string> portable_math_functions(const std::set<std::string>& functions) {
#define DUALRATE_PORTABLE_NAME(name) std::string("dualrate::math::") + #name,
  static const std::set<std::string> portable = {DUALRATE_LIBM_UNARY(DUALRATE_PORTABLE_NAME)
                                                     DUALRATE_LIBM_BINARY(DUALRATE_PORTABLE_NAME)};
#undef DUALRATE_PORTABLE_NAME
  std::set<std::string> r;
  for (const auto& f : functions)
    if (portable.count(f)) r.insert(f);
  return r;
}

}  // namespace dualrate
