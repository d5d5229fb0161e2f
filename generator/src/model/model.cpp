// Model's own functions: parameter values, variable definitions, resolved right-hand sides,
// input signals.
#include "model/model.hpp"

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

GiNaC::ex Model::resolve(const GiNaC::ex& e) const {
  return e.subs(variable_definitions()).subs(parameter_values());
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

}  // namespace dualrate
