#include "schemes/contract.hpp"

#include <algorithm>

#include "ir/function_cost.hpp"

namespace dualrate {

bool takes(const SchemeInfo& scheme, Linearization linearization) {
  if (linearization == Linearization::kScheduled) return scheme.traits.schedulable;
  const std::vector<Linearization>& taken = scheme.traits.linearizations;
  return std::find(taken.begin(), taken.end(), linearization) != taken.end();
}

std::string no_float_reference_gap(const SchemeDesign&) { return ""; }
void no_trajectory_check(const Model&, const ScenarioTrajectory&) {}
SchemeAnalysis no_scheme_analysis(const Model&, double, const SchemeOptions&) { return {}; }
std::string no_generate_note(const Model&, const GenerateRequest&, const SchemeDesign&, const ScenarioTrajectory&) {
  return "";
}

OpCount held_input_ops(const Model& model, int times) {
  if (!model.holds_inputs()) return {};
  long add = 0, mul = 0, div = 0;
  for (const Input& u : model.inputs) {
    if (u.hold == InputHold::kLinear) ++add, ++div;
    if (u.hold == InputHold::kQuadratic) add += 3, mul += 4, div += 2;
  }
  OpCount ops = arithmetic(add, mul, div);
  ops += times * held_input_evaluation_ops(model);
  return ops;
}

OpCount held_input_evaluation_ops(const Model& model) {
  if (!model.holds_inputs()) return {};
  const long inputs = static_cast<long>(model.inputs.size());
  return arithmetic(1 + 2 * inputs, 2 * inputs, 0);
}

OpCount function_ops(const SchemeDesign& design, const std::string& name) {
  for (const auto& f : design.functions)
    if (f.name == name)
      return straight_line_ops(*design.function_model, straight_line(*design.function_model, f.roots));
  throw std::logic_error("op count: no scheme function '" + name + "'");
}

bool recomputed(const SchemeDesign& design, const std::string& name) {
  for (const auto& s : design.recompute)
    for (const auto& o : s.out)
      if (o == name) return true;
  return false;
}

OpCount product_ops(const SchemeDesign& design, const std::string& name) {
  const NamedMatrix& m = named(design.matrices, name);
  return (recomputed(design, name) ? calibrated_linear_map(m) : linear_map(m)).ops();
}

}  // namespace dualrate
