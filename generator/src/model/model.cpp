// Model's own functions: parameter values, variable definitions, resolved right-hand sides,
// input signals.
#include "model/model.hpp"

#include <algorithm>
#include <vector>

#include "model/functions.hpp"
#include "model/printing.hpp"
#include "model/tables.hpp"

namespace dualrate {

GiNaC::exmap Model::parameter_values() const {
  GiNaC::exmap m;
  for (const auto& p : parameters) m[p.symbol] = GiNaC::numeric(p.value);
  return m;
}

GiNaC::exmap Model::variable_definitions() const {
  GiNaC::exmap m;
  for (const auto& v : variables) m[v.symbol] = v.expr.subs(m);
  return m;
}

GiNaC::ex Model::resolve(const GiNaC::ex& e) const { return e.subs(variable_definitions()).subs(parameter_values()); }

const char* to_string(InputHold hold) {
  switch (hold) {
    case InputHold::kLinear:
      return "linear";
    case InputHold::kQuadratic:
      return "quadratic";
    case InputHold::kZero:
      break;
  }
  return "zero";
}

InputHold input_hold_named(const std::string& name) {
  return name == "linear" ? InputHold::kLinear : name == "quadratic" ? InputHold::kQuadratic : InputHold::kZero;
}

Model with_every_input_held(const Model& m, InputHold hold) {
  Model held = m;
  for (Input& u : held.inputs) u.hold = hold;
  return held;
}

std::vector<GiNaC::ex> Model::resolved_rhs() const {
  const GiNaC::exmap vars = variable_definitions();
  const GiNaC::exmap params = parameter_values();
  std::vector<GiNaC::ex> rhs;
  for (const auto& x : states) rhs.push_back(x.rhs.subs(vars).subs(params));
  return rhs;
}

GiNaC::ex Model::operands(const Variable& v) const {
  if (!v.solved) return v.expr;
  GiNaC::lst all;
  for (const auto& row : second_order->mass)
    for (const auto& entry : row) all.append(entry);
  for (const auto& f : second_order->forces) all.append(f);
  return all;
}

GiNaC::ex Model::input_signal(std::size_t i) const {
  for (const auto& s : simulation.inputs)
    if (s.input == i) return s.expr;
  return GiNaC::numeric(inputs[i].default_value);
}

bool Model::uses_time() const {
  for (const auto& v : variables)
    if (operands(v).has(time)) return true;
  for (const auto& x : states)
    if (x.rhs.has(time)) return true;
  for (const auto& y : outputs)
    if (y.expr.has(time)) return true;
  for (const auto& s : simulation.inputs)
    if (s.expr.has(time)) return true;
  return false;
}

bool Model::inputs_vary() const {
  for (const auto& s : simulation.inputs)
    if (s.expr.has(time)) return true;
  return false;
}

std::vector<std::string> Model::state_and_output_names() const {
  std::vector<std::string> names;
  for (const auto& x : states) names.push_back(x.name);
  for (const auto& y : outputs) names.push_back(y.name);
  return names;
}

bool Model::holds_inputs() const {
  for (const auto& u : inputs)
    if (u.hold != InputHold::kZero) return true;
  return false;
}

bool Model::detects_jumps() const {
  for (const auto& u : inputs)
    if (u.jump > 0) return true;
  return false;
}

namespace {

// Whether e reads nothing but t, parameters and constants (no state, input, variable or table).
bool of_time_and_parameters(const GiNaC::ex& e, const Model& m) {
  for (auto node = e.preorder_begin(); node != e.preorder_end(); ++node) {
    if (is_table_call(*node)) return false;
    if (!GiNaC::is_a<GiNaC::symbol>(*node) || node->is_equal(m.time)) continue;
    const bool parameter = std::any_of(m.parameters.begin(), m.parameters.end(),
                                       [&](const Parameter& p) { return node->is_equal(p.symbol); });
    if (!parameter) return false;
  }
  return true;
}

GiNaC::ex marked(const GiNaC::ex& e, const Model& m) {
  if (!e.has(m.time) || is_time_term(e)) return e;
  if (of_time_and_parameters(e, m)) {
    // The sign outside the term: -2 sin(3 t) and 2 sin(3 t) are one time term, shared by
    // the expressions that use either, whichever sign GiNaC holds.
    const GiNaC::ex u = unsigned_form(e);
    return u.is_equal(e) ? dr_time(e).hold() : -dr_time(u).hold();
  }
  struct Mark : GiNaC::map_function {
    const Model& m;
    explicit Mark(const Model& model) : m(model) {}
    GiNaC::ex operator()(const GiNaC::ex& x) override { return marked(x, m); }
  } mark(m);
  return e.map(mark);
}

bool calls_tunable_table(const GiNaC::ex& e) {
  for (auto node = e.preorder_begin(); node != e.preorder_end(); ++node)
    if (is_table_call(*node) && table_call_of(*node).table->tunable) return true;
  return false;
}

bool uses_any(const GiNaC::ex& e, const std::vector<GiNaC::ex>& symbols) {
  return std::any_of(symbols.begin(), symbols.end(), [&](const GiNaC::ex& s) { return e.has(s); });
}

}  // namespace

bool depends_on_tunable(const Model& m, const Parameter& p) {
  // The symbols of the parameters before p whose values follow a calibration (a parameter's
  // expression uses only earlier ones).
  std::vector<GiNaC::ex> following;
  for (const auto& q : m.parameters) {
    if (q.name == p.name) break;
    if (q.tunable || calls_tunable_table(q.expr) || uses_any(q.expr, following)) following.push_back(q.symbol);
  }
  return calls_tunable_table(p.expr) || uses_any(p.expr, following);
}

GiNaC::ex Model::with_time_terms(const GiNaC::ex& e) const {
  const GiNaC::ex c = canonical_form(e);
  return c.has(time) ? canonical_form(marked(c, *this)) : c;
}

}  // namespace dualrate
