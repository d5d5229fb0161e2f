#include "ir/straight_line.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>

#include "model/functions.hpp"
#include "model/printing.hpp"

namespace dualrate {

std::vector<const Variable*> needed_variables(const Model& m, const std::vector<GiNaC::ex>& roots) {
  std::set<GiNaC::ex, GiNaC::ex_is_less> used;  // the symbols the roots and the needed variables name
  const auto collect = [&used](const GiNaC::ex& e) {
    for (auto node = e.preorder_begin(); node != e.preorder_end(); ++node)
      if (GiNaC::is_a<GiNaC::symbol>(*node)) used.insert(*node);
  };
  for (const auto& r : roots) collect(r);
  std::vector<const Variable*> result;
  for (std::size_t i = m.variables.size(); i-- > 0;)
    if (used.count(m.variables[i].symbol)) {
      collect(m.operands(m.variables[i]));
      result.push_back(&m.variables[i]);
    }
  std::reverse(result.begin(), result.end());
  return result;
}

using GiNaC::ex;
using GiNaC::is_a;

namespace {

// A 64-bit mix of two values (splitmix64's finalizer on their combination).
std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  std::uint64_t z = a * 0x9e3779b97f4a7c15ULL + b + 0x632be59bd9b4e019ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t text_hash(const std::string& text) { return std::hash<std::string>{}(text); }

// One binary operation: its operands in a fixed order (a + b and b + a round alike).
std::uint64_t binary(std::uint64_t a, char op, std::uint64_t b) {
  return mix(mix(static_cast<std::uint64_t>(op), std::min(a, b)), std::max(a, b));
}

// operation_order of the node e, its operands' by `of`.
template <class Of>
OperationOrder node_order(const ex& e, const SharedOrders& shared, Of&& of) {
  if (is_a<GiNaC::symbol>(e)) {
    const auto found = shared.find(e);
    return found != shared.end() ? found->second : text_hash(GiNaC::ex_to<GiNaC::symbol>(e).get_name());
  }
  if (is_a<GiNaC::numeric>(e)) return text_hash(cpp_expression(GiNaC::abs(GiNaC::ex_to<GiNaC::numeric>(e))));
  if (is_a<GiNaC::add>(e)) {
    std::optional<OperationOrder> sum;
    for (const ex& term : sum_terms(e)) {
      const OperationOrder t = of(term);
      sum = sum ? binary(*sum, '+', t) : t;
    }
    return *sum;
  }
  if (is_a<GiNaC::mul>(e)) {
    const ProductParts parts = product_parts(e);
    const GiNaC::numeric coefficient = GiNaC::abs(parts.coefficient);
    std::optional<OperationOrder> up, down;
    if (coefficient != 1 || parts.up.empty()) up = text_hash(cpp_expression(coefficient));
    for (const ex& f : parts.up) up = up ? binary(*up, '*', of(f)) : of(f);
    for (const ex& f : parts.down) down = down ? binary(*down, '*', of(f)) : of(f);
    return down ? mix(mix('/', *up), *down) : *up;
  }
  if (is_a<GiNaC::power>(e))
    return mix(mix('^', of(even_power_base(e.op(0), e.op(1)))), text_hash(cpp_expression(e.op(1))));
  OperationOrder call =
      text_hash(is_a<GiNaC::function>(e) ? GiNaC::ex_to<GiNaC::function>(e).get_name() : cpp_expression(e));
  for (const ex& operand : e) call = mix(call, of(operand));
  return call;
}

// operation_order with each subexpression's remembered (the symbols in `shared` given their
// meaning before any expression that uses them is asked for).
struct MemoizedOrders {
  SharedOrders shared;
  std::unordered_map<ex, OperationOrder, std::hash<ex>, GiNaC::ex_is_equal> memo;
  OperationOrder operator()(const ex& e) {
    const auto found = memo.find(e);
    if (found != memo.end()) return found->second;
    const OperationOrder order = node_order(e, shared, *this);
    memo.emplace(e, order);
    return order;
  }
};

}  // namespace

OperationOrder operation_order(const ex& e, const SharedOrders& shared) {
  return node_order(e, shared, [&shared](const ex& x) { return operation_order(x, shared); });
}

namespace {

bool leaf(const ex& e) { return is_a<GiNaC::numeric>(e) || is_a<GiNaC::symbol>(e) || is_a<GiNaC::constant>(e); }

// A subexpression up to its sign, named by the canonical text of its unsigned form (c (a - b)
// and -c (b - a), (a - b)^3 and -(b - a)^3 print alike).
// Once per expression for the life of the process (the search below asks again for every
// subexpression at every round).
const std::string& key(const ex& e) {
  static std::unordered_map<ex, std::string, std::hash<ex>, GiNaC::ex_is_equal> keys;
  const auto found = keys.find(e);
  if (found != keys.end()) return found->second;
  return keys.emplace(e, cpp_expression(unsigned_form(e))).first->second;
}

struct Occurrences {
  ex value;  // the unsigned form first met
  int n = 0;
};
using Counts = std::map<std::string, Occurrences>;

// -x, as GiNaC holds a subtracted term (whether a sum's term is -x or x depends on the sign
// GiNaC gave the sum): counted as x, once.
bool negated(const ex& e) {
  return is_a<GiNaC::mul>(e) && e.nops() == 2 && (e.op(0).is_equal(-1) || e.op(1).is_equal(-1));
}

// A time term is shared whole or not at all: its operands are computed in Time, a shared
// local in Scalar.
void count(const ex& e, Counts& counts) {
  if (leaf(e)) return;
  if (negated(e)) return count(e.op(0).is_equal(-1) ? e.op(1) : e.op(0), counts);
  Occurrences& o = counts[key(e)];
  if (o.n++ == 0) o.value = unsigned_form(e);
  if (is_time_term(e)) return;
  for (const auto& operand : e) count(operand, counts);
}

// Replaces every subexpression whose unsigned form prints as `from` by `to`, with its sign.
struct Replace : GiNaC::map_function {
  Replace(std::string from, ex to) : from_(std::move(from)), to_(std::move(to)) {}
  ex operator()(const ex& e) override {
    if (leaf(e)) return e;
    if (key(e) == from_) return cpp_expression(e) == from_ ? to_ : -to_;
    if (is_time_term(e)) return e;
    return e.map(*this);
  }

 private:
  std::string from_;
  ex to_;
};

// What sharing a node saves per further occurrence: its own arithmetic, except for what a
// product or sum absorbs as written: a negated term (-x) is a subtraction in a sum and a
// reciprocal (x^-1) a division in a product, so sharing them saves nothing.
long saving(const ex& e) {
  const long ops = count_ops(e).total();
  if (negated(e)) return 0;
  if (is_a<GiNaC::power>(e) && is_a<GiNaC::numeric>(e.op(1)) && GiNaC::ex_to<GiNaC::numeric>(e.op(1)).is_negative())
    return 0;
  return ops;
}

// The i-th shared term's name, one symbol per name for the whole run: GiNaC orders sums and
// products by their symbols' creation, so a fresh symbol per call could print (and cost)
// the same body differently from one call to the next.

const GiNaC::symbol& shared_symbol(std::size_t i) {
  static std::vector<GiNaC::symbol> names;
  while (names.size() <= i) names.emplace_back("cse" + std::to_string(names.size()) + "_");
  return names[i];
}

struct Statement {
  ex value;
  const Variable* variable = nullptr;
  bool emitted() const { return !(variable && variable->solved); }  // an acceleration's value is the mass solve's
};

using SharedTerms = std::vector<std::pair<GiNaC::symbol, ex>>;

long total_ops(const std::vector<Statement>& statements, const SharedTerms& shared) {
  long ops = 0;
  for (const auto& s : statements)
    if (s.emitted()) ops += count_ops(s.value).total();
  for (const auto& t : shared) ops += count_ops(t.second).total();
  return ops;
}

// Greedily shares the subexpression whose sharing saves the most operations, while sharing
// still lowers the total; among equal savings the first by printed text.
SharedTerms share_terms(std::vector<Statement>& statements) {
  SharedTerms shared;
  long current = total_ops(statements, shared);
  std::set<std::string> refused;  // sharing them did not pay, as printed
  for (;;) {
    Counts counts;
    for (const auto& s : statements)
      if (s.emitted()) count(s.value, counts);
    for (const auto& t : shared) count(t.second, counts);
    const Counts::value_type* best = nullptr;
    long best_saving = 0;
    for (const auto& entry : counts) {
      const Occurrences& o = entry.second;
      const long save = o.n < 2 || refused.count(entry.first) ? 0 : saving(o.value) * (o.n - 1);
      if (save > best_saving) {
        best = &entry;
        best_saving = save;
      }
    }
    if (!best) return shared;
    const GiNaC::symbol& name = shared_symbol(shared.size());
    const ex value = best->second.value;
    const std::string value_key = best->first;
    Replace replace(value_key, name);
    std::vector<Statement> next = statements;
    auto next_shared = shared;
    for (auto& s : next)
      if (s.emitted()) s.value = canonical_form(replace(s.value));
    for (auto& t : next_shared) t.second = canonical_form(replace(t.second));
    next_shared.emplace_back(name, value);
    const long ops = total_ops(next, next_shared);
    if (ops >= current) {
      refused.insert(value_key);
      continue;
    }
    current = ops;
    statements = std::move(next);
    shared = std::move(next_shared);
  }
}

// The shared symbols `e` uses, among `names`.
std::set<ex, GiNaC::ex_is_less> shared_in(const ex& e, const std::set<ex, GiNaC::ex_is_less>& names) {
  std::set<ex, GiNaC::ex_is_less> found;
  for (auto node = e.preorder_begin(); node != e.preorder_end(); ++node)
    if (is_a<GiNaC::symbol>(*node) && names.count(*node)) found.insert(*node);
  return found;
}

// Drops the shared terms that neither a statement nor another shared term uses, the last first
// (a term only a dropped one used goes too); whether it dropped any. Each value is searched
// once: a Jacobian's thousands of statements times its hundreds of shared terms made a search
// per term the generator's longest step.
bool drop_unused(const std::vector<Statement>& statements, SharedTerms& shared) {
  std::set<ex, GiNaC::ex_is_less> names;
  for (const auto& t : shared) names.insert(t.first);
  std::set<ex, GiNaC::ex_is_less> in_statements;
  for (const auto& s : statements) in_statements.merge(shared_in(s.value, names));
  std::vector<std::set<ex, GiNaC::ex_is_less>> uses;
  std::map<ex, long, GiNaC::ex_is_less> users;
  for (const auto& t : shared) {
    uses.push_back(shared_in(t.second, names));
    for (const ex& u : uses.back()) ++users[u];
  }
  bool dropped = false;
  for (std::size_t k = shared.size(); k-- > 0;) {
    const ex symbol = shared[k].first;
    if (in_statements.count(symbol) || users[symbol] > 0) continue;
    for (const ex& u : uses[k]) --users[u];
    shared.erase(shared.begin() + static_cast<long>(k));
    dropped = true;
  }
  return dropped;
}

// One round of keep_operation_order; whether it changed anything.
bool keep_operation_order_once(std::vector<Statement>& statements, SharedTerms& shared,
                               const std::vector<Statement>& unshared,
                               const std::vector<OperationOrder>& unshared_orders) {
  bool changed = false;
  // Each shared symbol's operations and its value without shared terms, those its value
  // uses first (a value may use a term shared after it: sin(th) in sin(th)*cos(th)).
  GiNaC::exmap expansion;
  MemoizedOrders orders;
  const auto expand = [&](std::size_t k, auto&& self) -> void {
    if (expansion.count(shared[k].first)) return;
    for (std::size_t j = 0; j < shared.size(); ++j)
      if (j != k && shared[k].second.has(shared[j].first)) self(j, self);
    orders.shared[shared[k].first] = orders(shared[k].second);
    expansion[shared[k].first] = canonical_form(shared[k].second.subs(expansion));
  };
  for (std::size_t k = 0; k < shared.size(); ++k) expand(k, expand);
  for (std::size_t i = 0; i < statements.size(); ++i)
    if (statements[i].emitted() && orders(statements[i].value) != unshared_orders[i]) {
      statements[i].value = unshared[i].value;
      changed = true;
    }
  for (auto& t : shared)
    if (orders(t.second) != operation_order(expansion[t.first])) {
      t.second = expansion[t.first];
      changed = true;
    }
  return drop_unused(statements, shared) || changed;
}

// A statement where a shared term's name takes another place among a product's factors or a
// sum's terms than its value does would round otherwise than the model's expression (the
// order of the operations changes): it is written without shared terms, and a shared term no
// statement uses any more is dropped (verify's exact step check holds generated code to the
// model's order).
void keep_operation_order(std::vector<Statement>& statements, SharedTerms& shared,
                          const std::vector<Statement>& unshared) {
  std::vector<OperationOrder> unshared_orders(unshared.size(), 0);
  for (std::size_t i = 0; i < unshared.size(); ++i)
    if (unshared[i].emitted()) unshared_orders[i] = operation_order(unshared[i].value);
  if (shared.empty()) return;
  while (keep_operation_order_once(statements, shared, unshared, unshared_orders)) {
  }
}

// The body: each shared term right before the first local or result that uses it, after the
// shared terms its own value uses.
StraightLine placed(const std::vector<Statement>& statements, const SharedTerms& shared) {
  StraightLine body;
  std::vector<bool> done(shared.size(), false);
  const auto place = [&](const ex& value, auto&& self) -> void {
    for (std::size_t i = 0; i < shared.size(); ++i)
      if (!done[i] && value.has(shared[i].first)) {
        done[i] = true;
        self(shared[i].second, self);
        body.locals.push_back({shared[i].first, shared[i].second, nullptr});
      }
  };
  for (const auto& s : statements) {
    place(s.value, place);
    if (s.variable)
      body.locals.push_back({s.variable->symbol, s.value, s.variable});
    else
      body.results.push_back(s.value);
  }
  return body;
}

}  // namespace

StraightLine straight_line(const Model& m, const std::vector<ex>& roots, bool share) {
  std::vector<Statement> statements;
  for (const Variable* v : needed_variables(m, roots)) statements.push_back({m.with_time_terms(v->expr), v});
  for (const ex& r : roots) statements.push_back({m.with_time_terms(r), nullptr});
  if (!share) return placed(statements, {});
  const std::vector<Statement> unshared = statements;
  SharedTerms shared = share_terms(statements);
  keep_operation_order(statements, shared, unshared);
  return placed(statements, shared);
}

std::vector<Served> served(const StraightLine& body) {
  std::vector<Served> served(body.locals.size());
  const auto add = [](Served& to, const Served& from) {
    for (const Variable* v : from.variables)
      if (std::find(to.variables.begin(), to.variables.end(), v) == to.variables.end()) to.variables.push_back(v);
    for (std::size_t r : from.results)
      if (std::find(to.results.begin(), to.results.end(), r) == to.results.end()) to.results.push_back(r);
  };
  for (std::size_t r = 0; r < body.results.size(); ++r)
    for (std::size_t i = 0; i < body.locals.size(); ++i)
      if (!body.locals[i].variable && body.results[r].has(body.locals[i].symbol)) served[i].results.push_back(r);
  // Locals come dependencies first: each one's users are complete before it passes them on.
  for (std::size_t i = body.locals.size(); i-- > 0;) {
    const Local& l = body.locals[i];
    if (l.variable) served[i].variables.insert(served[i].variables.begin(), l.variable);
    if (l.solved()) continue;
    for (std::size_t j = 0; j < i; ++j)
      if (!body.locals[j].variable && l.value.has(body.locals[j].symbol)) add(served[j], served[i]);
  }
  for (auto& s : served) std::sort(s.results.begin(), s.results.end());
  return served;
}

}  // namespace dualrate
