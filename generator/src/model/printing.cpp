#include "model/printing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include "model/functions.hpp"
#include "model/cpp_names.hpp"
#include "model/tables.hpp"

namespace dualrate {

using GiNaC::ex;
using GiNaC::ex_to;
using GiNaC::is_a;
using GiNaC::is_exactly_a;
using GiNaC::numeric;

namespace {

// compute(e), once per expression for the life of the process: canonical printing and
// ordering look at every level of an expression, so a deep one would otherwise be
// processed again for every level above it. One cache per compute.
template <class Value, Value (*compute)(const ex&)>
const Value& memoized(const ex& e) {
  static std::unordered_map<ex, Value, std::hash<ex>, GiNaC::ex_is_equal> cache;
  const auto found = cache.find(e);
  if (found != cache.end()) return found->second;
  Value v = compute(e);
  return cache.emplace(e, std::move(v)).first->second;
}

ProductParts product_parts_uncached(const ex& product);
ex canonical_sign(const ex& factor, numeric& coefficient);

// A power `e` in the canonical sign of its base, and whether that negates it: an odd integer
// power of a sum is held by GiNaC in the sign its integer coefficients give, which may be
// opposite to the sum's preferred_sign.
struct SignedPower {
  ex power;
  bool negated = false;
};
SignedPower signed_power(const ex& e) {
  numeric sign = 1;
  const ex p = canonical_sign(e, sign);
  return {p, sign.is_negative()};
}

bool negated_power(const ex& e) { return is_a<GiNaC::power>(e) && signed_power(e).negated; }

}  // namespace

namespace {

// v exactly, as a constant of type `type`.
std::string literal(double v, const char* type) {
  if (!std::isfinite(v)) throw std::logic_error("non-finite constant in emission");
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0) {
    if (v < 0) return fmt::format("-{}({:.0f})", type, -v);
    return fmt::format("{}({:.0f})", type, v == 0 ? 0.0 : v);
  }
  if (v < 0) return fmt::format("-{}({:a})", type, -v);
  return fmt::format("{}({:a})", type, v);
}

}  // namespace

std::string scalar_literal(double v) { return literal(v, "Scalar"); }

std::string typed_literal(double v, const std::string& type) { return literal(v, type.c_str()); }

namespace {

// Precedence of what an expression prints as: higher binds tighter.
enum Prec { kSum = 1, kProduct = 2, kUnary = 3, kAtom = 4 };

struct Printed {
  std::string text;
  int prec;
};

std::string wrap(const Printed& p, int needed) { return p.prec < needed ? "(" + p.text + ")" : p.text; }

// How an expression is printed: in Scalar, or in Time (the argument of a time term, dr_time:
// its parameters converted to Time, its constants Time literals).
enum class In { kScalar, kTime };

template <In A>
Printed print(const ex& e);

template <In A>
std::string literal_in(double v) {
  return literal(v, A == In::kTime ? "Time" : "Scalar");
}

bool negative_numeric(const ex& e) { return is_exactly_a<numeric>(e) && ex_to<numeric>(e).is_negative(); }

std::string integer_power(const std::string& base, long n) {
  return fmt::format("dualrate::math::powi<{}>({})", n, base);
}

template <In A>
Printed print_power(const ex& base, const ex& exponent) {
  const std::string b = print<A>(even_power_base(base, exponent)).text;
  if (is_exactly_a<numeric>(exponent)) {
    const numeric& n = ex_to<numeric>(exponent);
    if (n.is_integer() && n.is_positive() && n <= 64) return {integer_power(b, n.to_long()), kAtom};
    if (n.is_integer() && n.is_negative() && n >= -64)
      return {literal_in<A>(1) + "/" + integer_power(b, -n.to_long()), kProduct};
    if (n == numeric(1, 2)) return {"std::sqrt(" + b + ")", kAtom};
    if (n == numeric(-1, 2)) return {literal_in<A>(1) + "/std::sqrt(" + b + ")", kProduct};
  }
  return {"dualrate::math::pow(" + b + ", " + print<A>(exponent).text + ")", kAtom};
}

// A product printed as [-]numerator/denominator.
template <In A>
Printed print_product(const ex& e) {
  const ProductParts parts = product_parts(e);
  numeric coefficient = parts.coefficient;
  const std::vector<ex>& up = parts.up;
  const std::vector<ex>& down = parts.down;
  const bool negate = coefficient.is_negative();
  if (negate) coefficient = -coefficient;
  std::string num;
  if (coefficient != 1 || up.empty()) num = literal_in<A>(coefficient.to_double());
  for (const auto& f : up) num += (num.empty() ? "" : "*") + wrap(print<A>(f), kProduct);
  std::string text = num;
  if (!down.empty()) {
    std::string den;
    for (const auto& f : down) den += (den.empty() ? "" : "*") + wrap(print<A>(f), kProduct);
    text += "/" + (down.size() > 1 ? "(" + den + ")" : wrap(print<A>(down.front()), kUnary));
  }
  if (negate) return {"-" + text, kUnary};
  return {text, (up.size() + down.size() + (coefficient != 1 ? 1 : 0)) > 1 ? kProduct : kAtom};
}

template <In A>
Printed print_sum(const ex& e) {
  std::string text;
  bool first = true;
  for (const auto& term : sum_terms(e)) {
    if (first) {
      text = wrap(print<A>(term), kSum);
      first = false;
    } else if (negative_sign(term)) {
      text += " - " + wrap(print<A>(-term), kProduct);
    } else {
      text += " + " + wrap(print<A>(term), kProduct);
    }
  }
  return {text, kSum};
}

template <In A>
std::string call(const std::string& f, const ex& e) {
  std::string args;
  for (const auto& a : e) args += (args.empty() ? "" : ", ") + print<A>(a).text;
  return f + "(" + args + ")";
}

template <In A>
Printed print_uncached(const ex& e);

// Canonical printing sorts operands by their printed text at every level: memoized, or a
// deep expression would be printed again for every level above it.
template <In A>
Printed print(const ex& e) {
  return memoized<Printed, print_uncached<A>>(e);
}

Printed print(const ex& e) { return print<In::kScalar>(e); }

template <In A>
Printed print_uncached(const ex& e) {
  if (is_exactly_a<numeric>(e)) {
    const double v = ex_to<numeric>(e).to_double();
    return {literal_in<A>(v), v < 0 ? kUnary : kAtom};
  }
  if (is_a<GiNaC::constant>(e)) return {literal_in<A>(ex_to<numeric>(e.evalf()).to_double()), kAtom};
  if (is_a<GiNaC::symbol>(e)) {
    const std::string& name = ex_to<GiNaC::symbol>(e).get_name();
    return {A == In::kTime && name != "t" ? "Time(" + name + ")" : name, kAtom};
  }
  if (is_a<GiNaC::add>(e)) return print_sum<A>(e);
  if (is_a<GiNaC::mul>(e)) return print_product<A>(e);
  if (is_a<GiNaC::power>(e)) {
    const SignedPower p = signed_power(e);
    if (p.negated) return {"-" + print_power<A>(p.power.op(0), p.power.op(1)).text, kUnary};
    return print_power<A>(e.op(0), e.op(1));
  }
  if (is_time_term(e)) {
    if (A == In::kTime) return print<A>(e.op(0));
    return {"static_cast<Scalar>(" + print<In::kTime>(e.op(0)).text + ")", kAtom};
  }
  if (is_table_call(e)) {
    // The generated Model's wrapper of dualrate::lookup::table (emit/cpp_emitter.cpp).
    const TableCall c = table_call_of(e);
    std::string args;
    for (const auto& a : c.args) args += (args.empty() ? "" : ", ") + print<A>(a).text;
    return {cpp_name(c.table->name) + (c.slope ? "<" + std::to_string(c.slope) + ">" : "") + "(" + args + ")", kAtom};
  }
  if (is_a<GiNaC::function>(e)) {
    return {call<A>(cpp_function(ex_to<GiNaC::function>(e).get_name()), e), kAtom};
  }
  throw std::logic_error("emission: unsupported expression");
}

}  // namespace

std::string cpp_expression(const ex& e) { return print(e).text; }

namespace {

// Sorts expressions by their printed text, which the canonical order of their own operands
// makes independent of GiNaC's.
void sort_by_text(std::vector<ex>& v) {
  std::vector<std::pair<std::string, ex>> keyed;
  keyed.reserve(v.size());
  for (const auto& e : v) keyed.emplace_back(print(e).text, e);
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = keyed[i].second;
}

}  // namespace

bool negative_sign(const ex& term) {
  if (negative_numeric(term) || negated_power(term)) return true;
  return is_a<GiNaC::mul>(term) && product_parts(term).coefficient.is_negative();
}

std::vector<ex> sum_terms(const ex& sum) {
  std::vector<ex> added, subtracted;
  for (const auto& term : sum) (negative_sign(term) ? subtracted : added).push_back(term);
  sort_by_text(added);
  sort_by_text(subtracted);
  added.insert(added.end(), subtracted.begin(), subtracted.end());
  return added;
}

namespace {

long subtracted_terms(const ex& sum) {
  long n = 0;
  for (const auto& term : sum) n += negative_sign(term) ? 1 : 0;
  return n;
}

// A sum factor s (or s^k, k an integer) of a product in its canonical sign (preferred_sign);
// the product's coefficient takes the sign, (-1)^k.
ex canonical_sign(const ex& factor, numeric& coefficient) {
  const bool power = is_a<GiNaC::power>(factor);
  const ex base = power ? factor.op(0) : factor;
  if (!is_a<GiNaC::add>(base)) return factor;
  if (power && !(is_exactly_a<numeric>(factor.op(1)) && ex_to<numeric>(factor.op(1)).is_integer())) return factor;
  ex preferred = preferred_sign(base);
  if (preferred.is_equal(base)) return factor;
  if (!power) {
    coefficient = -coefficient;
    return preferred;
  }
  if (ex_to<numeric>(factor.op(1)).is_odd()) coefficient = -coefficient;
  // Held: GiNaC gives an integer power of a sum with integer coefficients the sign that makes
  // its own first term positive, so pow() could turn (b - a)^3 back into -(a - b)^3.
  return GiNaC::power(preferred, factor.op(1)).hold();
}

// A term of a sum as coefficient * rest, its sum factors in canonical sign (the sign in the
// coefficient), or a factor of a product as base^exponent, the same.
struct Scaled {
  numeric coefficient = 1;
  ex rest;
};

Scaled split_term(const ex& term) {
  Scaled t;
  GiNaC::exvector factors;
  if (is_exactly_a<numeric>(term)) {
    t.coefficient = ex_to<numeric>(term);
    t.rest = 1;
    return t;
  }
  if (is_a<GiNaC::mul>(term)) {
    for (const auto& f : term)
      if (is_exactly_a<numeric>(f))
        t.coefficient *= ex_to<numeric>(f);
      else
        factors.push_back(canonical_sign(f, t.coefficient));
  } else {
    factors.push_back(canonical_sign(term, t.coefficient));
  }
  t.rest = GiNaC::mul(factors);
  return t;
}

ex canonical_uncached(const ex& e) {
  struct Map : GiNaC::map_function {
    ex operator()(const ex& x) override { return canonical_form(x); }
  } map;
  ex rebuilt = e.map(map);
  if (is_a<GiNaC::add>(rebuilt)) {
    // Like terms, by the printed text of their rest: GiNaC keeps c*s*x and c*(-s)*x apart.
    std::map<std::string, Scaled> terms;
    for (const auto& op : rebuilt) {
      const Scaled t = split_term(op);
      auto [it, added] = terms.emplace(cpp_expression(t.rest), t);
      if (!added) it->second.coefficient += t.coefficient;
    }
    GiNaC::exvector sum;
    for (const auto& [text, t] : terms)
      if (!t.coefficient.is_zero()) sum.push_back(t.coefficient * t.rest);
    return GiNaC::add(sum);
  }
  if (is_a<GiNaC::mul>(rebuilt) || is_a<GiNaC::power>(rebuilt)) {
    // Like factors, by the printed text of their base: s^a (-s)^b = (-1)^b s^(a+b).
    numeric coefficient = 1;
    std::map<std::string, std::pair<ex, ex>> factors;  // base, exponent
    const auto collect = [&](const ex& f) {
      if (is_exactly_a<numeric>(f)) {
        coefficient *= ex_to<numeric>(f);
        return;
      }
      const ex signed_factor = canonical_sign(f, coefficient);
      const bool power = is_a<GiNaC::power>(signed_factor);
      const ex base = power ? signed_factor.op(0) : signed_factor;
      const ex exponent = power ? signed_factor.op(1) : ex(1);
      auto [it, added] = factors.emplace(cpp_expression(base), std::make_pair(base, exponent));
      if (!added) it->second.second += exponent;
    };
    if (is_a<GiNaC::mul>(rebuilt))
      for (const auto& f : rebuilt) collect(f);
    else
      collect(rebuilt);
    GiNaC::exvector product{coefficient};
    for (const auto& [text, f] : factors) product.push_back(GiNaC::pow(f.first, f.second));
    return GiNaC::mul(product);
  }
  return rebuilt;
}

}  // namespace

ex canonical_form(const ex& e) {
  if (e.nops() == 0) return e;
  return memoized<ex, canonical_uncached>(e);
}

ex unsigned_form(const ex& e) {
  if (is_a<GiNaC::add>(e)) return preferred_sign(e);
  if (is_a<GiNaC::mul>(e)) return product_parts(e).negative ? ex(-e) : e;
  numeric sign = 1;
  return canonical_sign(e, sign);
}

namespace {

ex preferred_sign_uncached(const ex& sum) {
  ex flipped = -sum;
  if (!is_a<GiNaC::add>(flipped)) return sum;
  const long kept = subtracted_terms(sum), other = subtracted_terms(flipped);
  if (other > kept || (other == kept && print(flipped).text >= print(sum).text)) return sum;
  return flipped;
}

}  // namespace

ex preferred_sign(const ex& sum) { return is_a<GiNaC::add>(sum) ? memoized<ex, preferred_sign_uncached>(sum) : sum; }

ex even_power_base(const ex& base, const ex& exponent) {
  const bool even = is_exactly_a<numeric>(exponent) && ex_to<numeric>(exponent).is_even();
  return even ? preferred_sign(base) : base;
}

ProductParts product_parts(const ex& product) { return memoized<ProductParts, product_parts_uncached>(product); }

namespace {

ProductParts product_parts_uncached(const ex& product) {
  ProductParts p;
  for (const auto& f : product) {
    if (is_exactly_a<numeric>(f))
      p.coefficient *= ex_to<numeric>(f);
    else if (is_a<GiNaC::power>(f) && is_exactly_a<numeric>(f.op(1)) && ex_to<numeric>(f.op(1)).is_negative())
      p.down.push_back(GiNaC::pow(f.op(0), -f.op(1)));
    else
      p.up.push_back(f);
  }
  for (auto* list : {&p.up, &p.down})
    for (auto& f : *list) f = canonical_sign(f, p.coefficient);
  sort_by_text(p.up);
  sort_by_text(p.down);
  p.negative = p.coefficient.is_negative();
  // A negative coefficient costs a negation: the first sum factor (in that order) that can take
  // the sign without all its terms becoming subtracted takes it instead.
  if (p.coefficient.is_negative())
    for (auto* list : {&p.up, &p.down})
      for (auto& f : *list) {
        if (!p.coefficient.is_negative() || !is_a<GiNaC::add>(f)) continue;
        const ex flipped = -f;
        if (!is_a<GiNaC::add>(flipped) || subtracted_terms(flipped) == static_cast<long>(flipped.nops())) continue;
        f = flipped;
        p.coefficient = -p.coefficient;
        sort_by_text(*list);
        break;
      }
  return p;
}

}  // namespace

}  // namespace dualrate
