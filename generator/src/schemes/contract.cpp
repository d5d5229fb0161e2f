#include "schemes/contract.hpp"

#include "ir/function_cost.hpp"

namespace dualrate {

double option_value(const SchemeOptions& options, const std::string& name, double otherwise) {
  const auto found = options.find(name);
  return found != options.end() ? found->second : otherwise;
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
