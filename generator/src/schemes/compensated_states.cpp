#include "schemes/compensated_states.hpp"

#include <algorithm>
#include <cmath>

#include "numeric/linearization.hpp"

namespace dualrate {

std::vector<bool> compensated_states(const Model& model, const SchemeInfo& scheme, const GenerateRequest& request) {
  if (request.scalar != ScalarType::kFloat || scheme.traits.compensated_update == CompensatedUpdate::kNone) return {};
  const std::size_t summed =
      scheme.traits.compensated_update == CompensatedUpdate::kSlowStates ? model.slow_count : model.states.size();
  const InitialPoint p = initial_point(model);
  const Eigen::MatrixXd j = evaluate(model, jacobian(model, state_symbols(model)), 0, p.x, p.u);
  // The step of the sums: a dual-rate task form's slow job adds once per macro step.
  const double step = scheme.traits.dual_rate ? request.step * request.ratio : request.step;
  std::vector<bool> flags(model.states.size(), false);
  for (std::size_t i = 0; i < summed; ++i) {
    const double own_rate = std::fabs(j(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i)));
    flags[i] = std::isfinite(own_rate) && step * own_rate * kCompensatedMemory < 1;
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
