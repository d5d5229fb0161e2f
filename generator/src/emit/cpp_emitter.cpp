#include "emit/cpp_emitter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "analysis/stability.hpp"
#include "model/functions.hpp"
#include "schemes/registry.hpp"
#include "ir/straight_line.hpp"

namespace dualrate {

constexpr int kRuntimeApi = 4;  // DUALRATE_RUNTIME_API of the runtime the emitted code is written for

using GiNaC::ex;
using GiNaC::ex_to;
using GiNaC::is_a;
using GiNaC::is_exactly_a;
using GiNaC::numeric;

const char* to_string(ScalarType s) { return s == ScalarType::kFloat ? "float" : "double"; }

ScalarType scalar_type(const std::string& name) { return name == "float" ? ScalarType::kFloat : ScalarType::kDouble; }

std::string scalar_literal(double v) {
  if (!std::isfinite(v)) throw std::logic_error("non-finite constant in emission");
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0) {
    if (v < 0) return fmt::format("-Scalar({:.0f})", -v);
    return fmt::format("Scalar({:.0f})", v == 0 ? 0.0 : v);
  }
  if (v < 0) return fmt::format("-Scalar({:a})", -v);
  return fmt::format("Scalar({:a})", v);
}

namespace {

// Precedence of what an expression prints as: higher binds tighter.
enum Prec { kSum = 1, kProduct = 2, kUnary = 3, kAtom = 4 };

struct Printed {
  std::string text;
  int prec;
};

std::string wrap(const Printed& p, int needed) { return p.prec < needed ? "(" + p.text + ")" : p.text; }

Printed print(const ex& e);

bool negative_numeric(const ex& e) {
  return is_exactly_a<numeric>(e) && ex_to<numeric>(e).is_negative();
}

std::string integer_power(const std::string& base, long n) {
  return fmt::format("dualrate::math::powi<{}>({})", n, base);
}

Printed print_power(const ex& base, const ex& exponent) {
  const std::string b = print(even_power_base(base, exponent)).text;
  if (is_exactly_a<numeric>(exponent)) {
    const numeric& n = ex_to<numeric>(exponent);
    if (n.is_integer() && n.is_positive() && n <= 64) return {integer_power(b, n.to_long()), kAtom};
    if (n.is_integer() && n.is_negative() && n >= -64)
      return {"Scalar(1)/" + integer_power(b, -n.to_long()), kProduct};
    if (n == numeric(1, 2)) return {"std::sqrt(" + b + ")", kAtom};
    if (n == numeric(-1, 2)) return {"Scalar(1)/std::sqrt(" + b + ")", kProduct};
  }
  return {"dualrate::math::pow(" + b + ", " + print(exponent).text + ")", kAtom};
}

// A product printed as [-]numerator/denominator.
Printed print_product(const ex& e) {
  const ProductParts parts = product_parts(e);
  numeric coefficient = parts.coefficient;
  const std::vector<ex>& up = parts.up;
  const std::vector<ex>& down = parts.down;
  const bool negate = coefficient.is_negative();
  if (negate) coefficient = -coefficient;
  std::string num;
  if (coefficient != 1 || up.empty()) num = scalar_literal(coefficient.to_double());
  for (const auto& f : up) num += (num.empty() ? "" : "*") + wrap(print(f), kProduct);
  std::string text = num;
  if (!down.empty()) {
    std::string den;
    for (const auto& f : down) den += (den.empty() ? "" : "*") + wrap(print(f), kProduct);
    text += "/" + (down.size() > 1 ? "(" + den + ")" : wrap(print(down.front()), kUnary));
  }
  if (negate) return {"-" + text, kUnary};
  return {text, (up.size() + down.size() + (coefficient != 1 ? 1 : 0)) > 1 ? kProduct : kAtom};
}

Printed print_sum(const ex& e) {
  std::string text;
  bool first = true;
  for (const auto& term : sum_terms(e)) {
    if (first) {
      text = wrap(print(term), kSum);
      first = false;
    } else if (negative_sign(term)) {
      text += " - " + wrap(print(-term), kProduct);
    } else {
      text += " + " + wrap(print(term), kProduct);
    }
  }
  return {text, kSum};
}

std::string call(const std::string& f, const ex& e) {
  std::string args;
  for (const auto& a : e) args += (args.empty() ? "" : ", ") + print(a).text;
  return f + "(" + args + ")";
}

Printed print_uncached(const ex& e);

// Canonical printing sorts operands by their printed text at every level: memoized, or a
// deep expression would be printed again for every level above it.
Printed print(const ex& e) {
  static std::map<ex, Printed, GiNaC::ex_is_less> cache;
  const auto found = cache.find(e);
  if (found != cache.end()) return found->second;
  Printed p = print_uncached(e);
  cache.emplace(e, p);
  return p;
}

Printed print_uncached(const ex& e) {
  if (is_exactly_a<numeric>(e)) {
    const double v = ex_to<numeric>(e).to_double();
    return {scalar_literal(v), v < 0 ? kUnary : kAtom};
  }
  if (is_a<GiNaC::constant>(e)) return {scalar_literal(ex_to<numeric>(e.evalf()).to_double()), kAtom};
  if (is_a<GiNaC::symbol>(e)) return {ex_to<GiNaC::symbol>(e).get_name(), kAtom};
  if (is_a<GiNaC::add>(e)) return print_sum(e);
  if (is_a<GiNaC::mul>(e)) return print_product(e);
  if (is_a<GiNaC::power>(e)) return print_power(e.op(0), e.op(1));
  if (is_a<GiNaC::function>(e)) {
    return {call(cpp_function(ex_to<GiNaC::function>(e).get_name()), e), kAtom};
  }
  throw std::logic_error("emission: unsupported expression");
}

std::string names_array(const std::string& member, const std::string& size, const std::vector<std::string>& names) {
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + ("\"" + n + "\"");
  return fmt::format("  static constexpr std::array<const char*, {}> {}{{{{{}}}}};\n", size, member, list);
}

// The model file as the source comments name it: its file name, without the directory the
// command line gave (a machine path).
std::string comment_file(const Model& m) { return std::filesystem::path(m.file).filename().string(); }

// Generated code, and which of its lines are statements of model equations.
class Code {
 public:
  explicit Code(std::string comment_file) : comment_file_(std::move(comment_file)) {}

  Code& operator<<(const std::string& text) {
    text_ += text;
    lines_ += static_cast<int>(std::count(text.begin(), text.end(), '\n'));
    return *this;
  }
  Code& operator<<(const Code& code) {
    for (const auto& [line, sources] : code.statements_) statements_.emplace_back(lines_ + line, sources);
    return *this << code.text_;
  }
  // One line, `code` and the comment naming the equations it serves.
  void statement(const std::string& code, std::vector<Equation> sources) {
    std::sort(sources.begin(), sources.end());
    sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
    const std::string comment = source_comment(comment_file_, sources);
    statements_.emplace_back(lines_, std::move(sources));
    *this << code + (comment.empty() ? "" : "  " + comment) + "\n";
  }

  const std::string& text() const { return text_; }
  // Each statement's line (0-based) and sources.
  const std::vector<std::pair<int, std::vector<Equation>>>& statements() const { return statements_; }

 private:
  std::string comment_file_;
  std::string text_;
  int lines_ = 0;
  std::vector<std::pair<int, std::vector<Equation>>> statements_;
};

// The run-time solve M(q) a = f of a second-order model's q-dependent mass matrix, each line a
// statement of the accelerations it solves for (`sources`).
void mass_solve(const SecondOrder& so, const std::vector<Equation>& sources, Code& code) {
  const std::size_t n = so.coordinates.size();
  code.statement(fmt::format("    Eigen::Matrix<Scalar, {0}, {0}> mass_;", n), sources);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      code.statement(fmt::format("    mass_({}, {}) = {};", i, j, cpp_expression(so.mass[i][j])), sources);
  code.statement(fmt::format("    Eigen::Matrix<Scalar, {}, 1> force_;", n), sources);
  for (std::size_t i = 0; i < n; ++i)
    code.statement(fmt::format("    force_[{}] = {};", i, cpp_expression(so.forces[i])), sources);
  code.statement(fmt::format("    const Eigen::Matrix<Scalar, {}, 1> acceleration_ = dualrate::solve_mass(mass_, force_);", n),
                 sources);
}

// The body of a function of (t, x_, u_) that assigns `targets[i] = roots[i]`.
struct Body {
  Code code;
  bool uses_time = false;
  bool uses_inputs = false;
  bool uses_states = false;
};

// Each root's source is root_sources[i]; a model variable's local is its own equation's
// statement, a shared term's serves the equations of the variables and roots it is computed
// for (served).
Body emit_body(const Model& m, const std::vector<ex>& roots, const std::vector<Equation>& root_sources,
               const std::string& target) {
  Body b{Code(comment_file(m))};
  const StraightLine body = straight_line(m, roots);
  const std::vector<Served> serving = served(body);
  const auto sources = [&](std::size_t local) {
    std::vector<Equation> s;
    for (const Variable* v : serving[local].variables) s.push_back(variable_equation(*v));
    for (std::size_t r : serving[local].results) s.push_back(root_sources.at(r));
    return s;
  };
  std::vector<Equation> solve_sources;  // the accelerations the mass solve computes
  for (const auto& l : body.locals)
    if (l.solved()) solve_sources.push_back(variable_equation(*l.variable));
  std::vector<ex> all = body.results;
  for (const auto& l : body.locals) all.push_back(l.solved() ? m.operands(*l.variable) : l.value);
  const auto used = [&](const ex& symbol) {
    for (const auto& e : all)
      if (e.has(symbol)) return true;
    return false;
  };
  Code& out = b.code;
  for (std::size_t i = 0; i < m.states.size(); ++i)
    if (used(m.states[i].symbol)) {
      out << fmt::format("    const Scalar {} = x_[{}];\n", m.states[i].name, i);
      b.uses_states = true;
    }
  for (std::size_t i = 0; i < m.inputs.size(); ++i)
    if (used(m.inputs[i].symbol)) {
      out << fmt::format("    const Scalar {} = u_[{}];\n", m.inputs[i].name, i);
      b.uses_inputs = true;
    }
  bool solved = false;  // the accelerations share one solve
  for (std::size_t i = 0; i < body.locals.size(); ++i) {
    const Local& l = body.locals[i];
    if (!l.solved()) {
      out.statement(fmt::format("    const Scalar {} = {};", l.name(), cpp_expression(l.value)), sources(i));
      continue;
    }
    if (!solved) mass_solve(*m.second_order, solve_sources, out);
    solved = true;
    const auto& a = m.second_order->accelerations;
    out.statement(fmt::format("    const Scalar {} = acceleration_[{}];", l.name(),
                              std::find(a.begin(), a.end(), l.variable->symbol) - a.begin()),
                  sources(i));
  }
  for (std::size_t i = 0; i < body.results.size(); ++i)
    out.statement(fmt::format("    {}[{}] = {};", target, i, cpp_expression(body.results[i])), {root_sources.at(i)});
  b.uses_time = used(m.time);
  return b;
}

// The derivative equations of states [begin, end).
std::vector<Equation> derivative_sources(const Model& m, std::size_t begin, std::size_t end) {
  std::vector<Equation> sources;
  for (std::size_t i = begin; i < end; ++i) sources.push_back(derivative_equation(m.states[i]));
  return sources;
}

// `static void NAME(t, x_, u_, TYPE& dxdt_)` assigning dxdt_[i] = roots[i] (a statement of
// root_sources[i]), after `// COMMENT`.
Code rate_function(const Model& m, const std::string& comment, const std::string& name, const std::string& type,
                   const std::vector<ex>& roots, const std::vector<Equation>& root_sources) {
  const Body b = emit_body(m, roots, root_sources, "dxdt_");
  Code code(comment_file(m));
  code << fmt::format("  // {}\n  static void {}(Scalar {}, const State& {}, const Input& {}, {}& {}) noexcept {{\n",
                      comment, name, b.uses_time ? "t" : "/*t*/", b.uses_states ? "x_" : "/*x_*/",
                      b.uses_inputs ? "u_" : "/*u_*/", type, roots.empty() ? "/*dxdt_*/" : "dxdt_");
  code << b.code << "  }\n";
  return code;
}

// `static void jacobian(t, x_, u_, j_, dfdt_)`: d(state)/dt's Jacobian in the states and its
// partial derivative in t (inputs held), over the Jacobian's nonzero entries; an entry's
// statements are those of its row's equation.
Code jacobian_function(const Model& m) {
  if (m.second_order && !m.second_order->constant_mass)
    throw ModelError(m.second_order->mass_loc,
                     "--jacobian needs a constant mass matrix: this one depends on the coordinates, and the "
                     "accelerations are solved at run time",
                     "generate without --jacobian");
  const GiNaC::matrix j = jacobian(m, state_symbols(m));
  const GiNaC::matrix dfdt = jacobian(m, {m.time});
  std::vector<ex> roots;
  std::vector<Equation> sources;
  std::vector<std::pair<unsigned, unsigned>> entries;
  for (unsigned r = 0; r < j.rows(); ++r)
    for (unsigned c = 0; c < j.cols(); ++c) {
      if (j(r, c).is_zero()) continue;
      roots.push_back(j(r, c));
      sources.push_back(derivative_equation(m.states[r]));
      entries.emplace_back(r, c);
    }
  for (unsigned r = 0; r < dfdt.rows(); ++r) {
    roots.push_back(dfdt(r, 0));
    sources.push_back(derivative_equation(m.states[r]));
  }
  const Body b = emit_body(m, roots, sources, "e_");
  Code s(comment_file(m));
  s << fmt::format(
      "  // d(state)/dt's Jacobian in the states (j_, {} nonzero entries) and its partial derivative in t\n"
      "  // with the inputs held (dfdt_): for implicit integrators (e.g. Boost.Odeint's rosenbrock4).\n"
      "  static void jacobian(Scalar {}, const State& {}, const Input& {}, Eigen::Matrix<Scalar, kStates, kStates>& j_,\n"
      "                       State& dfdt_) noexcept {{\n"
      "    Eigen::Matrix<Scalar, {}, 1> e_;\n",
      entries.size(), b.uses_time ? "t" : "/*t*/", b.uses_states ? "x_" : "/*x_*/", b.uses_inputs ? "u_" : "/*u_*/",
      roots.size());
  s << b.code << "    j_.setZero();\n";
  for (std::size_t k = 0; k < entries.size(); ++k)
    s.statement(fmt::format("    j_({}, {}) = e_[{}];", entries[k].first, entries[k].second, k), {sources[k]});
  for (unsigned r = 0; r < dfdt.rows(); ++r)
    s.statement(fmt::format("    dfdt_[{}] = e_[{}];", r, entries.size() + r), {sources[entries.size() + r]});
  s << "  }\n\n";
  return s;
}

std::string comment_lines(const std::string& text, const std::string& indent) {
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    out += indent + "//" + (line.empty() ? "" : " " + line) + "\n";
  }
  return out;
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
  if (negative_numeric(term)) return true;
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
  return GiNaC::pow(preferred, factor.op(1));
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
  static std::map<ex, ex, GiNaC::ex_is_less> cache;
  const auto found = cache.find(e);
  if (found != cache.end()) return found->second;
  ex result = canonical_uncached(e);
  cache.emplace(e, result);
  return result;
}

ex unsigned_form(const ex& e) {
  if (is_a<GiNaC::add>(e)) return preferred_sign(e);
  if (is_a<GiNaC::mul>(e)) return product_parts(e).negative ? ex(-e) : e;
  numeric sign = 1;
  return canonical_sign(e, sign);
}

ex preferred_sign(const ex& sum) {
  if (!is_a<GiNaC::add>(sum)) return sum;
  ex flipped = -sum;
  if (!is_a<GiNaC::add>(flipped)) return sum;
  const long kept = subtracted_terms(sum), other = subtracted_terms(flipped);
  if (other > kept || (other == kept && print(flipped).text >= print(sum).text)) return sum;
  return flipped;
}

ex even_power_base(const ex& base, const ex& exponent) {
  const bool even = is_exactly_a<numeric>(exponent) && ex_to<numeric>(exponent).is_even();
  return even ? preferred_sign(base) : base;
}

ProductParts product_parts(const ex& product) {
  static std::map<ex, ProductParts, GiNaC::ex_is_less> cache;
  const auto found = cache.find(product);
  if (found != cache.end()) return found->second;
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
  cache.emplace(product, p);
  return p;
}

std::string matrix_function(const LinearMap& m) {
  std::string s = fmt::format("  // {}: {} x {}, {} nonzeros ({}", m.what, m.rows, m.cols, m.nonzeros(), m.shape());
  if (m.structural_nonzeros < m.rows * m.cols) s += fmt::format("; the model's structure allows {}", m.structural_nonzeros);
  if (m.dropped_residue > 0)
    s += fmt::format("; rounding residue up to {:.3g} of the largest entry dropped where the structure has zeros",
                     m.dropped_residue);
  s += fmt::format(")\n  static Eigen::Matrix<Scalar, {}, 1> {}(const Eigen::Matrix<Scalar, {}, 1>& {}) noexcept {{\n",
                   m.rows, m.name, m.cols, m.nonzeros() ? "v_" : "/*v_*/");
  s += fmt::format("    Eigen::Matrix<Scalar, {}, 1> r_;\n", m.rows);
  for (std::size_t r = 0; r < m.terms.size(); ++r) {
    const auto& row = m.terms[r];
    std::string sum;
    const bool negated = !row.empty() && row.front().coefficient < 0;  // every term negative
    for (const auto& t : row) {
      const double c = std::fabs(t.coefficient);
      const std::string term = c == 1 ? fmt::format("v_[{}]", t.column)
                                      : fmt::format("{}*v_[{}]", scalar_literal(c), t.column);
      if (sum.empty())
        sum = term;
      else
        sum += (t.coefficient < 0 && !negated ? " - " : " + ") + term;
    }
    if (row.empty()) sum = "Scalar(0)";
    else if (negated) sum = row.size() > 1 ? "-(" + sum + ")" : "-" + sum;
    s += fmt::format("    r_[{}] = {};\n", r, sum);
  }
  return s + "    return r_;\n  }\n";
}

std::vector<const Variable*> needed_variables(const Model& m, const std::vector<ex>& roots) {
  std::set<std::size_t> needed;
  for (std::size_t i = m.variables.size(); i-- > 0;) {
    bool used = false;
    for (const auto& r : roots) used = used || r.has(m.variables[i].symbol);
    for (std::size_t j : needed) used = used || m.operands(m.variables[j]).has(m.variables[i].symbol);
    if (used) needed.insert(i);
  }
  std::vector<const Variable*> result;
  result.reserve(needed.size());
  for (std::size_t i : needed) result.push_back(&m.variables[i]);
  return result;
}

std::string generated_namespace(const Model& m, const GenerateOptions& o) {
  return o.name_space.empty() ? m.name : o.name_space;
}

std::string generate_header(const Model& m, const GenerateOptions& o) { return generate_traced_header(m, o).text; }

namespace {

// The map of the header `code`: each statement's line under each of its sources, the scheme's
// constants in emission order.
SourceMap source_map(const Model& m, const GenerateOptions& o, const Code& code) {
  SourceMap map;
  map.model_file = m.file;
  map.comment_file = comment_file(m);
  map.header = generated_namespace(m, o) + ".hpp";
  for (const auto& e : model_equations(m)) map.equations.push_back({e, {}});
  for (const auto& [line, sources] : code.statements())
    for (const auto& e : sources) map.record(e, line + 1);
  for (const auto& c : o.matrices) map.constants.push_back({c.name, c.origin});
  for (const auto& r : o.reals) map.constants.push_back({r.name, r.origin});
  for (const auto& i : o.integers) map.constants.push_back({i.name, i.origin});
  return map;
}

}  // namespace

TracedHeader generate_traced_header(const Model& m, const GenerateOptions& o) {
  const SchemeInfo* scheme = find_scheme(o.scheme);
  if (!scheme) throw std::invalid_argument("unknown scheme '" + o.scheme + "'");
  const std::string ns = generated_namespace(m, o);
  Code h(comment_file(m));
  h << fmt::format("// {}.hpp: generated by dualrate {} from {} (the model file as named on the command line). Do "
                   "not edit; regenerate.\n",
                   ns, o.generator_version, m.file);
  h << fmt::format("// Scheme {} ({}), step h = {:.17g}, scalar {}.\n", scheme->name, scheme->summary, o.step,
                   to_string(o.scalar));
  if (!m.description.empty()) {
    h << "//\n";
    h << comment_lines(m.description, "");
  }
  h << "#pragma once\n\n#include <array>\n#include <cmath>\n\n#include <dualrate/runtime.hpp>\n\n";
  h << fmt::format("#if !defined(DUALRATE_RUNTIME_API) || DUALRATE_RUNTIME_API != {}\n", kRuntimeApi);
  h << fmt::format("#error \"{}.hpp was generated for dualrate runtime API {}: use the matching runtime or regenerate\"\n",
                   ns, kRuntimeApi);
  h << "#endif\n\n";
  h << fmt::format("namespace {} {{\n\n", ns);
  h << "struct Model {\n";
  h << fmt::format("  using Scalar = {};\n", to_string(o.scalar));
  h << fmt::format("  static constexpr int kSlow = {};\n", m.slow_count);
  h << fmt::format("  static constexpr int kFast = {};\n", m.fast_count());
  h << "  static constexpr int kStates = kSlow + kFast;\n";
  h << fmt::format("  static constexpr int kInputs = {};\n", m.inputs.size());
  h << fmt::format("  static constexpr int kOutputs = {};\n", m.outputs.size());
  h << "  using State = Eigen::Matrix<Scalar, kStates, 1>;  // [slow; fast]\n";
  h << "  using Input = Eigen::Matrix<Scalar, kInputs, 1>;\n";
  h << "  using Output = Eigen::Matrix<Scalar, kOutputs, 1>;\n";
  h << "  using SlowState = Eigen::Matrix<Scalar, kSlow, 1>;\n";
  h << "  using FastState = Eigen::Matrix<Scalar, kFast, 1>;\n\n";

  std::vector<std::string> names;
  for (const auto& x : m.states) names.push_back(x.name);
  h << names_array("state_names", "kStates", names);
  names.clear();
  for (const auto& u : m.inputs) names.push_back(u.name);
  h << names_array("input_names", "kInputs", names);
  names.clear();
  for (const auto& y : m.outputs) names.push_back(y.name);
  h << names_array("output_names", "kOutputs", names);

  if (!m.parameters.empty()) h << "\n  // Parameters (values fixed at generation).\n";
  for (const auto& p : m.parameters)
    h << fmt::format("  static constexpr Scalar {} = {};  // {:.17g}{}\n", p.name, scalar_literal(p.value), p.value,
                     p.overridden ? " (--param)" : "");

  h << "\n  static State initial_state() noexcept {\n    State x_;\n";
  for (std::size_t i = 0; i < m.states.size(); ++i)
    h << fmt::format("    x_[{}] = {};  // {}\n", i, scalar_literal(m.states[i].initial_value), m.states[i].name);
  h << "    return x_;\n  }\n\n";

  h << "  static Input default_inputs() noexcept {\n    Input u_;\n";
  for (std::size_t i = 0; i < m.inputs.size(); ++i)
    h << fmt::format("    u_[{}] = {};  // {}\n", i, scalar_literal(m.inputs[i].default_value), m.inputs[i].name);
  h << "    return u_;\n  }\n\n";

  std::vector<ex> rhs;
  for (const auto& x : m.states) rhs.push_back(x.rhs);
  const auto slow_end = rhs.begin() + static_cast<long>(m.slow_count);
  h << rate_function(m, "d(state)/dt: the model's equations.", "derivatives", "State", rhs,
                     derivative_sources(m, 0, m.states.size()))
    << "\n";
  h << rate_function(m, "d(slow state)/dt alone (f of x' = f(x, z)), for schemes that evaluate only the slow part.",
                     "slow_derivatives", "SlowState", {rhs.begin(), slow_end}, derivative_sources(m, 0, m.slow_count))
    << "\n";
  h << rate_function(m, "d(fast state)/dt alone (g of z' = g(x, z)), for schemes that evaluate only the fast part.",
                     "fast_derivatives", "FastState", {slow_end, rhs.end()},
                     derivative_sources(m, m.slow_count, m.states.size()))
    << "\n";

  if (o.jacobian) h << jacobian_function(m);

  std::vector<ex> outs;
  std::vector<Equation> out_sources;
  for (const auto& y : m.outputs) {
    outs.push_back(y.expr);
    out_sources.push_back(output_equation(y));
  }
  const Body y = emit_body(m, outs, out_sources, "y_");
  h << fmt::format("  static void outputs(Scalar {}, const State& {}, const Input& {}, Output& {}) noexcept {{\n",
                   y.uses_time ? "t" : "/*t*/", y.uses_states ? "x_" : "/*x_*/", y.uses_inputs ? "u_" : "/*u_*/",
                   m.outputs.empty() ? "/*y_*/" : "y_");
  h << y.code << "  }\n\n";

  std::vector<ex> signals;
  bool signal_uses_time = false;
  for (std::size_t i = 0; i < m.inputs.size(); ++i) {
    const ex s = m.input_signal(i);
    signal_uses_time = signal_uses_time || s.has(m.time);
    signals.push_back(s);
  }
  h << "  // Input signals of the model file's simulation section (defaults where none is given).\n";
  h << fmt::format("  static Input scenario_inputs(Scalar {}) noexcept {{\n    Input u_;\n", signal_uses_time ? "t" : "/*t*/");
  for (std::size_t i = 0; i < signals.size(); ++i)
    h << fmt::format("    u_[{}] = {};  // {}\n", i, cpp_expression(signals[i]), m.inputs[i].name);
  h << "    return u_;\n  }\n};\n\n";

  h << "// Declared rate and scheme.\n";
  h << fmt::format("constexpr Model::Scalar kStep = Model::{};  // h = {:.17g}\n", scalar_literal(o.step), o.step);
  if (scheme->dual_rate) {
    h << fmt::format("constexpr int kRatio = {};  // H = kRatio h = {:.17g}\n", o.ratio, o.ratio * o.step);
    h << fmt::format("using Scheme = {}<Model, kRatio, {}>;\n", scheme->runtime_class, scheme->parallel);
    h << fmt::format("using Tasks = dualrate::DualRate<Scheme, dualrate::OverrunPolicy::{}>;\n\n",
                     o.defer_overruns ? "kDefer" : "kSkip");
    h << "// The two tasks (data transfer and overrun policy: dualrate/dual_rate.hpp; equations:\n";
    h << fmt::format("// {}). One Tasks object per model instance, constructed as Tasks(kStep).\n", scheme->header);
    h << "// Fast task, every h at tick n: reads u(t_n) and the slow end points latched at the last\n";
    h << "// release; writes the snapshot of t_k at release ticks n = k kRatio. Returns true in\n";
    h << "// `release` when slow job k has to be released now.\n";
    h << "[[nodiscard]] inline dualrate::Status fast_task(Tasks& tasks, const Model::Input& u, bool& release) noexcept {\n";
    h << "  return tasks.fast(u, release);\n}\n\n";
    h << "// Slow task, once per release k, preemptible by the fast task: reads the snapshot of t_k,\n";
    h << "// writes x_r(t_k) (tasks.row()) and the end points of macro step k + 1, due by t_{k+1}.\n";
    h << "[[nodiscard]] inline dualrate::Status slow_task(Tasks& tasks) noexcept { return tasks.slow(); }\n\n";
    h << fmt::format("}}  // namespace {}\n", ns);
    return {h.text(), source_map(m, o, h)};
  }
  if (scheme->constants) {
    h << fmt::format("\n// Constants of {} at step h, computed by the generator; each matrix M as the function\n"
                     "// v -> M v over M's nonzero entries.\n", scheme->name);
    if (!o.notes.empty()) h << comment_lines(o.notes, "");
    if (o.functions.empty()) {
      h << "struct SchemeConstants {\n  using Scalar = Model::Scalar;\n";
    } else {
      h << "struct SchemeConstants : Model {\n";
      h << "  using FastSquare = Eigen::Matrix<Scalar, kFast * kFast, 1>;  // kFast x kFast, column-major\n";
    }
    for (const auto& c : o.matrices) h << matrix_function(linear_map(c));
    for (const auto& r : o.reals)
      h << fmt::format("  // {}\n  static constexpr Scalar {} = {};  // {:.17g}\n", r.what, r.name, scalar_literal(r.value),
                       r.value);
    for (const auto& i : o.integers)
      h << fmt::format("  // {}\n  static constexpr {} {} = {};\n", i.what, i.type, i.name,
                       i.type == "bool" ? (i.value ? "true" : "false") : std::to_string(i.value));
    for (const auto& f : o.functions) {
      std::vector<Equation> sources;
      for (std::size_t i : f.root_states) sources.push_back(derivative_equation(o.function_model->states.at(i)));
      h << "\n" << rate_function(*o.function_model, f.what, f.name, f.type, f.roots, sources);
    }
    h << "};\n";
    h << fmt::format("using Scheme = {}<Model, SchemeConstants>;\n", scheme->runtime_class);
  } else {
    h << fmt::format("using Scheme = {}<Model>;\n", scheme->runtime_class);
  }
  h << "using Data = dualrate::Data<Model>;\n\n";
  h << "// One period of the task: advances d by h with the inputs u held over the step.\n";
  h << "[[nodiscard]] inline dualrate::Status step(Data& d, const Model::Input& u) noexcept {\n";
  h << "  return dualrate::advance<Scheme>(d, kStep, u);\n}\n\n";
  h << fmt::format("}}  // namespace {}\n", ns);
  return {h.text(), source_map(m, o, h)};
}

}  // namespace dualrate
