#include "schemes/compensated_states.hpp"

#include <algorithm>
#include <cmath>

#include "numeric/linearization.hpp"

namespace dualrate {

std::vector<bool> compensated_states(const Model& model, const SchemeInfo& scheme, const GenerateRequest& request) {
  if (request.scalar != ScalarType::kFloat || scheme.compensated_update == CompensatedUpdate::kNone) return {};
  const std::size_t summed =
      scheme.compensated_update == CompensatedUpdate::kSlowStates ? model.slow_count : model.states.size();
  std::vector<double> x0, u0;
  for (const auto& x : model.states) x0.push_back(x.initial_value);
  for (std::size_t i = 0; i < model.inputs.size(); ++i) {
    const GiNaC::ex v = model.input_signal(i).subs(model.parameter_values()).subs(GiNaC::lst{model.time}, GiNaC::lst{0}).evalf();
    u0.push_back(GiNaC::is_a<GiNaC::numeric>(v) ? GiNaC::ex_to<GiNaC::numeric>(v).to_double() : 0.0);
  }
  const Eigen::MatrixXd j = evaluate(model, jacobian(model, state_symbols(model)), 0, x0, u0);
  std::vector<bool> flags(model.states.size(), false);
  for (std::size_t i = 0; i < summed; ++i) {
    const double own_rate = std::fabs(j(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i)));
    flags[i] = std::isfinite(own_rate) && request.step * own_rate * kCompensatedMemory < 1;
  }
  if (std::none_of(flags.begin(), flags.end(), [](bool f) { return f; })) return {};
  return flags;
}

std::string compensated_names(const Model& model, const std::vector<bool>& compensated) {
  std::string names;
  for (std::size_t i = 0; i < compensated.size(); ++i)
    if (compensated[i]) names += (names.empty() ? "" : ", ") + model.states[i].name;
  return names;
}

}  // namespace dualrate
