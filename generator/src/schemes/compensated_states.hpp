// Which states a float build adds with compensated sums (dualrate/compensated_sum.hpp).
#pragma once

#include <vector>

#include "model/model.hpp"
#include "schemes/contract.hpp"

namespace dualrate {

// A state keeps a rounding of its value for about 1 / (h |df_i/dx_i|) steps (each step scales
// it by 1 + h df_i/dx_i); beyond kCompensatedMemory steps a float sum of them loses more than
// 10 of float's 24 bits, and the state is compensated.
constexpr double kCompensatedMemory = 1024;

// One flag per state, or empty when none is compensated: in a float build, of the states the
// scheme's update adds (SchemeTraits::compensated_update), those with h |df_i/dx_i| below
// 1 / kCompensatedMemory at the initial state and the inputs at t = 0 (an integrator, whose rate
// does not depend on itself, always), with h the macro step H = r h for a dual-rate task form.
std::vector<bool> compensated_states(const Model& model, const SchemeInfo& scheme, const GenerateRequest& request);

// The names of the flagged states, separated by ", ".
std::string compensated_names(const Model& model, const std::vector<bool>& compensated);

}  // namespace dualrate
