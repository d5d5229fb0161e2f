#include "model/expression.hpp"

#include <cmath>
#include <regex>
#include <sstream>

#include "model/functions.hpp"
#include "model/parser_input.hpp"

namespace dualrate {

namespace {

// GiNaC's message without its prefix (parser position or C++ function) and source trailer,
// internal names put back.
std::string user_message(std::string msg, const ParserInput& r) {
  static const std::regex prefix("^(GiNaC: parse error at line [0-9]+, column [0-9]+|[A-Za-z_:]+\\(\\)): ");
  msg = std::regex_replace(msg, prefix, "");
  if (auto nl = msg.find('\n'); nl != std::string::npos) msg.erase(nl);
  for (const auto& alias : r.aliases) {
    const std::string quoted = "\"" + alias.internal + "\"";
    if (auto p = msg.find(quoted); p != std::string::npos) msg.replace(p, quoted.size(), "'" + alias.user + "'");
  }
  return msg;
}

// The parsed expression with its numbers back, evaluated bottom-up; a power of numbers b^x is
// refused before GiNaC computes it when it would have more than kMaxPowerBits bits: exact
// b^(p/q), |p| times the bits of b's numerator and denominator; in floating point, |x log2 |b||.
// No double is that precise or large, and such powers take GiNaC minutes and all memory.
constexpr long kMaxPowerBits = 1L << 20;

GiNaC::ex restore(const GiNaC::ex& e, const ParserInput& r, const ExpressionText& src, const ExpressionScope& scope) {
  if (GiNaC::is_a<GiNaC::symbol>(e)) {
    const auto number = r.numbers.find(e);
    return number == r.numbers.end() ? e : number->second;
  }
  if (e.nops() == 0) return e;
  if (GiNaC::is_a<GiNaC::power>(e)) {
    const GiNaC::ex base = restore(e.op(0), r, src, scope), exponent = restore(e.op(1), r, src, scope);
    if (GiNaC::is_exactly_a<GiNaC::numeric>(base) && GiNaC::is_exactly_a<GiNaC::numeric>(exponent)) {
      const auto& b = GiNaC::ex_to<GiNaC::numeric>(base);
      const auto& x = GiNaC::ex_to<GiNaC::numeric>(exponent);
      // GiNaC throws on these after allocating the power, which it then never frees.
      if (b.is_zero() && !GiNaC::real(x).is_positive())
        throw ModelError(src.at(0), "cannot evaluate " + scope.what + ": " +
                                        (x.is_zero() ? "0^0 is undefined" : "division by zero"));
      const auto bits = [](const GiNaC::numeric& n) { return static_cast<double>(GiNaC::abs(n).int_length()); };
      // Floating-point powers too: CLN raises its precision with the exponent
      // (0.82^(-1.5e21) asked for a 2^59-byte number).
      const double estimate =
          b.is_rational() && x.is_rational()
              ? (bits(x.numer()) > 62 ? HUGE_VAL
                                      : std::fabs(x.numer().to_double()) * (bits(b.numer()) + bits(b.denom())))
              : std::fabs(GiNaC::real(x).to_double()) * std::fabs(std::log2(std::fabs(GiNaC::abs(b).to_double())));
      if (!(estimate <= static_cast<double>(kMaxPowerBits)) && !b.is_zero() && GiNaC::abs(b) != 1)
        throw ModelError(src.at(0),
                         "number out of range in " + scope.what + ": a power of numbers with more than " +
                             std::to_string(kMaxPowerBits) + " bits",
                         "constants must be finite in double precision");
    } else if (GiNaC::is_exactly_a<GiNaC::numeric>(exponent) && GiNaC::ex_to<GiNaC::numeric>(exponent).is_rational()) {
      // GiNaC takes a number out of the base of a rational power and raises it: a product's
      // coefficient c ((2 x)^n = 2^n x^n), a sum's integer content (1/6 of x/6 + y/2).
      GiNaC::numeric c = 1;
      if (GiNaC::is_a<GiNaC::mul>(base)) {
        for (const auto& f : base)
          if (GiNaC::is_exactly_a<GiNaC::numeric>(f)) c *= GiNaC::ex_to<GiNaC::numeric>(f);
      } else if (GiNaC::is_a<GiNaC::add>(base)) {
        c = base.integer_content();
      }
      const auto& x = GiNaC::ex_to<GiNaC::numeric>(exponent);
      const auto bits = [](const GiNaC::numeric& n) { return static_cast<double>(GiNaC::abs(n).int_length()); };
      const double estimate = c.is_rational() && GiNaC::abs(c) != 1 && !c.is_zero()
                                  ? std::fabs(x.numer().to_double()) * (bits(c.numer()) + bits(c.denom()))
                                  : 0.0;
      if (!(estimate <= static_cast<double>(kMaxPowerBits))) {
        std::ostringstream power;
        power << x;
        throw ModelError(src.at(0),
                         "number out of range in " + scope.what + ": a power with exponent " + power.str() +
                             " of a base with a numeric factor other than 1 (more than " +
                             std::to_string(kMaxPowerBits) + " bits)",
                         "an exponent that large has no value in double precision; check the expression");
      }
    }
    return GiNaC::pow(base, exponent);
  }
  if (scope.hold_tunable_tables && is_table_call(e) && table_call_of(e).table->tunable) {
    GiNaC::exvector operands;
    for (const auto& operand : e) operands.push_back(restore(operand, r, src, scope));
    return GiNaC::function(GiNaC::ex_to<GiNaC::function>(e).get_serial(), operands).hold();
  }
  struct Restore : GiNaC::map_function {
    const ParserInput& r;
    const ExpressionText& src;
    const ExpressionScope& scope;
    Restore(const ParserInput& r_, const ExpressionText& s_, const ExpressionScope& sc) : r(r_), src(s_), scope(sc) {}
    GiNaC::ex operator()(const GiNaC::ex& x) override { return restore(x, r, src, scope); }
  } map(r, src, scope);
  return e.map(map);
}

void check_numbers_finite(const GiNaC::ex& e, const ExpressionText& src, const ExpressionScope& scope) {
  for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it) {
    if (GiNaC::is_exactly_a<GiNaC::numeric>(*it)) {
      const auto& n = GiNaC::ex_to<GiNaC::numeric>(*it);
      if (!n.is_real()) throw ModelError(src.at(0), scope.what + " evaluates to a complex number");
      if (!std::isfinite(n.to_double()))
        throw ModelError(src.at(0), "number out of range in " + scope.what,
                         "constants must be finite in double precision");
    }
  }
}

}  // namespace

GiNaC::ex parse_expression(const ExpressionText& source, const ExpressionScope& scope) {
  const ParserInput input = parser_input(source, scope);
  GiNaC::symtab table;
  for (const auto& [internal, value] : input.symbols) table[internal] = value;
  GiNaC::prototype_table functions = model_function_table();
  if (!scope.tables.empty()) functions.insert(table_call_prototypes().begin(), table_call_prototypes().end());
  GiNaC::parser parser(table, true, functions);
  GiNaC::ex result;
  try {
    result = restore(parser(input.text), input, source, scope);
  } catch (const ModelError&) {
    throw;
  } catch (const GiNaC::parse_error& e) {
    throw ModelError(source.at(0), "malformed expression in " + scope.what + ": " + user_message(e.what(), input));
  } catch (const std::exception& e) {
    throw ModelError(source.at(0), "cannot evaluate " + scope.what + ": " + user_message(e.what(), input));
  }
  check_numbers_finite(result, source, scope);
  return result;
}

}  // namespace dualrate
